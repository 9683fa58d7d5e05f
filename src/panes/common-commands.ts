/**
 * Commands several panes share, each built for one pane: the filter or
 * search line, clearing it, and texting the selected record's contact. One
 * id each ("filter", "compose"), so a user's keymap changes them everywhere.
 */
import { searchText } from '../store/selectors.js';
import type { Command, CommandContext } from '../ui/commands/command.js';

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
