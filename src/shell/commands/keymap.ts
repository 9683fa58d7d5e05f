/**
 * Which key runs which command, in each context the screen can be in: the
 * defaults of the registry, with a user's `keys` from the config file laid
 * over them. Checked once, at start: an unknown command, a key no terminal
 * can send, two commands on one key where both would work, a printable key
 * where text is typed, or enter on "yes" are refused in plain words.
 */
import { PANES } from '../../panes/registry.js';
import {
  type Command,
  type KeyContext,
  type Keymap,
  type Mode,
  SCREEN_CONTEXTS,
} from '../../ui-kit/commands/command.js';
import { parseKeyName } from '../../ui-kit/input/key-event.js';
import { ALL_COMMANDS } from './registry.js';

/** The modes a context consults, in order; the first command found for a key wins. */
export function modesOf(context: KeyContext): readonly Mode[] {
  switch (context) {
    case 'fatal':
      return ['fatal', 'always'];
    case 'wallboard':
      return ['wallboard', 'always'];
    case 'prompt':
      return ['prompt', 'always'];
    case 'confirm':
      return ['confirm', 'edit', 'always'];
    case 'help':
      return ['help', 'always'];
    case 'editkeys':
      return ['editkeys', 'always'];
    case 'log':
      return ['log', 'always'];
    case 'palette':
      return ['palette', 'edit', 'always'];
    case 'templates':
      return ['templates', 'edit', 'always'];
    case 'shops':
      return ['shops', 'always'];
    case 'inbound':
      return ['inbound', 'global', 'always'];
    case 'composer':
      return ['composer', 'edit', 'always'];
    case 'search':
      return ['search', 'edit', 'always'];
    default:
      return ['pane', 'global', 'always'];
  }
}

/**
 * Contexts whose own keys hide the same keys of the modes after theirs, instead of clashing with them:
 * choosing one of the Inbox's latest inbound texts, where j/k and the ends move among the texts, while
 * help, the panes, refresh and the palette work as everywhere.
 */
const OWN_KEYS_FIRST: ReadonlySet<KeyContext> = new Set(['inbound']);

/** Whether, in `context`, one of two commands on a key hides the other rather than clashing with it. */
export function hidesThere(context: KeyContext, one: Command, other: Command): boolean {
  if (!OWN_KEYS_FIRST.has(context)) return false;
  const own = modesOf(context)[0];
  return (one.mode === own) !== (other.mode === own);
}

/** Contexts in which printable keys are text, not commands. */
export const TEXT_CONTEXTS: ReadonlySet<KeyContext> = new Set([
  'palette',
  'templates',
  'composer',
  'search',
  'confirm',
]);

export function allContexts(): KeyContext[] {
  return [...SCREEN_CONTEXTS, ...PANES.map((pane) => `pane:${pane.id}` as const)];
}

/** The commands of a context, in the order of its modes. */
export function commandsIn(context: KeyContext, commands: readonly Command[] = ALL_COMMANDS): Command[] {
  const pane = context.startsWith('pane:') ? context.slice('pane:'.length) : undefined;
  return modesOf(context).flatMap((mode) =>
    commands.filter((command) => command.mode === mode && (mode !== 'pane' || command.pane === pane)),
  );
}

/** A user's keys: command id → one key or several, as written in the config file. */
export type UserKeys = Record<string, string | readonly string[]>;

export class KeymapError extends Error {
  override name = 'KeymapError';
}

const isPrintableKey = (key: string) => [...key].length === 1 || key === 'space';

export function buildKeymap(userKeys: UserKeys = {}, commands: readonly Command[] = ALL_COMMANDS): Keymap {
  const ids = new Set(commands.map((command) => command.id));
  const keysById = new Map<string, readonly string[]>();
  const problems: string[] = [];

  for (const [id, value] of Object.entries(userKeys)) {
    if (!ids.has(id)) {
      problems.push(`"${id}" is not a command (docs/keys.md lists every command id)`);
      continue;
    }
    const written = typeof value === 'string' ? [value] : [...value];
    const keys: string[] = [];
    for (const text of written) {
      const key = typeof text === 'string' ? parseKeyName(text) : undefined;
      if (key === undefined) problems.push(`${id}: "${String(text)}" is not a key a terminal can send`);
      else if (!keys.includes(key)) keys.push(key);
    }
    keysById.set(id, keys);
  }
  const keysOf = (id: string): readonly string[] =>
    keysById.get(id) ?? commands.find((command) => command.id === id)?.keys ?? [];

  for (const id of keysById.keys()) {
    const keys = keysOf(id);
    if (id === 'prompt.yes' && keys.some((key) => key === 'enter' || key === 'space'))
      problems.push(
        'prompt.yes: enter and space never answer yes (an irreversible step needs a deliberate key)',
      );
  }

  const tables = new Map<KeyContext, Map<string, Command>>();
  for (const context of allContexts()) {
    const table = new Map<string, Command>();
    for (const command of commandsIn(context, commands)) {
      for (const key of keysOf(command.id)) {
        if (TEXT_CONTEXTS.has(context) && isPrintableKey(key) && command.mode !== 'always') {
          problems.push(
            `${command.id}: "${key}" would be typed as text there; use a ctrl-, alt- or named key`,
          );
          continue;
        }
        const taken = table.get(key);
        if (taken && taken.id !== command.id && !hidesThere(context, taken, command)) {
          problems.push(`"${key}" is both ${taken.id} and ${command.id} (${describeContext(context)})`);
          continue;
        }
        if (!taken) table.set(key, command);
      }
    }
    tables.set(context, table);
  }
  if (problems.length > 0) {
    throw new KeymapError(
      `the keys in the config file cannot be used:\n  ${[...new Set(problems)].join('\n  ')}`,
    );
  }
  const listedByContext = new Map<KeyContext, ReadonlyArray<{ command: Command; keys: readonly string[] }>>();
  return {
    keysOf,
    resolve: (context, key) => tables.get(context)?.get(key),
    // Each command with the keys that run it there (not those another command hides).
    commands: (context) => {
      let listed = listedByContext.get(context);
      if (listed === undefined) {
        listed = commandsIn(context, commands).map((command) => ({
          command,
          keys: keysOf(command.id).filter((key) => tables.get(context)?.get(key)?.id === command.id),
        }));
        listedByContext.set(context, listed);
      }
      return listed;
    },
  };
}

function describeContext(context: KeyContext): string {
  return context.startsWith('pane:') ? `in the ${context.slice(5)} pane` : `in the ${context}`;
}
