/**
 * The one root handler: each event of a batch (the keys of one read) goes to
 * the command its key runs in the context the screen is in at that moment,
 * read from the store, not from a render. Printable keys and pastes are text
 * where text is typed, and nothing elsewhere: a paste is never keys.
 */
import type { AppState, AppStore } from '../../store/app-store.js';
import {
  applies,
  type Command,
  type CommandContext,
  hiddenWhenReadOnly,
  type KeyContext,
  type Keymap,
} from '../../ui-kit/commands/command.js';
import type { InputBatch } from '../../ui-kit/input/input-source.js';
import { keyName, type MouseEvent } from '../../ui-kit/input/key-event.js';
import type { Controller } from '../controller.js';
import { TEXT_CONTEXTS } from './keymap.js';

/** The context keys are in: the list of editing keys when it is open over a text, else what is on screen. */
export function contextOf(state: AppState): KeyContext {
  const underneath = screenContextOf(state);
  return state.editKeys && TEXT_CONTEXTS.has(underneath) ? 'editkeys' : underneath;
}

/** What is on screen decides what keys do: a question, an overlay, a text being typed, or a pane. */
export function screenContextOf(state: AppState): KeyContext {
  // The question a refused key's screen asks before quitting is answered there.
  if (state.prompt?.kind === 'confirm-quit') return 'prompt';
  if (state.fatal) return 'fatal';
  if (state.prompt?.kind === 'confirm-send' && state.prompt.word !== undefined && !state.prompt.checking)
    return 'confirm';
  if (state.prompt) return 'prompt';
  if (state.view === 'wallboard') return 'wallboard';
  if (state.helpOpen) return 'help';
  if (state.logOpen) return 'log';
  if (state.palette) return 'palette';
  if (state.templatePicker && state.composer) return 'templates';
  if (state.shopPicker) return 'shops';
  if (state.composer || state.composerWaiting) return 'composer';
  if (state.searching) return 'search';
  if (state.inboundPick !== undefined && state.focus === 'inbox') return 'inbound';
  return `pane:${state.focus}`;
}

export interface DispatcherOptions {
  store: AppStore;
  ui: Controller;
  keymap: Keymap;
  /** Clicks and the wheel; absent when the mouse is off. */
  onMouse?: (event: MouseEvent) => void;
}

export type Dispatcher = (batch: InputBatch) => void;

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, ui, keymap } = options;

  const contextFor = (input: CommandContext['input']): CommandContext => {
    const context: CommandContext = {
      store,
      state: store.getState,
      ui,
      input,
      keymap,
      runCommand: (command) => run(command, context),
    };
    return context;
  };

  /** Runs a command if it may run now; says why not when it does not apply. */
  function run(command: Command, context: CommandContext): void {
    if (hiddenWhenReadOnly(command, store.getState())) return;
    const verdict = applies(command, context);
    if (verdict !== true) {
      if (!command.silentWhenOff) ui.notify(`${verdict.charAt(0).toUpperCase()}${verdict.slice(1)}.`, 'info');
      return;
    }
    command.run(context);
  }

  return (batch) => {
    batch.events.forEach((event, index) => {
      const state = store.getState();
      if (state.quitting) return;
      const input = { batch: batch.id, last: index === batch.events.length - 1 };
      if (event.kind === 'mouse') {
        options.onMouse?.(event);
        return;
      }
      const context = contextOf(state);
      // A question wants a deliberate key of its own: keys read with the one that asked it are not answers.
      if ((context === 'prompt' || context === 'confirm') && !ui.mayAnswer(batch.id)) return;
      if (event.kind === 'paste') {
        if (TEXT_CONTEXTS.has(context)) ui.typeText(event.text);
        return;
      }
      const command = keymap.resolve(context, keyName(event));
      if (command) {
        run(command, contextFor(input));
        return;
      }
      if (TEXT_CONTEXTS.has(context) && event.text !== undefined) ui.typeText(event.text);
    });
  };
}
