/**
 * Every command of the inbox in one list: the global ones, each pane's own,
 * those of the composer, the search line, the line editor, the questions,
 * the help, the palette, the fatal screen and the wallboard. Keys, the help, the hints, the
 * palette and read-only mode are all derived from it.
 */
import { PANES } from '../../panes/registry.js';
import type { Command } from '../../ui-kit/commands/command.js';
import { GLOBAL_COMMANDS, INTERRUPT, REDRAW } from './global-commands.js';
import { INBOUND_COMMANDS } from './inbound-commands.js';
import { LOG_COMMANDS, OPEN_LOG } from './log-commands.js';
import {
  CONFIRM_COMMANDS,
  EDIT_KEYS_COMMANDS,
  FATAL_COMMANDS,
  HELP_COMMANDS,
  PALETTE_COMMANDS,
  PROMPT_COMMANDS,
  SHOP_COMMANDS,
} from './overlay-commands.js';
import { COMPOSER_COMMANDS, EDIT_COMMANDS, SEARCH_COMMANDS, TEMPLATE_COMMANDS } from './text-commands.js';
import { WALLBOARD_COMMANDS } from './wallboard-commands.js';

export const ALL_COMMANDS: readonly Command[] = [
  ...FATAL_COMMANDS,
  ...WALLBOARD_COMMANDS,
  ...PROMPT_COMMANDS,
  ...CONFIRM_COMMANDS,
  ...HELP_COMMANDS,
  ...EDIT_KEYS_COMMANDS,
  ...LOG_COMMANDS,
  ...PALETTE_COMMANDS,
  ...TEMPLATE_COMMANDS,
  ...SHOP_COMMANDS,
  ...INBOUND_COMMANDS,
  ...COMPOSER_COMMANDS,
  ...SEARCH_COMMANDS,
  ...EDIT_COMMANDS,
  ...PANES.flatMap((pane) => pane.commands),
  ...GLOBAL_COMMANDS,
  OPEN_LOG,
  REDRAW,
  INTERRUPT,
];
