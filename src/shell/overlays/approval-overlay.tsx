/**
 * The question that approves an action, over the panes: everything the inbox
 * knows of the action (its facts, bound when the question was asked), each
 * wrapped to the terminal and never cut. What does not fit scrolls (j/k), and
 * the rows out of sight are counted above and below.
 */
import { Box } from 'ink';
import { useEffect } from 'react';
import type { ApprovalFact, ConfirmApprove } from '../../store/app-store.js';
import { wrapLines } from '../../text/wrap-lines.js';
import { useAppState, useServices, useTheme } from '../../ui-kit/app-context.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { type ScrollWindow, scrollWindow } from '../../ui-kit/scroll-window.js';
import { fg } from '../../ui-kit/theme.js';

/** Room for the longest label ("They wrote") and a space. */
const LABEL_COLUMNS = 11;
/** The overlay's double border and its padding. */
const FRAME_COLUMNS = 4;

export interface QuestionRow {
  label: string;
  text: string;
  tone: ApprovalFact['tone'];
}

/** The facts as the rows the box shows at this width: the label on a fact's first row only. */
export function questionRows(facts: readonly ApprovalFact[], columns: number): QuestionRow[] {
  const width = Math.max(10, columns - FRAME_COLUMNS - LABEL_COLUMNS);
  return facts.flatMap((fact) =>
    wrapLines(fact.text, width).map((text, index) => ({
      label: index === 0 ? fact.label : '',
      text,
      tone: fact.tone,
    })),
  );
}

/** Which rows show at a scroll, and how many are out of sight above and below. */
export function questionWindow(total: number, room: number, scroll: number): ScrollWindow {
  // When the rows overflow, one row of the room says what is out of sight.
  return scrollWindow(total, total <= room ? room : room - 1, scroll);
}

export function ApprovalOverlay({ height, prompt }: { height: number; prompt: ConfirmApprove }) {
  const theme = useTheme();
  const columns = useAppState((state) => state.columns);
  const rows = questionRows(prompt.facts, columns);
  const view = questionWindow(rows.length, Math.max(1, height - 3), prompt.scroll);
  const store = useServices().store;
  // j/k and their hint need to know whether the details overflow at the size drawn, which only the drawing knows.
  useEffect(() => {
    store.setState((state) =>
      state.prompt === prompt && prompt.scrollMax !== view.last
        ? { prompt: { ...prompt, scroll: Math.min(prompt.scroll, view.last), scrollMax: view.last } }
        : {},
    );
  }, [store, prompt, view.last]);
  const toneColour = (tone: ApprovalFact['tone']) =>
    tone === 'publishes' ? theme.special : tone === 'unknown' ? theme.warning : undefined;
  return (
    <OverlayBox
      height={height}
      colour="accent"
      title={`Approve ${prompt.label}? y approves · n or esc: not approved`}
    >
      {rows.slice(view.first, view.first + view.shown).map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of wrapped text: a place is their identity
        <Box key={view.first + index} flexShrink={0}>
          <Box width={LABEL_COLUMNS} flexShrink={0}>
            <Text bold>{row.label}</Text>
          </Box>
          <Box flexGrow={1} flexBasis={0}>
            <Text wrap="truncate-end" {...fg(toneColour(row.tone))}>
              {row.text || ' '}
            </Text>
          </Box>
        </Box>
      ))}
      {view.above + view.below > 0 ? (
        <Text dimColor wrap="truncate-end">
          {[view.above > 0 ? `▲ ${view.above}` : '', view.below > 0 ? `▼ ${view.below}` : '', 'j/k scroll']
            .filter(Boolean)
            .join(' · ')}
        </Text>
      ) : null}
    </OverlayBox>
  );
}
