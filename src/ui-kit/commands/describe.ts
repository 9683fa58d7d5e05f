/**
 * What the help and the status bar say about keys, derived from the keymap
 * (so a user's keys show) and the commands' own words: the help lists every
 * command of the context, one row per helpRow; the status bar the few with a
 * hint that apply right now. Commands that change the shop are left out when
 * the process is read-only by choice; with a read-only key the help lists them
 * with why they cannot be used, and the hints leave them out (they do not apply).
 */

import { displayKey } from '../input/key-event.js';
import { applies, type CommandContext, hiddenWhenReadOnly, type KeyContext, type Keymap } from './command.js';

export interface HelpRow {
  keys: string;
  label: string;
  /** Why the command does not apply right now. */
  off?: string;
  ids: string[];
}

export const showKeys = (keys: readonly string[]) => keys.map(displayKey).join(' ');

/**
 * How wide the keys' column of a list of help rows is: the longest keys and a gap, up to a third of the
 * screen, so that the words of every row start in one column (a row of many keys, the page keys, included).
 */
export function keysColumnWidth(rows: readonly HelpRow[], columns: number): number {
  const longest = Math.max(0, ...rows.map((row) => [...row.keys].length));
  return Math.min(longest + 2, Math.max(16, Math.floor(columns / 3)));
}

export function helpRows(keymap: Keymap, context: KeyContext, commandContext: CommandContext): HelpRow[] {
  const state = commandContext.state();
  const rows: HelpRow[] = [];
  const byRow = new Map<string, HelpRow>();
  for (const { command, keys } of keymap.commands(context)) {
    if (hiddenWhenReadOnly(command, state)) continue;
    if (keys.length === 0) continue;
    const verdict = applies(command, commandContext);
    const rowId = command.helpRow?.id ?? command.id;
    const existing = byRow.get(rowId);
    if (existing) {
      existing.keys = `${existing.keys} ${showKeys(keys)}`;
      existing.ids.push(command.id);
      continue;
    }
    const row: HelpRow = {
      keys: showKeys(keys),
      label: command.helpRow?.label ?? command.label,
      ids: [command.id],
      ...(verdict !== true && !command.silentWhenOff ? { off: verdict } : {}),
    };
    byRow.set(rowId, row);
    rows.push(row);
  }
  return rows;
}

export interface Hint {
  key: string;
  hint: string;
}

export function hints(keymap: Keymap, context: KeyContext, commandContext: CommandContext): Hint[] {
  const state = commandContext.state();
  return keymap
    .commands(context)
    .filter(({ command, keys }) => command.hint && keys.length > 0 && !hiddenWhenReadOnly(command, state))
    .filter(({ command }) => applies(command, commandContext) === true)
    .map(({ command, keys }) => ({ key: displayKey(keys[0] as string), hint: command.hint as string }));
}
