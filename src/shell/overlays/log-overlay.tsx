/**
 * The message log (L): every notice with its time and its whole text, newest
 * first, wrapped rather than cut. Notices can carry server text (an error's
 * message): it passes the one Text component like everything else.
 */
import { Box } from 'ink';
import type { Notice } from '../../store/app-store.js';
import { displayText } from '../../text/display.js';
import { wrapLines } from '../../text/wrap-lines.js';
import { useAppState, useTheme } from '../../ui-kit/app-context.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { block } from '../../ui-kit/format.js';
import { fg } from '../../ui-kit/theme.js';

const TONE_ROLE = { info: undefined, success: 'success', warning: 'warning', error: 'danger' } as const;

/** Local time of day, "14:03:07". */
const clock = (at: number) => {
  const date = new Date(at);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
};

/** The time's column: "14:03:07" and a space. */
const TIME_WIDTH = 9;

interface LogRow {
  at: number;
  tone: Notice['tone'];
  /** The notice's first line, which carries its time. */
  head: boolean;
  text: string;
}

/**
 * The notices from `first` on, as the rows they take when wrapped to `width`, as many as `room` rows hold;
 * when not all do, one row is kept for the mark of those left below. A notice longer than the whole room is
 * cut, its last row ending in "…". `older`: the notices below the last one shown.
 */
export function logRows(
  newestFirst: readonly Notice[],
  first: number,
  room: number,
  width: number,
): { rows: LogRow[]; older: number } {
  const wrapped = newestFirst.slice(first).map((notice) =>
    wrapLines(displayText(block(notice.text)), width).map((text, line) => ({
      at: notice.at,
      tone: notice.tone,
      head: line === 0,
      text,
    })),
  );
  const total = wrapped.reduce((sum, lines) => sum + lines.length, 0);
  const space = total <= room ? room : Math.max(1, room - 1);
  const rows: LogRow[] = [];
  let shown = 0;
  for (const lines of wrapped) {
    if (rows.length + lines.length > space) {
      if (shown === 0) {
        const kept = lines.slice(0, space);
        const last = kept.at(-1);
        // Its last character gives way to the mark of the cut (by code points: never half an emoji).
        if (last) kept[kept.length - 1] = { ...last, text: `${[...last.text].slice(0, -1).join('')}…` };
        rows.push(...kept);
        shown = 1;
      }
      break;
    }
    rows.push(...lines);
    shown += 1;
  }
  return { rows, older: wrapped.length - shown };
}

export function LogOverlay({ height }: { height: number }) {
  const theme = useTheme();
  const log = useAppState((state) => state.log);
  const scroll = useAppState((state) => state.logScroll);
  const columns = useAppState((state) => state.columns);
  const newestFirst = [...log].reverse();
  const first = Math.max(0, Math.min(scroll, newestFirst.length - 1));
  // Inside the double border (2 rows, 2 columns) and its padding (2 columns), under the title.
  const { rows, older } = logRows(newestFirst, first, Math.max(1, height - 3), columns - 4 - TIME_WIDTH);
  return (
    <OverlayBox
      height={height}
      colour="accent"
      title={
        <>
          Message log — {log.length === 1 ? '1 message' : `${log.length} messages`}, newest first
          {first > 0 ? ` · ${first} newer above (k)` : ''}
        </>
      }
    >
      {log.length === 0 ? <Text dimColor>No messages yet.</Text> : null}
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two notices can share their time and text; a place in the log is unique
        <Box key={`${row.at}-${first}-${index}`} flexShrink={0}>
          <Box width={TIME_WIDTH} flexShrink={0}>
            <Text dimColor>{row.head ? clock(row.at) : ''}</Text>
          </Box>
          <Text wrap="truncate-end" {...fg(TONE_ROLE[row.tone] && theme[TONE_ROLE[row.tone] ?? 'danger'])}>
            {row.text}
          </Text>
        </Box>
      ))}
      {older > 0 ? (
        <Box flexShrink={0}>
          <Text dimColor>{`▼ ${older} older below (j)`}</Text>
        </Box>
      ) : null}
    </OverlayBox>
  );
}
