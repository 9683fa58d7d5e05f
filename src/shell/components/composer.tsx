/**
 * The inline composer and the question before sending.
 *
 * The composer: recipient, characters and SMS segments; one line that always
 * says the consent record, a few words for each thing the pre-send checks
 * find (an opt-out, texting not live, quiet hours, texts that arrived
 * meanwhile) and the customer's local time with where their zone comes from;
 * then each finding in full as far as rows allow; and the text with its
 * cursor. It grows with its text up to a third of the screen, and scrolls to
 * keep the cursor's row in view. Enter asks "Send to NAME (PHONE)?"; esc
 * closes it and keeps the text for this contact.
 *
 * The question shows the whole text as it will be sent, the recipient, the
 * segment count, the consent record and the customer's time, every finding,
 * and what to press or type to send.
 */
import { Box } from 'ink';
import { useMemo, useRef } from 'react';
import stringWidth from 'string-width';
import {
  type ConsentStatus,
  type Finding,
  type PreSendSummary,
  preSendChecks,
  preSendSummary,
} from '../../rules/pre-send-checks.js';
import type { AppState, ComposerTarget, ConfirmSend } from '../../store/app-store.js';
import { waitingKey } from '../../store/app-store.js';
import { emptyLine, type LineText } from '../../store/line-editor.js';
import { fittedRecipientLabel } from '../../text/recipient.js';
import { useAppState, useClockNow, useTheme } from '../../ui-kit/app-context.js';
import { Text } from '../../ui-kit/components/text.js';
import { block, day, oneLine } from '../../ui-kit/format.js';
import { type SmsInfo, smsInfo } from '../../ui-kit/sms-info.js';
import { cursorRowOf, scrollTo, type WrappedRow, wrapRows } from '../../ui-kit/wrap-rows.js';
import { preSendFacts } from '../../user-actions/pre-send-facts.js';

/** The composer's smallest height: border, counts, the summary line, two rows of text. */
export const COMPOSER_MIN_ROWS = 6;
/** Border (2) and the counts line. */
const FRAME_ROWS = 3;
/** Rows the panes keep, however large the question. */
const PANES_MIN_ROWS = 3;
/** Header, tabs, status bar and the line Ink keeps free. */
const CHROME_ROWS = 3 + 2 + 1;

interface ComposerSlices {
  composer: AppState['composer'];
  waiting: AppState['composerWaiting'];
  prompt: ConfirmSend | undefined;
  line: LineText;
  leads: AppState['leads'];
  texting: AppState['texting'];
  me: AppState['me'];
  columns: number;
  rows: number;
  configTimeZone: AppState['configTimeZone'];
  machineTimeZone: string;
  phoneZones: AppState['phoneZones'];
}

function slicesOf(state: AppState): ComposerSlices {
  const prompt = state.prompt?.kind === 'confirm-send' ? state.prompt : undefined;
  const key =
    state.composer?.contactId ??
    prompt?.target.contactId ??
    (state.composerWaiting ? waitingKey(state.composerWaiting.leadId) : undefined);
  return {
    composer: state.composer,
    waiting: state.composerWaiting,
    prompt,
    line: key ? (state.composed[key] ?? emptyLine) : emptyLine,
    leads: state.leads,
    texting: state.texting,
    me: state.me,
    columns: state.columns,
    rows: state.rows,
    configTimeZone: state.configTimeZone,
    machineTimeZone: state.machineTimeZone,
    phoneZones: state.phoneZones,
  };
}

export type ComposerView =
  | { kind: 'none'; height: 0 }
  | {
      kind: 'compose';
      height: number;
      name: string;
      phone: string;
      info: SmsInfo;
      target?: ComposerTarget;
      /** The consent record and the customer's time (absent while the lead's contact is read). */
      summary?: PreSendSummary;
      findings: readonly Finding[];
      /** The findings said in full below the summary (consent is in the summary). */
      details: readonly Finding[];
      /** How many of them fit. */
      detailRows: number;
      line: LineText;
      rows: WrappedRow[];
      textRows: number;
      cursorRow: number;
      width: number;
    }
  | {
      kind: 'confirm';
      height: number;
      prompt: ConfirmSend;
      info: SmsInfo;
      bodyRows: WrappedRow[];
      /** Rows of the body shown (all of it, unless the terminal is too small). */
      bodyShown: number;
      width: number;
    };

/** Why the question is asked again when the thread could not be read again before sending. */
const rereadFailedLine = (why: string) =>
  `⚠ Could not read the thread again to check for new texts: ${why} y sends without that check, n goes back to the text`;

/** Columns of text inside the box: the border and one column of padding each side. */
const innerWidth = (columns: number) => Math.max(10, columns - 4);

function viewOf(slices: ComposerSlices, now: number): ComposerView {
  const width = innerWidth(slices.columns);
  if (slices.prompt) {
    const { prompt } = slices;
    const bodyRows = wrapRows(prompt.body, width);
    const findingRows = (prompt.findings ?? []).reduce(
      (sum, finding) => sum + wrapRows(`⚠ ${finding.message}`, width).length,
      0,
    );
    const extra =
      (prompt.summary ? 1 : 0) +
      (prompt.word !== undefined ? 1 : 0) +
      (prompt.checking ? 1 : 0) +
      (prompt.again ? 1 : 0) +
      (prompt.rereadFailed !== undefined ? wrapRows(rereadFailedLine(prompt.rereadFailed), width).length : 0);
    const max = Math.max(COMPOSER_MIN_ROWS, slices.rows - CHROME_ROWS - PANES_MIN_ROWS);
    const wanted = FRAME_ROWS + bodyRows.length + findingRows + extra;
    // Too tall for this terminal: the text's last rows give way to a line that says so.
    const bodyShown = wanted <= max ? bodyRows.length : Math.max(1, bodyRows.length - (wanted - max) - 1);
    return {
      kind: 'confirm',
      height: Math.min(wanted, max),
      prompt,
      info: smsInfo(prompt.body),
      bodyRows,
      bodyShown,
      width,
    };
  }
  if (!slices.composer && !slices.waiting) return { kind: 'none', height: 0 };
  const target = slices.composer;
  const text = slices.line.text;
  const facts = target ? preSendFacts(slices, target, text, now) : undefined;
  const findings = facts ? preSendChecks(facts) : [];
  const details = findings.filter((finding) => finding.check !== 'consent');
  // One column is left for the cursor after the last character of a full row.
  const rows = wrapRows(text, width - 1);
  const max = Math.max(COMPOSER_MIN_ROWS, Math.floor(slices.rows / 3));
  // The summary line always; the findings in full in the rows two rows of text leave.
  const detailRows = Math.max(0, Math.min(details.length, max - FRAME_ROWS - 2 - 1));
  const textRows = Math.max(2, Math.min(rows.length, max - FRAME_ROWS - 1 - detailRows));
  return {
    kind: 'compose',
    height: FRAME_ROWS + 1 + detailRows + textRows,
    name: target?.name ?? slices.waiting?.name ?? '',
    phone: target?.phone ?? slices.waiting?.phone ?? '',
    info: smsInfo(text),
    ...(target ? { target } : {}),
    ...(facts ? { summary: preSendSummary(facts) } : {}),
    findings,
    details,
    detailRows,
    line: slices.line,
    rows,
    textRows,
    cursorRow: cursorRowOf(rows, slices.line.cursor),
    width,
  };
}

/** What the composer area shows now, and its height (the root lays the panes out around it). */
export function useComposerView(): ComposerView {
  const slices = useAppState(slicesOf);
  const now = useClockNow();
  const { composer, waiting, prompt, line, leads, texting, me, columns, rows } = slices;
  const { configTimeZone, machineTimeZone, phoneZones } = slices;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the slices are the inputs, compared one by one.
  return useMemo(
    () => viewOf(slices, now),
    [
      composer,
      waiting,
      prompt,
      line,
      leads,
      texting,
      me,
      columns,
      rows,
      configTimeZone,
      machineTimeZone,
      phoneZones,
      now,
    ],
  );
}

const LEVEL_ROLE = { block: 'danger', strong: 'danger', warn: 'warning' } as const;

/** Columns the recipient keeps however long the counts after it: a name's start and the whole number. */
const RECIPIENT_MIN_COLUMNS = 24;

function Counts({ name, phone, info, width }: { name: string; phone: string; info: SmsInfo; width: number }) {
  const theme = useTheme();
  const counts = ` · ${info.characters} characters · ${info.segments} ${info.segments === 1 ? 'segment' : 'segments'} (${info.encoding})`;
  const tooLong = info.tooLong ? ' · too long to send' : '';
  // The name gives way before the number and the counts: "To Tom Kow… (+15035550117) · 12 characters".
  const room = Math.max(RECIPIENT_MIN_COLUMNS, width - 'To '.length - stringWidth(counts + tooLong));
  return (
    <Text wrap="truncate-end">
      <Text bold>To {fittedRecipientLabel({ name, phone }, room)}</Text>
      {counts}
      {tooLong ? <Text color={theme.danger}>{tooLong}</Text> : null}
    </Text>
  );
}

/** One row of the text, with the cursor drawn on it when it is there. */
function TextRow({ text, row, cursor }: { text: string; row: WrappedRow; cursor?: number }) {
  if (cursor === undefined)
    return <Text wrap="truncate-end">{block(text.slice(row.start, row.end)) || ' '}</Text>;
  const before = block(text.slice(row.start, cursor));
  const rest = text.slice(cursor, row.end);
  const [under = ' '] = rest;
  return (
    <Text wrap="truncate-end">
      {before}
      <Text inverse>{under === ' ' ? ' ' : block(under)}</Text>
      {block(rest.slice(under.length))}
    </Text>
  );
}

/** "consent given 2026-10-02", "consent not given 2026-10-02", "no consent record", "consent unknown". */
export function consentText(consent: ConsentStatus): string {
  return 'recordedAt' in consent ? `${consent.label} ${day(consent.recordedAt)}` : consent.label;
}

/**
 * One line that is always there: the consent record, a few words for each
 * other finding, and the customer's local time with where it comes from.
 */
function SummaryLine({
  summary,
  findings,
  rows,
}: {
  summary: PreSendSummary;
  findings: readonly Finding[];
  /** Which rows of a long text are shown. */
  rows?: string;
}) {
  const theme = useTheme();
  const { consent, customerTime } = summary;
  return (
    <Text wrap="truncate-end">
      <Text color={consent.given ? theme.success : theme.danger}>{consentText(consent)}</Text>
      {findings
        .filter((finding) => finding.check !== 'consent')
        .map((finding) => (
          <Text key={`${finding.check}:${finding.message}`} color={theme[LEVEL_ROLE[finding.level]]}>
            {' '}
            · ⚠ {finding.tag}
          </Text>
        ))}
      {' · '}
      <Text {...(customerTime.quiet ? { color: theme.warning } : {})}>{customerTime.text}</Text>
      {rows ? ` · ${rows}` : ''}
    </Text>
  );
}

function ComposeBox({ view }: { view: Extract<ComposerView, { kind: 'compose' }> }) {
  const theme = useTheme();
  const top = useRef(0);
  top.current = scrollTo(top.current, view.cursorRow, view.textRows, view.rows.length);
  const shown = view.rows.slice(top.current, top.current + view.textRows);
  const above = top.current;
  const below = Math.max(0, view.rows.length - top.current - view.textRows);
  const scrolled =
    above > 0 || below > 0 ? `rows ${above + 1}–${above + shown.length} of ${view.rows.length}` : undefined;
  return (
    <Box
      flexDirection="column"
      height={view.height}
      borderStyle="round"
      borderColor={theme.accent}
      paddingX={1}
      overflow="hidden"
    >
      <Counts name={view.name} phone={view.phone} info={view.info} width={view.width} />
      {!view.summary ? (
        <Text color={theme.accent} wrap="truncate-end">
          Reading this lead's contact… type away: the text is kept.
        </Text>
      ) : (
        <SummaryLine
          summary={view.summary}
          findings={view.findings}
          {...(scrolled ? { rows: scrolled } : {})}
        />
      )}
      {view.details.slice(0, view.detailRows).map((finding) => (
        <Text
          key={`${finding.check}:${finding.message}`}
          color={theme[LEVEL_ROLE[finding.level]]}
          wrap="truncate-end"
        >
          ⚠ {finding.message}
        </Text>
      ))}
      {shown.map((row, index) => {
        const at = top.current + index;
        return (
          <TextRow
            key={at}
            text={view.line.text}
            row={row}
            {...(at === view.cursorRow ? { cursor: view.line.cursor } : {})}
          />
        );
      })}
    </Box>
  );
}

function ConfirmBox({ view }: { view: Extract<ComposerView, { kind: 'confirm' }> }) {
  const theme = useTheme();
  const { prompt } = view;
  const hidden = view.bodyRows.length - view.bodyShown;
  return (
    <Box
      flexDirection="column"
      height={view.height}
      borderStyle="double"
      borderColor={prompt.word !== undefined ? theme.danger : theme.accent}
      paddingX={1}
      overflow="hidden"
    >
      <Counts name={prompt.target.name} phone={prompt.target.phone} info={view.info} width={view.width} />
      {prompt.summary ? <SummaryLine summary={prompt.summary} findings={[]} /> : null}
      {view.bodyRows.slice(0, view.bodyShown).map((row) => (
        <TextRow key={row.start} text={prompt.body} row={row} />
      ))}
      {hidden > 0 ? (
        <Text color={theme.warning} wrap="truncate-end">
          … {hidden} more {hidden === 1 ? 'row' : 'rows'} of this text (make the terminal taller to see it
          all)
        </Text>
      ) : null}
      {(prompt.findings ?? []).map((finding) => (
        <Text
          key={`${finding.check}:${finding.message}`}
          color={theme[LEVEL_ROLE[finding.level]]}
          wrap="wrap"
        >
          ⚠ {finding.message}
        </Text>
      ))}
      {prompt.again ? (
        <Text color={theme.warning} bold wrap="truncate-end">
          ⚠ Being replied to in another terminal: y sends this anyway, n goes back to the text
        </Text>
      ) : null}
      {prompt.rereadFailed !== undefined ? (
        <Text color={theme.warning} bold wrap="wrap">
          {rereadFailedLine(prompt.rereadFailed)}
        </Text>
      ) : null}
      {prompt.checking ? (
        <Text color={theme.accent} wrap="truncate-end">
          Reading the thread again: did anyone write meanwhile?
        </Text>
      ) : prompt.word !== undefined ? (
        <Text wrap="truncate-end">
          <Text bold>Type {prompt.word} and press enter to send: </Text>
          {oneLine(prompt.typed?.text ?? '')}
          <Text inverse> </Text>
          {prompt.mistyped ? (
            <Text color={theme.danger}>
              {' '}
              · not sent: type exactly {prompt.word}, or esc to go back to the text
            </Text>
          ) : null}
        </Text>
      ) : null}
    </Box>
  );
}

/** The composer or the question, as the root computed it (it needs the height to lay out the panes). */
export function Composer({ view }: { view: ComposerView }) {
  if (view.kind === 'none') return null;
  return view.kind === 'confirm' ? <ConfirmBox view={view} /> : <ComposeBox view={view} />;
}
