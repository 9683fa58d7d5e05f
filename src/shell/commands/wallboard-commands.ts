/**
 * The wallboard's keys: it needs none to be useful, and only quits. Every
 * other key does nothing there (the inbox's keys would act on panes that
 * are not on screen).
 */
import type { Command } from '../../ui-kit/commands/command.js';

export const WALLBOARD_COMMANDS: readonly Command[] = [
  {
    id: 'quit',
    mode: 'wallboard',
    keys: ['q'],
    label: 'quit',
    hint: 'quit',
    inPalette: false,
    run: (context) => context.ui.requestQuit(context.input.batch),
  },
];
