/**
 * The message log: every notice this process showed (sent, replayed, refused,
 * approved, drafted, errors), with its time and whole text, newest first.
 * `L` opens it from any pane; a notice cut to fit the status line is whole here.
 */
import type { Command } from '../../ui-kit/commands/command.js';

export const OPEN_LOG: Command = {
  id: 'log',
  mode: 'global',
  keys: ['L'],
  label: 'the message log: every notice with its time, in full',
  hint: 'log',
  run: (context) =>
    context.store.setState({ logOpen: true, logScroll: 0, helpOpen: false, palette: undefined }),
};

export const LOG_COMMANDS: readonly Command[] = [
  {
    id: 'log.close',
    mode: 'log',
    keys: ['esc', 'q', 'L'],
    label: 'close the message log',
    hint: 'close',
    inPalette: false,
    run: (context) => context.store.setState({ logOpen: false }),
  },
  {
    id: 'log.down',
    mode: 'log',
    keys: ['j', 'down'],
    label: 'older messages',
    helpRow: { id: 'log.scroll', label: 'scroll the log' },
    hint: 'older',
    inPalette: false,
    run: (context) =>
      context.store.setState((state) => ({
        logScroll: Math.min(Math.max(0, state.log.length - 1), state.logScroll + 1),
      })),
  },
  {
    id: 'log.up',
    mode: 'log',
    keys: ['k', 'up'],
    label: 'newer messages',
    helpRow: { id: 'log.scroll', label: 'scroll the log' },
    hint: 'newer',
    inPalette: false,
    run: (context) => context.store.setState((state) => ({ logScroll: Math.max(0, state.logScroll - 1) })),
  },
];
