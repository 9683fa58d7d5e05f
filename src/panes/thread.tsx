/**
 * Thread: the lead highlighted in the list it came from (the Inbox, unless
 * enter in Contacts or i chose another; see threadSubject), at every size,
 * named with its phone in the title: its contact, the latest consent record
 * and the texts, oldest first, those sent from here among them by the time
 * they were sent, and at the end what the service has not taken yet (sending,
 * waiting, failed). The service truncates message bodies; the
 * pane says so. `c` here texts exactly the person the title names.
 */

import { Box } from 'ink';
import type { Slot } from '../poller/reads.js';
import type { AppState, OutgoingText } from '../store/app-store.js';
import { isDone } from '../store/conversation-marks.js';
import { inboundId, type SeenKind } from '../store/seen.js';
import {
  contactRows,
  inboxRows,
  listedLead,
  openLead,
  repliedFromHere,
  selectedThreadEntry,
  selectionOf,
  type ThreadEntry,
  threadLeadId,
  threadList,
  threadSubject,
} from '../store/selectors.js';
import { newestInboundAt } from '../store/waiting.js';
import { displayText } from '../text/display.js';
import { fittedRecipientLabel, recipientLabel } from '../text/recipient.js';
import { wrapLines } from '../text/wrap-lines.js';
import { useAppState, useTheme } from '../ui-kit/app-context.js';
import { LoadedStatus } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { Text } from '../ui-kit/components/text.js';
import { block, dateTime, enumLabel, oneLine } from '../ui-kit/format.js';
import type { ColourRole } from '../ui-kit/theme.js';
import { composeCommand, copyCommand, doneCommand } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

type Entry = ThreadEntry;

const TITLE = 'Thread — ';

const OUTGOING_LABEL: Record<OutgoingText['state'], { text: string; color: ColourRole }> = {
  sending: { text: 'sending…', color: 'accent' },
  sent: { text: 'sent', color: 'success' },
  replayed: { text: 'sent (replayed: the service had it already)', color: 'success' },
  waiting: { text: 'not confirmed — will retry with the same key', color: 'warning' },
  failed: { text: 'NOT SENT', color: 'danger' },
};

function entryText(entry: Entry): string {
  return block(entry.kind === 'message' ? entry.message.body : entry.text.body);
}

/** The first line of a text: who, when, and for a text sent from here, how its sending went. */
function EntryHead({ entry, selected }: { entry: Entry; selected: boolean }) {
  const theme = useTheme();
  if (entry.kind === 'message') {
    const inbound = String(entry.message.direction) === 'inbound';
    return (
      <Text inverse={selected} color={inbound ? theme.inbound : theme.outbound} wrap="truncate-end">
        {inbound ? '◀ them' : '▶ shop'} · {dateTime(entry.message.occurred_at)}
        {inbound || String(entry.message.direction) === 'outbound'
          ? ''
          : ` · ${enumLabel(entry.message.direction)}`}
      </Text>
    );
  }
  const label = OUTGOING_LABEL[entry.text.state];
  // Who it went to, as every notice names them: the thread lists a contact's texts, two contacts may share a name.
  const to = recipientLabel({ name: entry.text.contactName, phone: entry.text.phone });
  return (
    <Text inverse={selected} color={theme[label.color]} wrap="truncate-end">
      ▶ you · {dateTime(new Date(entry.text.confirmedAt).toISOString())} · {label.text} · to {to}
      {entry.text.reason ? ` — ${entry.text.reason}` : ''}
    </Text>
  );
}

/** "12 Jun 14:03 · water heater": when the lead came, and its job when a list read shows it. */
export function filedLeadLabel(state: AppState, leadId: string): string {
  const detail = state.leads[leadId]?.data;
  const row = listedLead(state, leadId);
  const createdAt = detail?.lead.created_at ?? row?.created_at;
  const what = row ? oneLine(row.job_type) : detail ? `from ${enumLabel(detail.lead.source)}` : undefined;
  return [createdAt ? dateTime(createdAt) : `id ${oneLine(leadId)}`, what].filter(Boolean).join(' · ');
}

/** The lead the selected text was filed under by the service, when it was sent from this thread. */
const filedUnderOfSelected = (state: AppState): string | undefined => {
  const entry = selectedThreadEntry(state);
  return entry?.kind === 'outgoing' ? entry.filedUnder : undefined;
};

/**
 * One terminal line of the thread: a text's first line, a line of its body, or of a note under its first
 * line (where the shop filed a text sent from here).
 */
type ThreadLine = { entry: number; head: boolean; text: string; note?: boolean };

/**
 * Which lines of the thread are on screen, scrolled by lines: the newest text
 * stays in view while the newest is selected; a text selected further up is
 * the first one shown, with the texts after it below it (k never hides every
 * later text). `earlier` / `newer`: texts that start above / below the view.
 */
export function threadWindow(
  lines: readonly ThreadLine[],
  selected: number,
  atEnd: boolean,
  rows: number,
): { top: number; shown: number; earlier: number; newer: number } {
  const total = lines.length;
  const firstLine = lines.findIndex((line) => line.entry === selected);
  let room = Math.max(1, rows);
  let top = 0;
  // Two passes: the "earlier" and "newer" lines take room of their own.
  for (let pass = 0; pass < 3; pass++) {
    const end = Math.max(0, total - room);
    top = atEnd || firstLine < 0 ? end : Math.min(firstLine, end);
    const marks = (top > 0 ? 1 : 0) + (top + room < total ? 1 : 0);
    const next = Math.max(1, rows - marks);
    if (next === room) break;
    room = next;
  }
  const shown = Math.min(room, total - top);
  // A text cut at the top, its first line out of sight, counts: the mark says there is more above it.
  const earlier = new Set(lines.slice(0, top).map((line) => line.entry));
  const newer = new Set(
    lines
      .slice(top + shown)
      .filter((line) => line.head)
      .map((line) => line.entry),
  );
  return { top, shown, earlier: earlier.size, newer: newer.size };
}

/** Why there is no thread, as the pane says it: a sentence. */
const sentence = (why: string) => `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;

function ThreadPane({ height, width, columns, focused }: PaneProps) {
  const theme = useTheme();
  const subject = useAppState(threadSubject);
  const loaded = useAppState((state) => {
    const id = threadLeadId(state);
    const entry = id ? state.leads[id] : undefined;
    return { updatedAt: entry?.updatedAt, loading: entry?.loading ?? false, error: entry?.error };
  });
  const detail = useAppState(openLead);
  const entries = useAppState((state) => threadList(state).rows);
  const composingElsewhere = useAppState((state) => state.presence.composingElsewhere);
  const selected = useSelectedIndex('thread', threadList);
  const atEnd = useAppState((state) => selectionOf(state, 'thread').atEnd === true);
  // Only the contacts list carries the email: a contact not in the page read has one the inbox does not know.
  const email = useAppState((state) => {
    const contactId = openLead(state)?.contact.id;
    const listed = state.contacts.data?.items.find((contact) => contact.id === contactId);
    return listed === undefined
      ? 'email not loaded'
      : listed.email
        ? oneLine(listed.email)
        : 'no email on file';
  });
  // The leads the shop filed texts sent from this thread under, named for the notes below those texts.
  const filedLeads = useAppState((state) => {
    const names: Record<string, string> = {};
    for (const entry of threadList(state).rows)
      if (entry.kind === 'outgoing' && entry.filedUnder)
        names[entry.filedUnder] = filedLeadLabel(state, entry.filedUnder);
    return names;
  });
  const contentRows = frameContentRows(height);
  // Inside the frame: borders and padding take 4.
  const textWidth = (typeof width === 'number' ? width : columns) - 4;
  // Whose thread, as the list it came from names them until the lead is read: name and phone, cut to fit.
  const whose = detail?.contact ?? (subject.kind === 'lead' ? subject : undefined);
  const title =
    whose?.name !== undefined && whose.phone !== undefined
      ? `${TITLE}${fittedRecipientLabel({ name: whose.name, phone: whose.phone }, textWidth - TITLE.length)}`
      : 'Thread';
  const frame = { title, focused, height, ...(width !== undefined ? { width } : {}) };

  if (subject.kind === 'none') {
    return (
      <PaneFrame {...frame}>
        <Text dimColor wrap="wrap">
          {sentence(subject.why)}
        </Text>
      </PaneFrame>
    );
  }
  if (!detail) {
    return (
      <PaneFrame {...frame}>
        <LoadedStatus loaded={loaded} />
      </PaneFrame>
    );
  }
  const { lead, contact, consent_latest: consent } = detail;
  const repliedElsewhere = composingElsewhere.includes(contact.id);
  const headerRows = 4;
  const areaRows = Math.max(1, contentRows - headerRows);
  const lines: ThreadLine[] = entries.flatMap((entry, index) => [
    { entry: index, head: true, text: '' },
    ...(entry.kind === 'outgoing' && entry.filedUnder
      ? wrapLines(
          `↳ the shop filed it under the lead of ${filedLeads[entry.filedUnder] ?? ''} · enter opens it`,
          textWidth,
        ).map((text) => ({ entry: index, head: false, text, note: true }))
      : []),
    // Wrapped as it will be drawn (display fitting can change widths: joined emoji come apart).
    ...wrapLines(displayText(entryText(entry)), textWidth).map((text) => ({
      entry: index,
      head: false,
      text,
    })),
  ]);
  const view = threadWindow(lines, selected, atEnd || selected >= entries.length - 1, areaRows);
  const visible = lines.slice(view.top, view.top + view.shown);
  return (
    <PaneFrame {...frame} status={<LoadedStatus loaded={loaded} />}>
      <Text wrap="truncate-end">
        {repliedElsewhere ? (
          <Text color={theme.warning} bold>
            being replied to in another terminal ·{' '}
          </Text>
        ) : null}
        {oneLine(contact.phone)} · {email} · stage {enumLabel(contact.stage)}
      </Text>
      <Text wrap="truncate-end">
        lead {enumLabel(lead.status)} ·{' '}
        {String(lead.urgency) === 'same_day' ? (
          <Text color={theme.danger} bold>
            SAME DAY
          </Text>
        ) : (
          enumLabel(lead.urgency)
        )}{' '}
        · from {enumLabel(lead.source)} · {dateTime(lead.created_at)}
      </Text>
      {consent ? (
        <Text wrap="truncate-end" color={consent.sms_initial ? theme.success : theme.danger}>
          consent: {consent.sms_initial ? 'given' : 'NOT given'} ({oneLine(consent.phone)}, recorded{' '}
          {dateTime(consent.recorded_at)})
        </Text>
      ) : (
        <Text color={theme.danger} wrap="truncate-end">
          consent: no consent on record
        </Text>
      )}
      <Text dimColor wrap="truncate-end">
        {entries.length} {entries.length === 1 ? 'text' : 'texts'}, oldest first · bodies come truncated by
        the service
      </Text>
      <Box flexDirection="column" overflow="hidden" height={Math.max(1, contentRows - headerRows)}>
        {entries.length === 0 ? <Text dimColor>No texts yet.</Text> : null}
        {view.earlier > 0 ? (
          <Text dimColor wrap="truncate-end">
            ▲ {view.earlier} earlier {view.earlier === 1 ? 'text' : 'texts'} (k)
          </Text>
        ) : null}
        {visible.map((line, offset) => {
          const entry = entries[line.entry] as Entry;
          const key = `${entry.kind === 'message' ? entry.message.id : entry.text.localId}:${view.top + offset}`;
          return line.head ? (
            <EntryHead key={key} entry={entry} selected={focused && line.entry === selected} />
          ) : (
            <Text key={key} wrap="truncate-end" {...(line.note ? { color: theme.accent } : {})}>
              {line.text || ' '}
            </Text>
          );
        })}
        {view.newer > 0 ? (
          <Text dimColor wrap="truncate-end">
            ▼ {view.newer} newer {view.newer === 1 ? 'text' : 'texts'} (j)
          </Text>
        ) : null}
      </Box>
    </PaneFrame>
  );
}

/**
 * The marks a thread on screen clears: its lead's, and the latest inbound texts it holds (a preview has no
 * id: matched by its time and text).
 */
function marksInSight(state: AppState): Array<[SeenKind, string[]]> {
  const leadId = threadLeadId(state);
  if (!leadId) return [];
  const detail = openLead(state);
  if (!detail || state.seen.fresh.inbound.size === 0) return [['leads', [leadId]]];
  const shown = (state.inbox.open.data?.latest_inbound ?? []).filter((preview) =>
    detail.messages.some(
      (message) =>
        String(message.direction) === 'inbound' &&
        message.occurred_at === preview.occurred_at &&
        message.body.startsWith(preview.body_preview.replace(/…$/, '')),
    ),
  );
  return [
    ['leads', [leadId]],
    ['inbound', shown.map(inboundId)],
  ];
}

/** Marked done (e): it left the waiting list by staff's doing. */
function doneWith(state: AppState, leadId: string): boolean {
  const detail = state.leads[leadId]?.data;
  const newest = detail ? newestInboundAt(detail) : undefined;
  return newest !== undefined && isDone(state.conversations, leadId, newest);
}

/** Whether the list the thread follows still holds this lead (Contacts: a contact whose lead it is). */
function listed(state: AppState, list: 'inbox' | 'contacts', leadId: string): boolean {
  if (list === 'inbox') return inboxRows(state).some((lead) => lead.id === leadId);
  const contactId = state.leads[leadId]?.data?.contact.id;
  return contactId !== undefined && contactRows(state).some((contact) => contact.id === contactId);
}

function reads(state: AppState): Slot[] {
  const leadId = threadLeadId(state);
  return leadId ? [{ kind: 'lead', id: leadId }] : [];
}

export const threadPane: PaneDescriptor = {
  id: 'thread',
  title: 'Thread',
  Component: ThreadPane,
  list: {
    identity: threadLeadId,
    of: threadList,
    noun: 'text',
    rowLabel: (entry: ThreadEntry) =>
      oneLine(entry.kind === 'message' ? entry.message.body : entry.text.body).slice(0, 40),
  },
  reads,
  choices: (state) => [state.threadFrom],
  // Gone to deliberately: its lead is read now when it never was, not once a selection rests.
  onFocus: (state) => {
    const leadId = threadLeadId(state);
    return leadId && !state.leads[leadId]?.data ? { readNow: [{ kind: 'lead', id: leadId }] } : {};
  },
  shows: {
    from: (state) => (state.threadFrom.list === 'lead' ? undefined : state.threadFrom.list),
    record: threadLeadId,
    nowShowing: (state) => {
      const subject = threadSubject(state);
      if (subject.kind === 'none') return subject.why;
      return subject.name !== undefined && subject.phone !== undefined
        ? `the thread shows ${recipientLabel({ name: subject.name, phone: subject.phone })} now`
        : 'the thread shows the lead now highlighted there';
    },
    keep: (state, shown) =>
      state.threadFrom.list !== 'lead' &&
      (repliedFromHere(state, shown) || doneWith(state, shown)) &&
      !listed(state, state.threadFrom.list, shown)
        ? { threadFrom: { list: 'lead', leadId: shown } }
        : undefined,
  },
  // Its tab counts nothing: the marks it clears are counted in the Inbox's.
  // The thread on screen is read: its conversation's unread mark goes.
  seen: {
    kinds: [],
    inSight: marksInSight,
    opened: (state) => {
      const leadId = threadLeadId(state);
      return leadId && state.leads[leadId]?.data ? [leadId] : [];
    },
  },
  commands: [
    {
      id: 'back',
      mode: 'pane',
      pane: 'thread',
      keys: ['esc'],
      label: 'back to the list the thread came from (Inbox or Contacts)',
      hint: 'back',
      run: (context) =>
        context.ui.focusPane(context.state().threadFrom.list === 'contacts' ? 'contacts' : 'inbox'),
    },
    {
      id: 'open',
      mode: 'pane',
      pane: 'thread',
      keys: ['enter'],
      label: 'open the thread the shop filed the selected text under',
      hint: 'open filed',
      when: (context) =>
        filedUnderOfSelected(context.state())
          ? true
          : 'only a text the shop filed under another lead opens a thread',
      run: (context) => {
        const leadId = filedUnderOfSelected(context.state());
        if (leadId) context.ui.openThread({ list: 'lead', leadId });
      },
    },
    copyCommand('thread', (context) => {
      const entry = selectedThreadEntry(context.state());
      if (!entry) return 'no text is selected';
      const body = entry.kind === 'message' ? entry.message.body : entry.text.body;
      const when = entry.kind === 'message' ? dateTime(entry.message.occurred_at) : 'sent from here';
      return { what: `the text of ${when}`, text: body };
    }),
    doneCommand('thread', threadLeadId),
    composeCommand('thread', 'text this contact', {
      when: (context) => {
        const subject = threadSubject(context.state());
        return subject.kind === 'lead' ? true : subject.why;
      },
      // Exactly the person the pane shows and names (read first when it is not yet).
      run: (context) => context.ui.composeToThread(),
    }),
  ],
};
