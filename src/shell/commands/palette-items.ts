/**
 * What the command palette lists: every command that works under the palette
 * right now (the focused pane's and the global ones), with its keys, ranked
 * by fzf against what is typed. Commands that change the shop are left out when
 * the process is read-only by choice; those that do not apply now (a read-only
 * key's among them) say why.
 */
import { Fzf, type FzfResultItem } from 'fzf';
import type { AppState } from '../../store/app-store.js';
import { type Command, hiddenWhenReadOnly, type Keymap } from '../../ui-kit/commands/command.js';

export interface PaletteItem {
  command: Command;
  keys: readonly string[];
  /** Where the typed letters matched in `text`, for highlighting. */
  positions: ReadonlySet<number>;
  /** What is matched and shown: the label and the command's id. */
  text: string;
}

const cache = new WeakMap<Keymap, { focus: string; hideWrites: boolean; items: PaletteItem[] }>();

function candidates(state: AppState, keymap: Keymap): PaletteItem[] {
  const known = cache.get(keymap);
  const hideWrites = hiddenWhenReadOnly({ writes: true }, state);
  if (known && known.focus === state.focus && known.hideWrites === hideWrites) return known.items;
  const items = keymap
    .commands(`pane:${state.focus}`)
    .filter(({ command }) => command.inPalette !== false && command.mode !== 'always')
    .filter(({ command }) => !hiddenWhenReadOnly(command, state))
    .map(({ command, keys }) => ({
      command,
      keys,
      positions: new Set<number>(),
      text: `${command.label} · ${command.id}`,
    }));
  cache.set(keymap, { focus: state.focus, hideWrites, items });
  return items;
}

export function paletteItems(state: AppState, keymap: Keymap): PaletteItem[] {
  const all = candidates(state, keymap);
  const query = state.palette?.query.text.trim() ?? '';
  if (!query) return all;
  const fzf = new Fzf<PaletteItem[]>(all, {
    selector: (item: PaletteItem) => item.text,
    casing: 'case-insensitive',
  });
  return fzf
    .find(query)
    .map((match: FzfResultItem<PaletteItem>) => ({ ...match.item, positions: match.positions }));
}
