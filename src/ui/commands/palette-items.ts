/**
 * What the command palette lists: every command that works under the palette
 * right now (the focused pane's and the global ones), with its keys, ranked
 * by fzf against what is typed. Commands that change the shop are left out in
 * read-only mode; those that do not apply now say why.
 */
import { Fzf, type FzfResultItem } from 'fzf';
import type { AppState } from '../../store/app-store.js';
import type { Command } from './command.js';
import type { Keymap } from './keymap.js';

export interface PaletteItem {
  command: Command;
  keys: readonly string[];
  /** Where the typed letters matched in `text`, for highlighting. */
  positions: ReadonlySet<number>;
  /** What is matched and shown: the label and the command's id. */
  text: string;
}

const cache = new WeakMap<Keymap, { focus: string; readOnly: boolean; items: PaletteItem[] }>();

function candidates(state: AppState, keymap: Keymap): PaletteItem[] {
  const known = cache.get(keymap);
  if (known && known.focus === state.focus && known.readOnly === state.readOnly) return known.items;
  const items = keymap
    .commands(`pane:${state.focus}`)
    .filter(({ command }) => command.inPalette !== false && command.mode !== 'always')
    .filter(({ command }) => !(state.readOnly && command.writes))
    .map(({ command, keys }) => ({
      command,
      keys,
      positions: new Set<number>(),
      text: `${command.label} · ${command.id}`,
    }));
  cache.set(keymap, { focus: state.focus, readOnly: state.readOnly, items });
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
