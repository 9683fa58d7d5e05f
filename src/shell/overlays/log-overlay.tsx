/**
 * The message log (L): every notice with its time and its whole text, newest
 * first, wrapped rather than cut. Notices can carry server text (an error's
 * message): it passes the one Text component like everything else.
 */
import { Box } from 'ink';
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

export function LogOverlay({ height }: { height: number }) {
  const theme = useTheme();
  const log = useAppState((state) => state.log);
  const scroll = useAppState((state) => state.logScroll);
  const newestFirst = [...log].reverse();
  const first = Math.max(0, Math.min(scroll, newestFirst.length - 1));
  const shown = newestFirst.slice(first, first + Math.max(1, height - 3));
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
      {shown.map((notice, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two notices can share their time and text; a place in the log is unique
        <Box key={`${notice.at}-${first + index}`} flexShrink={0}>
          <Box width={9} flexShrink={0}>
            <Text dimColor>{clock(notice.at)}</Text>
          </Box>
          <Box flexGrow={1} flexBasis={0}>
            <Text wrap="wrap" {...fg(TONE_ROLE[notice.tone] && theme[TONE_ROLE[notice.tone] ?? 'danger'])}>
              {block(notice.text)}
            </Text>
          </Box>
        </Box>
      ))}
    </OverlayBox>
  );
}
