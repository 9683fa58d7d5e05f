/**
 * What the command palette lists: every command of every pane and the global
 * ones, each with its keys and, for another pane's, the pane it opens
 * (choosing it focuses that pane, then runs it); the focused pane's first.
 * Ranked by palette-rank.ts against what is typed. Commands that change the
 * shop are left out when the process is read-only by choice; those that do
 * not apply now (a read-only key's among them) say why.
 */
import { PANES } from '../../panes/registry.js';
import type { AppState, PaneId } from '../../store/app-store.js';
import { type Command, hiddenWhenReadOnly, type Keymap } from '../../ui-kit/commands/command.js';
import { rankCommands } from './palette-rank.js';

export interface PaletteItem {
  command: Command;
  keys: readonly string[];
  /** The pane the command works in, when it is another pane's: choosing it goes there first. */
  opens?: PaneId;
  /** Where the typed letters matched in `text`, for highlighting. */
  positions: ReadonlySet<number>;
  /** What is matched and shown: the label, the command's id, and the pane it opens. */
  text: string;
  /** The command's id, matched first. */
  name: string;
}

const cache = new WeakMap<Keymap, { focus: string; hideWrites: boolean; items: PaletteItem[] }>();

const listed = (command: Command) => command.inPalette !== false && command.mode !== 'always';

function candidates(state: AppState, keymap: Keymap): PaletteItem[] {
  const known = cache.get(keymap);
  const hideWrites = hiddenWhenReadOnly({ writes: true }, state);
  if (known && known.focus === state.focus && known.hideWrites === hideWrites) return known.items;
  const item = ({ command, keys }: { command: Command; keys: readonly string[] }, opens?: PaneId) => {
    const title = opens ? PANES.find((pane) => pane.id === opens)?.title : undefined;
    return {
      command,
      keys,
      ...(opens ? { opens } : {}),
      positions: new Set<number>(),
      text: `${command.label} · ${command.id}${title ? ` → ${title}` : ''}`,
      name: command.id,
    };
  };
  // Here: the focused pane's and the global ones; then each other pane's own, in the tabs' order.
  const here = keymap.commands(`pane:${state.focus}`).filter(({ command }) => listed(command));
  const elsewhere = PANES.filter((pane) => pane.id !== state.focus).flatMap((pane) =>
    keymap
      .commands(`pane:${pane.id}`)
      .filter(({ command }) => listed(command) && command.mode === 'pane' && command.pane === pane.id)
      .map((entry) => item(entry, pane.id)),
  );
  const items = [...here.map((entry) => item(entry)), ...elsewhere].filter(
    ({ command }) => !hiddenWhenReadOnly(command, state),
  );
  cache.set(keymap, { focus: state.focus, hideWrites, items });
  return items;
}

export function paletteItems(state: AppState, keymap: Keymap): PaletteItem[] {
  const all = candidates(state, keymap);
  return rankCommands(all, state.palette?.query.text ?? '').map((ranked) => ({
    ...ranked.item,
    positions: ranked.positions,
  }));
}
