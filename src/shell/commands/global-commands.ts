/**
 * Commands under every pane: help, quit, moving between panes and in a list,
 * refreshing, the palette; and ctrl-c, which works everywhere.
 */

import { PANES, paneById } from '../../panes/registry.js';
import { pageSize, unsentCount } from '../../store/selectors.js';
import type { Command, CommandContext } from '../../ui-kit/commands/command.js';

const global = (command: Omit<Command, 'mode'>): Command => ({ mode: 'global', ...command });

const hasList = (context: CommandContext) =>
  paneById(context.state().focus).list ? true : 'this pane has no list';

export const GLOBAL_COMMANDS: readonly Command[] = [
  global({
    id: 'help',
    keys: ['?'],
    label: 'this help: every key of this pane',
    hint: 'help',
    run: (context) => context.store.setState({ helpOpen: true, helpScroll: 0, palette: undefined }),
  }),
  global({
    id: 'palette',
    keys: [':', 'ctrl-p'],
    label: 'command palette: find any command by name',
    hint: 'commands',
    inPalette: false,
    run: (context) => context.ui.openPalette(),
  }),
  global({
    id: 'quit',
    helpRow: { id: 'quit', label: 'quit (asks first if a text is typed or still sending)' },
    keys: ['q'],
    label: 'quit (asks first if a text is typed or still sending)',
    hint: 'quit',
    run: (context) => context.ui.requestQuit(context.input.batch),
  }),
  global({
    id: 'pane.next',
    helpRow: { id: 'panes', label: 'next / previous pane' },
    keys: ['tab'],
    label: 'next pane',
    hint: 'panes',
    run: (context) => context.ui.cyclePane(1),
  }),
  global({
    id: 'pane.previous',
    helpRow: { id: 'panes', label: 'next / previous pane' },
    keys: ['shift-tab'],
    label: 'previous pane',
    run: (context) => context.ui.cyclePane(-1),
  }),
  ...PANES.map((pane, index) =>
    global({
      id: `pane.${pane.id}`,
      helpRow: { id: 'pane.jump', label: `go to a pane (${PANES.map((each) => each.title).join(', ')})` },
      keys: index < 9 ? [String(index + 1)] : [],
      label: `go to ${pane.title}`,
      run: (context) => context.ui.focusPane(pane.id),
    }),
  ),
  global({
    id: 'move.down',
    helpRow: { id: 'move', label: 'move down / up' },
    keys: ['j', 'down'],
    label: 'move down',
    inPalette: false,
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move((current) => current + 1),
  }),
  global({
    id: 'move.up',
    helpRow: { id: 'move', label: 'move down / up' },
    keys: ['k', 'up'],
    label: 'move up',
    inPalette: false,
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move((current) => current - 1),
  }),
  global({
    id: 'move.top',
    helpRow: { id: 'ends', label: 'top / bottom' },
    keys: ['g', 'home'],
    label: 'go to the top',
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move(() => 0),
  }),
  global({
    id: 'move.bottom',
    helpRow: { id: 'ends', label: 'top / bottom' },
    keys: ['G', 'end'],
    label: 'go to the bottom',
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move((_current, length) => length - 1),
  }),
  global({
    id: 'page.down',
    helpRow: { id: 'page', label: 'page down / up' },
    keys: ['ctrl-d', 'pgdn'],
    label: 'page down',
    inPalette: false,
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move((current) => current + pageSize(context.state())),
  }),
  global({
    id: 'page.up',
    helpRow: { id: 'page', label: 'page down / up' },
    keys: ['ctrl-u', 'pgup'],
    label: 'page up',
    inPalette: false,
    when: hasList,
    silentWhenOff: true,
    run: (context) => context.ui.move((current) => current - pageSize(context.state())),
  }),
  global({
    id: 'shop.switch',
    keys: ['O'],
    label: 'switch to another shop of config.json',
    hint: 'shops',
    // No hint where there is nothing to switch to; the key says why.
    when: (context) =>
      context.ui.canSwitchShops() ||
      'this inbox has no other shops (the demo, or one started with --base-url)',
    run: (context) => context.ui.openShops(),
  }),
  global({
    id: 'refresh',
    helpRow: { id: 'refresh', label: 'refresh this pane / everything now' },
    keys: ['r'],
    label: 'refresh this pane now',
    run: (context) => context.ui.refreshVisible(),
  }),
  global({
    id: 'refresh.all',
    helpRow: { id: 'refresh', label: 'refresh this pane / everything now' },
    keys: ['R'],
    label: 'refresh everything now (within the request budget)',
    run: (context) => context.ui.refreshAll(),
  }),
];

/**
 * ctrl-l, as in a shell, vim or less: the whole screen drawn again from scratch, for when something
 * else wrote on it (a program in the background, a message from the system, a terminal that garbled it).
 */
export const REDRAW: Command = {
  id: 'redraw',
  mode: 'always',
  keys: ['ctrl-l'],
  label: 'draw the whole screen again (when something else wrote on it)',
  inPalette: false,
  run: (context) => context.ui.repaint(),
};

/** ctrl-c: quit from anywhere; with a question on screen it answers no first, then asks to quit if anything is unsent. */
export const INTERRUPT: Command = {
  id: 'interrupt',
  mode: 'always',
  helpRow: { id: 'quit', label: 'quit (asks first if a text is typed or still sending)' },
  keys: ['ctrl-c'],
  label: 'quit (asks first if a text is typed or still sending)',
  inPalette: false,
  run: (context) => {
    const state = context.state();
    if (state.prompt?.kind === 'confirm-quit' || (state.fatal && unsentCount(state) === 0)) {
      context.ui.quit();
      return;
    }
    if (state.prompt) context.ui.answer(false);
    context.store.setState({ helpOpen: false, palette: undefined });
    context.ui.requestQuit(context.input.batch);
  },
};
