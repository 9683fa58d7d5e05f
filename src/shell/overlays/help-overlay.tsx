/**
 * `?`: every key of the focused pane (or of what is chosen in it, an inbound
 * text) and the global ones, from the command registry and the keymap in use
 * (a user's own keys show here). A command that does not apply right now says
 * why.
 */
import { paneById } from '../../panes/registry.js';
import { wrapLines } from '../../text/wrap-lines.js';
import { useAppState, useServices } from '../../ui-kit/app-context.js';
import { helpRows, keysColumnWidth } from '../../ui-kit/commands/describe.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { scrollWindow, useScrollHeld } from '../../ui-kit/scroll-window.js';
import { screenContextOf } from '../commands/dispatch.js';

/** The overlay's border and padding, both sides. */
const OVERLAY_SIDES = 4;
/** Narrower than this, a key's words are cut at the edge rather than wrapped a word or two to a line. */
const MIN_WORDS_WIDTH = 20;

export function HelpOverlay({ height }: { height: number }) {
  const { keymap, commandContext, store } = useServices();
  const focus = useAppState((state) => state.focus);
  // The keys of what the help is open over.
  const underneath = useAppState((state) => screenContextOf({ ...state, helpOpen: false }));
  const readOnly = useAppState((state) => state.readOnly);
  const readOnlyKey = useAppState((state) => state.readOnlyReason === 'server');
  const scroll = useAppState((state) => state.helpScroll);
  // Whether a command applies depends on the whole state: re-read it whenever the help renders.
  useAppState((state) => state);
  const rows = helpRows(keymap, underneath === 'inbound' ? 'inbound' : `pane:${focus}`, commandContext());
  const columns = useAppState((state) => state.columns);
  const width = keysColumnWidth(rows, columns);
  // Each key's text wrapped under itself, beside the keys: read whole at 80 columns; the help scrolls by lines.
  const lines = rows.flatMap((row) =>
    wrapLines(
      `${row.label}${row.off ? ` (not now: ${row.off})` : ''}`,
      Math.max(MIN_WORDS_WIDTH, columns - OVERLAY_SIDES - width),
    ).map((text, index) => ({ row, text, first: index === 0, key: `${row.ids.join(' ')}:${index}` })),
  );
  const view = scrollWindow(lines.length, height - 3, scroll);
  useScrollHeld(scroll, view.last, (last) =>
    store.setState((state) => (state.helpScroll > last ? { helpScroll: last } : {})),
  );
  const first = view.first;
  const shown = lines.slice(first, first + view.shown);
  return (
    <OverlayBox
      height={height}
      colour="accent"
      title={
        <>
          Keys — {paneById(focus).title}
          {underneath === 'inbound' ? ', choosing an inbound text' : ''}
          {readOnly
            ? readOnlyKey
              ? ' (read-only key: keys that change the shop say why they are off)'
              : ' (read-only: keys that change the shop are off)'
            : ''}
          {view.last > 0 ? `  lines ${first + 1}–${first + shown.length} of ${lines.length}, j/k scroll` : ''}
        </>
      }
    >
      {shown.map((line) => (
        <Text key={line.key} wrap="truncate-end" dimColor={line.row.off !== undefined}>
          <Text bold>{(line.first ? `${line.row.keys} ` : '').padEnd(width)}</Text>
          {line.text}
        </Text>
      ))}
    </OverlayBox>
  );
}
