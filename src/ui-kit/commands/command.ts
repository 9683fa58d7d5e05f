/**
 * A command is data: its id, its default keys, what the help and the palette
 * call it, a short hint for the status bar, whether it changes the shop, when
 * it applies, and what it runs. Dispatch, the help, the hints, the palette,
 * read-only mode and user keymaps all read the same commands.
 */
import type { AppState, AppStore, PaneId } from '../../store/app-store.js';
import type { ShellControls } from './shell-controls.js';

/**
 * The screen states that are a mode of their own (an overlay, a question, a text being typed), in priority
 * order: each is also a key context (the panes are the others).
 */
export const SCREEN_CONTEXTS = [
  'fatal',
  'wallboard',
  'prompt',
  'confirm',
  'help',
  'editkeys',
  'log',
  'palette',
  'templates',
  'shops',
  'inbound',
  'composer',
  'search',
] as const;

/**
 * Where a command works, in priority order: the first mode that is active
 * decides what a key does. `edit` commands work in every mode that edits a
 * line of text (composer, search, palette); `global` ones under every pane;
 * `always` ones everywhere (ctrl-c); `wallboard` ones on the wallboard only.
 */
export const MODES = [...SCREEN_CONTEXTS, 'edit', 'pane', 'global', 'always'] as const;
export type Mode = (typeof MODES)[number];

/** A screen state that decides what keys do: an overlay, a text being typed, or a pane. */
export type KeyContext = (typeof SCREEN_CONTEXTS)[number] | `pane:${string}`;

/**
 * Which command a key runs in each context: built by the shell (src/shell/commands/keymap.ts, the
 * defaults with a user's keys laid over them), read by the help, the hints and the wallboard.
 */
export interface Keymap {
  /** The keys of a command, as they are now (the user's, or the defaults). */
  keysOf(commandId: string): readonly string[];
  /** The command a key runs in a context, if any. */
  resolve(context: KeyContext, key: string): Command | undefined;
  /** The commands of a context, each with its keys (one list per context, made once: hints ask at every frame). */
  commands(context: KeyContext): ReadonlyArray<{ command: Command; keys: readonly string[] }>;
}

/** What a command sees when it runs. */
export interface CommandContext {
  store: AppStore;
  /** The store's current state (keys arrive faster than React re-renders: never a render's copy). */
  state(): AppState;
  /** The screen around the panes (the shell's controller). */
  ui: ShellControls;
  /** The read this key arrived in, and whether it was the last key of that read. */
  input: { batch: number; last: boolean };
  keymap: Keymap;
  /** Runs another command as if its key was pressed (the palette). */
  runCommand(command: Command): void;
}

export interface Command {
  /** Stable name, used in config files ("keys": {"compose": "m"}) and in docs/keys.md. */
  id: string;
  mode: Mode;
  /** For `pane` commands: the pane they belong to. */
  pane?: PaneId;
  /** Default keys, as key names ("j", "ctrl-d", "down"). */
  keys: readonly string[];
  /** What it does, for the help and the palette. */
  label: string;
  /** A word or two for the status bar, when this command matters enough to show there. */
  hint?: string;
  /**
   * Changes the shop: hidden and inert in a process read-only by choice (--read-only, the config); with a
   * read-only key (the shop says) it stays listed and says why it cannot be used.
   */
  writes?: boolean;
  /**
   * Whether it applies now: true, or why not (shown when its key is pressed,
   * and in the help). Absent: always applies.
   */
  when?: (context: CommandContext) => true | string;
  run: (context: CommandContext) => void;
  /** Left out of the palette (moving the selection, the palette's own keys). */
  inPalette?: boolean;
  /** Pressed when it does not apply: nothing happens, and nothing is said (esc with no filter to clear). */
  silentWhenOff?: boolean;
  /** Commands the help lists on one row (j and k: "move down / up"), with that row's words. */
  helpRow?: { id: string; label: string };
}

/** Checks `when`: true when the command applies now, else the reason it does not. */
export function applies(command: Command, context: CommandContext): true | string {
  if (command.writes) {
    const off = writesOff(context.state());
    if (off) return off;
  }
  return command.when ? command.when(context) : true;
}

/** Why nothing that writes can be done, when the shop says the key is read-only. */
export function writesOff(
  state: Pick<AppState, 'readOnly' | 'readOnlyReason' | 'keyMode'>,
): string | undefined {
  if (!state.readOnly || state.readOnlyReason !== 'server') return undefined;
  const refused = state.keyMode.mode === 'read' && state.keyMode.how === 'refused';
  return `${refused ? 'the shop refused a write with this API key: it is read-only' : 'this API key is read-only'}; turn on write mode in the shop's API settings`;
}

/** A command left out of the keys, the help, the hints and the palette: it writes, in a process read-only by choice. */
export function hiddenWhenReadOnly(
  command: Pick<Command, 'writes'>,
  state: Pick<AppState, 'readOnly' | 'readOnlyReason'>,
): boolean {
  return Boolean(command.writes) && state.readOnly && state.readOnlyReason !== 'server';
}
