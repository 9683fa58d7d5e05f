/**
 * Commands several panes share, each built for one pane: the filter or
 * search line, clearing it, and texting the selected record's contact. One
 * id each ("filter", "compose"), so a user's keymap changes them everywhere.
 */
import { searchText } from '../store/selectors.js';
import type { Command, CommandContext } from '../ui-kit/commands/command.js';

export function filterCommands(
  pane: string,
  words: { label: string; hint: string; clearLabel: string },
): Command[] {
  return [
    {
      id: 'filter',
      mode: 'pane',
      pane,
      keys: ['/'],
      label: words.label,
      hint: words.hint,
      run: (context) => context.ui.startSearch(),
    },
    {
      id: 'filter.clear',
      mode: 'pane',
      pane,
      keys: ['esc'],
      label: words.clearLabel,
      silentWhenOff: true,
      when: (context) => (searchText(context.state(), pane) ? true : 'nothing to clear'),
      run: (context) => context.ui.clearSearch(),
    },
  ];
}

/** c: text the contact of what is selected (writes: inert and hidden in read-only mode). */
export function composeCommand(
  pane: string,
  label: string,
  how: { when: (context: CommandContext) => true | string; run: (context: CommandContext) => void },
): Command {
  return { id: 'compose', mode: 'pane', pane, keys: ['c'], label, hint: 'text', writes: true, ...how };
}

/** What `y` copies in a pane: a name for it ("Ray Whitaker's phone number") and the text, or why there is none. */
export type Copyable = { what: string; text: string } | string;

/** y: copy what is selected (a phone number, a text, a link) to the terminal's clipboard, over SSH too. */
export function copyCommand(
  pane: string,
  copyable: (context: CommandContext) => Copyable,
  command: { id?: string; keys?: readonly string[]; label?: string; hint?: string } = {},
): Command {
  return {
    id: command.id ?? 'copy',
    mode: 'pane',
    pane,
    keys: command.keys ?? ['y'],
    label:
      command.label ?? 'copy the selected phone number, text or link to the clipboard (OSC 52, over SSH too)',
    hint: command.hint ?? 'copy',
    when: (context) => {
      const found = copyable(context);
      return typeof found === 'string' ? found : true;
    },
    run: (context) => {
      const found = copyable(context);
      if (typeof found !== 'string') context.ui.copy(found.what, found.text);
    },
  };
}
