/**
 * Commands of what covers the panes: a question (y/n; enter never answers
 * yes), the help, the palette, and the full-screen stop of a refused key.
 */
import type { Command, CommandContext } from '../../ui-kit/commands/command.js';
import { paletteItems } from './palette-items.js';

/** Only the approval question has details to scroll, and only when they do not fit. */
const approvalScrolls = (context: CommandContext): true | string => {
  const prompt = context.state().prompt;
  if (prompt?.kind !== 'confirm-approve') return 'only the approval question scrolls';
  return (prompt.scrollMax ?? 0) > 0 ? true : 'the whole question is in sight';
};

export const PROMPT_COMMANDS: readonly Command[] = [
  {
    id: 'prompt.yes',
    mode: 'prompt',
    keys: ['y', 'Y'],
    label: 'yes',
    hint: 'yes',
    inPalette: false,
    run: (context) => context.ui.answer(true, context.input.batch),
  },
  {
    id: 'prompt.no',
    mode: 'prompt',
    keys: ['n', 'N', 'esc'],
    label: 'no',
    hint: 'no',
    inPalette: false,
    run: (context) => context.ui.answer(false),
  },
  {
    id: 'prompt.down',
    mode: 'prompt',
    keys: ['j', 'down'],
    label: "scroll the approval question's details",
    helpRow: { id: 'prompt.scroll', label: "scroll the approval question's details" },
    hint: 'scroll',
    inPalette: false,
    silentWhenOff: true,
    when: (context) => approvalScrolls(context),
    run: (context) => context.ui.scrollQuestion(1),
  },
  {
    id: 'prompt.up',
    mode: 'prompt',
    keys: ['k', 'up'],
    label: "scroll the approval question's details back",
    helpRow: { id: 'prompt.scroll', label: "scroll the approval question's details" },
    inPalette: false,
    silentWhenOff: true,
    when: (context) => approvalScrolls(context),
    run: (context) => context.ui.scrollQuestion(-1),
  },
];

/** A question that wants a word typed (send, override): enter checks the word, esc goes back to the text. */
export const CONFIRM_COMMANDS: readonly Command[] = [
  {
    id: 'confirm.submit',
    mode: 'confirm',
    keys: ['enter'],
    label: 'send, once the word the question asks for is typed',
    hint: 'send',
    inPalette: false,
    run: (context) => context.ui.submitTyped(context.input.batch),
  },
  {
    id: 'confirm.cancel',
    mode: 'confirm',
    keys: ['esc'],
    label: 'no: back to the text',
    hint: 'back',
    inPalette: false,
    run: (context) => context.ui.answer(false),
  },
];

export const HELP_COMMANDS: readonly Command[] = [
  {
    id: 'help.close',
    mode: 'help',
    keys: ['?', 'esc', 'q'],
    label: 'close this help',
    hint: 'close',
    inPalette: false,
    run: (context) => context.store.setState({ helpOpen: false }),
  },
  {
    id: 'help.down',
    mode: 'help',
    keys: ['j', 'down'],
    label: 'scroll the help',
    helpRow: { id: 'help.scroll', label: 'scroll the help' },
    inPalette: false,
    run: (context) => context.store.setState((state) => ({ helpScroll: state.helpScroll + 1 })),
  },
  {
    id: 'help.up',
    mode: 'help',
    keys: ['k', 'up'],
    label: 'scroll the help back',
    helpRow: { id: 'help.scroll', label: 'scroll the help' },
    inPalette: false,
    run: (context) => context.store.setState((state) => ({ helpScroll: Math.max(0, state.helpScroll - 1) })),
  },
];

/** The list of editing keys over a text (F1): it scrolls and closes; what is typed waits underneath. */
export const EDIT_KEYS_COMMANDS: readonly Command[] = [
  {
    id: 'editkeys.close',
    mode: 'editkeys',
    keys: ['f1', 'ctrl-_', 'esc', 'q'],
    label: 'close the list, back to the text',
    hint: 'close',
    inPalette: false,
    run: (context) => context.store.setState({ editKeys: undefined }),
  },
  {
    id: 'editkeys.down',
    mode: 'editkeys',
    keys: ['j', 'down'],
    label: 'scroll the list',
    helpRow: { id: 'editkeys.scroll', label: 'scroll the list' },
    inPalette: false,
    run: (context) =>
      context.store.setState((state) =>
        state.editKeys ? { editKeys: { scroll: state.editKeys.scroll + 1 } } : {},
      ),
  },
  {
    id: 'editkeys.up',
    mode: 'editkeys',
    keys: ['k', 'up'],
    label: 'scroll the list back',
    helpRow: { id: 'editkeys.scroll', label: 'scroll the list' },
    inPalette: false,
    run: (context) =>
      context.store.setState((state) =>
        state.editKeys ? { editKeys: { scroll: Math.max(0, state.editKeys.scroll - 1) } } : {},
      ),
  },
];

export const PALETTE_COMMANDS: readonly Command[] = [
  {
    id: 'palette.run',
    mode: 'palette',
    keys: ['enter'],
    label: 'run the highlighted command',
    hint: 'run',
    inPalette: false,
    run: (context) => {
      const state = context.state();
      const chosen = paletteItems(state, context.keymap)[state.palette?.selected ?? 0];
      context.ui.closePalette();
      if (!chosen) return;
      // Another pane's command works there: go to it, then run it as its key would.
      if (chosen.opens) context.ui.focusPane(chosen.opens);
      context.runCommand(chosen.command);
    },
  },
  {
    id: 'palette.close',
    mode: 'palette',
    keys: ['esc'],
    label: 'close the palette',
    hint: 'close',
    inPalette: false,
    run: (context) => context.ui.closePalette(),
  },
  {
    id: 'palette.down',
    mode: 'palette',
    keys: ['down', 'ctrl-n', 'tab'],
    label: 'next match',
    inPalette: false,
    run: (context) => context.ui.movePalette(1, paletteItems(context.state(), context.keymap).length),
  },
  {
    id: 'palette.up',
    mode: 'palette',
    keys: ['up', 'ctrl-p', 'shift-tab'],
    label: 'previous match',
    inPalette: false,
    run: (context) => context.ui.movePalette(-1, paletteItems(context.state(), context.keymap).length),
  },
];

/** The shops of config.json (O): move, enter switches, esc stays. */
export const SHOP_COMMANDS: readonly Command[] = [
  {
    id: 'shops.choose',
    mode: 'shops',
    keys: ['enter'],
    label: 'switch to the highlighted shop',
    hint: 'switch',
    inPalette: false,
    run: (context) => context.ui.chooseShop(context.input.batch),
  },
  {
    id: 'shops.close',
    mode: 'shops',
    keys: ['esc', 'q'],
    label: 'stay on this shop',
    hint: 'stay',
    inPalette: false,
    run: (context) => context.ui.closeShops(),
  },
  {
    id: 'shops.down',
    mode: 'shops',
    keys: ['j', 'down'],
    label: 'next shop',
    helpRow: { id: 'shops.move', label: 'next / previous shop' },
    inPalette: false,
    run: (context) => context.ui.moveShops(1),
  },
  {
    id: 'shops.up',
    mode: 'shops',
    keys: ['k', 'up'],
    label: 'previous shop',
    helpRow: { id: 'shops.move', label: 'next / previous shop' },
    inPalette: false,
    run: (context) => context.ui.moveShops(-1),
  },
];

export const FATAL_COMMANDS: readonly Command[] = [
  {
    id: 'quit',
    mode: 'fatal',
    keys: ['q'],
    label: 'quit (asks first if a text is still waiting to be sent)',
    hint: 'quit',
    inPalette: false,
    run: (context) => context.ui.requestQuit(context.input.batch),
  },
];
