/**
 * F1 (or ctrl-_) in a text: the keys that edit it, over the panes, from the
 * keymap in use (a user's own keys show), for the text being typed: the
 * composer's line breaks, canned replies and editor besides the line editing
 * every text shares. What is typed stays as it was underneath.
 */
import { useAppState, useServices } from '../../ui-kit/app-context.js';
import { helpRows, keysColumnWidth } from '../../ui-kit/commands/describe.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { scrollWindow, useScrollHeld } from '../../ui-kit/scroll-window.js';
import { screenContextOf } from '../commands/dispatch.js';

const WHERE: Partial<Record<string, string>> = {
  composer: 'the composer',
  search: 'a filter or search line',
  palette: 'the palette',
  templates: 'the template picker',
  confirm: 'the typed confirmation',
};

export function EditKeysOverlay({ height }: { height: number }) {
  const { keymap, commandContext, store } = useServices();
  const context = useAppState(screenContextOf);
  const scroll = useAppState((state) => state.editKeys?.scroll ?? 0);
  const rows = helpRows(keymap, context, commandContext());
  const view = scrollWindow(rows.length, height - 3, scroll);
  useScrollHeld(scroll, view.last, (last) =>
    store.setState((state) =>
      state.editKeys && state.editKeys.scroll > last ? { editKeys: { scroll: last } } : {},
    ),
  );
  const { first, above, below } = view;
  const shown = rows.slice(first, first + view.shown);
  const columns = useAppState((state) => state.columns);
  const width = keysColumnWidth(rows, columns);
  return (
    <OverlayBox
      height={height}
      colour="accent"
      title={
        <>
          Editing keys — {WHERE[context] ?? context} · f1 or esc: back to the text
          {above + below > 0
            ? ` · ${[above ? `▲ ${above}` : '', below ? `▼ ${below}` : ''].filter(Boolean).join(' ')} j/k`
            : ''}
        </>
      }
    >
      {shown.map((row) => (
        <Text key={row.ids.join(' ')} wrap="truncate-end" dimColor={row.off !== undefined}>
          <Text bold>{`${row.keys} `.padEnd(width)}</Text>
          {row.label}
          {row.off ? ` (not now: ${row.off})` : ''}
        </Text>
      ))}
    </OverlayBox>
  );
}
