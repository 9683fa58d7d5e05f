/**
 * Commands while text is typed: the composer's (send, close, line break),
 * the search line's (keep, clear), and the line editing every text shares,
 * as in a shell: ctrl-a/ctrl-e, alt-b/alt-f, ctrl-u/ctrl-w/ctrl-k cut, ctrl-y
 * puts back. Printable keys are not commands here: they are text.
 */
import {
  deleteBackward,
  deleteForward,
  insertText,
  killToEnd,
  killToStart,
  killWordBackward,
  killWordForward,
  moveEnd,
  moveHome,
  moveLeft,
  moveRight,
  moveWordLeft,
  moveWordRight,
} from '../../store/line-editor.js';
import type { Command } from '../../ui-kit/commands/command.js';

const edit = (command: Omit<Command, 'mode' | 'inPalette'>): Command => ({
  mode: 'edit',
  inPalette: false,
  ...command,
});

export const EDIT_COMMANDS: readonly Command[] = [
  edit({
    id: 'edit.left',
    keys: ['left', 'ctrl-b'],
    label: 'cursor left',
    run: (c) => c.ui.editLine(moveLeft),
  }),
  edit({
    id: 'edit.right',
    keys: ['right', 'ctrl-f'],
    label: 'cursor right',
    run: (c) => c.ui.editLine(moveRight),
  }),
  edit({
    id: 'edit.home',
    keys: ['home', 'ctrl-a'],
    label: 'start of the text',
    run: (c) => c.ui.editLine(moveHome),
  }),
  edit({
    id: 'edit.end',
    keys: ['end', 'ctrl-e'],
    label: 'end of the text',
    run: (c) => c.ui.editLine(moveEnd),
  }),
  edit({
    id: 'edit.word-left',
    keys: ['alt-b', 'ctrl-left', 'alt-left'],
    label: 'a word left',
    run: (c) => c.ui.editLine(moveWordLeft),
  }),
  edit({
    id: 'edit.word-right',
    keys: ['alt-f', 'ctrl-right', 'alt-right'],
    label: 'a word right',
    run: (c) => c.ui.editLine(moveWordRight),
  }),
  edit({
    id: 'edit.backspace',
    keys: ['backspace'],
    label: 'delete the character before the cursor',
    run: (c) => c.ui.editLine(deleteBackward),
  }),
  edit({
    id: 'edit.delete',
    keys: ['delete'],
    label: 'delete the character under the cursor',
    run: (c) => c.ui.editLine(deleteForward),
  }),
  edit({
    id: 'edit.cut-start',
    keys: ['ctrl-u'],
    label: 'cut to the start of the line (ctrl-y puts it back)',
    run: (c) => c.ui.cutLine(killToStart),
  }),
  edit({
    id: 'edit.cut-word',
    keys: ['ctrl-w', 'alt-backspace'],
    label: 'cut the word before the cursor (ctrl-y puts it back)',
    run: (c) => c.ui.cutLine(killWordBackward),
  }),
  edit({
    id: 'edit.cut-end',
    keys: ['ctrl-k'],
    label: 'cut to the end of the line (ctrl-y puts it back)',
    run: (c) => c.ui.cutLine(killToEnd),
  }),
  edit({
    id: 'edit.cut-word-forward',
    keys: ['alt-d'],
    label: 'cut the word after the cursor (ctrl-y puts it back)',
    run: (c) => c.ui.cutLine(killWordForward),
  }),
  edit({
    id: 'edit.keys',
    // Not ctrl-/: most terminals send it as ctrl-_ (0x1f) and some send nothing; F1 arrives everywhere.
    keys: ['f1', 'ctrl-_'],
    label: 'list these keys (the editing keys of what is typed)',
    hint: 'keys',
    run: (c) => c.store.setState({ editKeys: { scroll: 0 } }),
  }),
  edit({
    id: 'edit.paste-cut',
    keys: ['ctrl-y'],
    label: 'put back what was cut last',
    run: (c) => c.ui.yank(),
  }),
];

export const COMPOSER_COMMANDS: readonly Command[] = [
  {
    id: 'composer.send',
    mode: 'composer',
    keys: ['enter'],
    label: 'send: shows the text and asks first (y/n, or a word to type when a check says so)',
    hint: 'send',
    inPalette: false,
    run: (context) => {
      // Enter read together with more keys (a paste without bracketed paste) is a line break, never "send".
      if (!context.input.last) return context.ui.editLine((line) => insertText(line, '\n'));
      context.ui.askToSend(context.input.batch);
    },
  },
  {
    id: 'composer.newline',
    mode: 'composer',
    keys: ['ctrl-j', 'alt-enter'],
    label: 'a line break in the text',
    inPalette: false,
    run: (context) => context.ui.editLine((line) => insertText(line, '\n')),
  },
  {
    id: 'composer.templates',
    mode: 'composer',
    keys: ['ctrl-t'],
    label: 'canned replies: pick a template, filled in for this customer',
    hint: 'templates',
    inPalette: false,
    when: (context) => {
      const state = context.state();
      if (!state.composer) return "the lead's contact is still being read";
      if (state.templatesProblem) return state.templatesProblem.replace(/\.$/, '');
      return state.templates.length > 0 ? true : 'templates.json has no templates';
    },
    run: (context) => context.ui.openTemplates(),
  },
  {
    id: 'composer.editor',
    mode: 'composer',
    keys: ['ctrl-g'],
    label: 'edit the text in your editor ($EDITOR, then $VISUAL, then vi)',
    hint: 'editor',
    inPalette: false,
    when: (context) => {
      if (!context.ui.editorAvailable()) return 'an editor can be opened only from a terminal';
      // The text moves to the contact's once the lead is read: edited meanwhile, it would land in the old place.
      return context.state().composer ? true : "the lead's contact is still being read";
    },
    run: (context) => context.ui.openEditor(),
  },
  {
    id: 'composer.close',
    mode: 'composer',
    keys: ['esc'],
    label: 'close the composer, keeping the text for this contact',
    hint: 'close (text kept)',
    inPalette: false,
    run: (context) => context.ui.closeComposer(),
  },
];

export const TEMPLATE_COMMANDS: readonly Command[] = [
  {
    id: 'templates.insert',
    mode: 'templates',
    keys: ['enter'],
    label: 'put the highlighted template, filled in, into the text at the cursor',
    hint: 'insert',
    inPalette: false,
    run: (context) => context.ui.insertTemplate(),
  },
  {
    id: 'templates.close',
    mode: 'templates',
    keys: ['esc'],
    label: 'close the templates, back to the text',
    hint: 'close',
    inPalette: false,
    run: (context) => context.ui.closeTemplates(),
  },
  {
    id: 'templates.down',
    mode: 'templates',
    keys: ['down', 'ctrl-n', 'tab'],
    label: 'next template',
    inPalette: false,
    run: (context) => context.ui.moveTemplates(1),
  },
  {
    id: 'templates.up',
    mode: 'templates',
    keys: ['up', 'ctrl-p', 'shift-tab'],
    label: 'previous template',
    inPalette: false,
    run: (context) => context.ui.moveTemplates(-1),
  },
];

export const SEARCH_COMMANDS: readonly Command[] = [
  {
    id: 'search.keep',
    mode: 'search',
    keys: ['enter'],
    label: 'keep the filter and go back to the list',
    hint: 'keep',
    inPalette: false,
    run: (context) => context.ui.finishSearch(),
  },
  {
    id: 'search.clear',
    mode: 'search',
    keys: ['esc'],
    label: 'clear the filter',
    hint: 'clear',
    inPalette: false,
    run: (context) => context.ui.clearSearch(),
  },
];
