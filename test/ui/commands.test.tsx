/**
 * The command registry and the keymap: one key runs one command in each
 * context, the help lists exactly the keys that work, commands that change
 * the shop are inert and hidden in read-only mode, and a user's keys from
 * config.json replace the defaults or are refused in plain words.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config/config-file.js';
import { PANES } from '../../src/panes/registry.js';
import { visibleReads } from '../../src/panes/visible-reads.js';
import { slotKey } from '../../src/poller/reads.js';
import { DEFAULT_INTERVALS, plan } from '../../src/poller/refresh-plan.js';
import {
  allContexts,
  buildKeymap,
  commandsIn,
  hidesThere,
  KeymapError,
  TEXT_CONTEXTS,
} from '../../src/shell/commands/keymap.js';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';
import { type AppState, STATE_FIELDS } from '../../src/store/app-store.js';
import { openLead } from '../../src/store/selectors.js';
import type { KeyContext } from '../../src/ui-kit/commands/command.js';
import { displayKey } from '../../src/ui-kit/input/key-event.js';
import { keyBytes } from '../support/key-bytes.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { firstLoad, helpEntries, helpLines, plain, QUIET } from './nav-pane-helpers.js';

/** The keys the help shows for the focused pane, read off the screen. */
function helpKeysOnScreen(frame: string, keysByRow: Map<string, string[]>): Set<string> {
  const shown = new Set<string>();
  for (const line of helpLines(frame)) {
    for (const [row, keys] of keysByRow)
      if (line.startsWith(`${row} `)) for (const key of keys) shown.add(key);
  }
  return shown;
}

/** A value of the state as it can be compared (sets and maps as lists). */
const comparable = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (_key, each: unknown) =>
      each instanceof Set ? [...each] : each instanceof Map ? [...each] : each,
    ),
  );

/**
 * What a key press could change: every field of the state, from the store's table of fields (so a field
 * added later is watched too), and whether the inbox asked to quit. If none of it changes, the key did nothing.
 */
const observable = (tui: TestTui) => {
  const state = tui.state();
  const fields = Object.keys(STATE_FIELDS) as (keyof AppState)[];
  return {
    ...Object.fromEntries(fields.map((field) => [field, comparable(state[field])])),
    quit: tui.quitRequested,
  };
};

/** Some read is under way (its field would change without any key). */
function reading(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null || depth > 4) return false;
  if (value instanceof Set || value instanceof Map) return false;
  if ((value as { loading?: unknown }).loading === true) return true;
  return Object.values(value).some((each) => reading(each, depth + 1));
}

/** The slots the inbox's poller has stored a read of (through its public hook, as the hub does). */
function watchReads(tui: TestTui): ReadonlySet<string> {
  const read = new Set<string>();
  tui.session.poller.onData = (slot) => read.add(slotKey(slot));
  return read;
}

/**
 * Waits until the poller has read everything it plans once and nothing is being read: with QUIET
 * intervals nothing is read again, so from then on only a key can change the state.
 */
const untilQuiet = (tui: TestTui, read: ReadonlySet<string>) =>
  tui.waitFor(
    (_frame, state) =>
      // A paced read (a thread read to match an inbound text) waits QUIET's interval: not one of them.
      plan(state, { ...DEFAULT_INTERVALS, ...QUIET }, visibleReads).every(
        ({ slot, picture }) => picture !== undefined || read.has(slotKey(slot)),
      ) && !reading(state),
  );

/** A default key of one command that another command, working in the same context, could be given. */
interface Clash {
  context: KeyContext;
  key: string;
  /** The command the key is given to in config.json. */
  command: string;
  /** The command that has the key by default there. */
  holder: string;
}

/** Every clash a user's key could make with the defaults, from the default keymap itself. */
function clashesWithDefaults(): Clash[] {
  const defaults = buildKeymap();
  const clashes: Clash[] = [];
  for (const context of allContexts()) {
    for (const { keys } of defaults.commands(context)) {
      for (const key of keys) {
        const holding = defaults.resolve(context, key);
        if (holding === undefined) continue;
        const holder = holding.id;
        for (const command of commandsIn(context)) {
          if (command.id === holder) continue;
          // Where a context's own keys come first, its own command hides the other (tested below).
          if (hidesThere(context, holding, command)) continue;
          // A printable key where text is typed is refused for another reason (tested below).
          if (TEXT_CONTEXTS.has(context) && [...key].length === 1 && command.mode !== 'always') continue;
          clashes.push({ context, key, command: command.id, holder });
        }
      }
    }
  }
  return clashes;
}

describe('the registry', () => {
  const home = mkdtempSync(join(tmpdir(), 'shop-inbox-keys-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  mkdirSync(join(env.XDG_CONFIG_HOME, 'shop-inbox'), { recursive: true, mode: 0o700 });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** The keymap as the command line builds it: config.json's keys, read and checked. */
  async function keymapFromConfig(keys: Record<string, string | string[]>) {
    await writeFile(join(env.XDG_CONFIG_HOME, 'shop-inbox', 'config.json'), JSON.stringify({ keys }), {
      mode: 0o600,
    });
    const config = await readConfig(env);
    return buildKeymap(config?.keys);
  }

  it('a key in config.json that another command has there by default is refused, naming both commands and where', async () => {
    const clashes = clashesWithDefaults();
    expect(clashes.length).toBeGreaterThan(100);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...clashes), async ({ context, key, command, holder }) => {
        const refusal = await keymapFromConfig({ [command]: key }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refusal, `${command}: ${key} in ${context}`).toBeInstanceOf(KeymapError);
        const where = context.startsWith('pane:') ? `in the ${context.slice(5)} pane` : `in the ${context}`;
        const both = [
          `"${key}" is both ${holder} and ${command} (${where})`,
          `"${key}" is both ${command} and ${holder} (${where})`,
        ];
        const message = (refusal as Error).message;
        expect(
          both.some((line) => message.split('\n').some((each) => each.trim() === line)),
          `${message}\nshould say one of:\n${both.join('\n')}`,
        ).toBe(true);
      }),
    );
  });

  it('choosing an inbound text: its own keys hide the global ones they share, the other global keys work', async () => {
    const defaults = buildKeymap();
    for (const [key, id] of [
      ['j', 'inbound.down'],
      ['k', 'inbound.up'],
      ['g', 'inbound.newest'],
      ['G', 'inbound.oldest'],
      ['ctrl-d', 'inbound.page-down'],
      ['q', 'inbound.back'],
      ['?', 'help'],
      ['3', 'pane.reviews'],
      ['tab', 'pane.next'],
      ['R', 'refresh.all'],
      [':', 'palette'],
    ] as const)
      expect(defaults.resolve('inbound', key)?.id, key).toBe(id);
    // The inbox's own commands (compose, done, the waiting list) are not there: they act on a lead.
    expect(defaults.resolve('inbound', 'c')).toBeUndefined();
    expect(defaults.resolve('inbound', 'w')).toBeUndefined();
    // A user's key for an inbound command hides a global key there alone.
    const keymap = await keymapFromConfig({ 'inbound.down': ['j', '5'] });
    expect(keymap.resolve('inbound', '5')?.id).toBe('inbound.down');
    expect(keymap.resolve('pane:inbox', '5')?.id).toBe('pane.contacts');
  });

  it('a key another command has only where this one never works is no clash', async () => {
    // `back` works in the thread alone, `callbacks` (f) in the inbox alone.
    const keymap = await keymapFromConfig({ back: 'f' });
    expect(keymap.resolve('pane:thread', 'f')?.id).toBe('back');
    expect(keymap.resolve('pane:inbox', 'f')?.id).toBe('callbacks');
    expect(keymap.resolve('pane:thread', 'esc')).toBeUndefined();
  });

  it('every command that changes the shop is a pane command with a key that types no text', () => {
    const writes = ALL_COMMANDS.filter((command) => command.writes);
    expect(writes.map((command) => command.id).sort()).toEqual([
      'approve',
      'approve',
      'compose',
      'compose',
      'compose',
      'draft',
    ]);
    for (const command of writes) expect(command.mode).toBe('pane');
  });

  it('every pane of the registry has a tab, a number and its commands in its context', () => {
    const keymap = buildKeymap();
    PANES.forEach((pane, index) => {
      expect(keymap.resolve(`pane:${pane.id}`, String(index + 1))?.id).toBe(`pane.${pane.id}`);
      for (const command of pane.commands) {
        expect(commandsIn(`pane:${pane.id}`)).toContain(command);
        for (const other of PANES.filter((each) => each !== pane))
          expect(commandsIn(`pane:${other.id}`)).not.toContain(command);
      }
    });
  });
});

describe('a user\'s keys (config.json "keys")', () => {
  it('replace the defaults of the commands they name, everywhere those commands work', () => {
    const keymap = buildKeymap({ compose: 'm', approve: 'A', palette: ['ctrl-k', ':'] });
    for (const pane of ['inbox', 'thread', 'contacts']) {
      expect(keymap.resolve(`pane:${pane}`, 'm')?.id).toBe('compose');
      expect(keymap.resolve(`pane:${pane}`, 'c')).toBeUndefined();
    }
    expect(keymap.resolve('pane:actions', 'A')?.id).toBe('approve');
    expect(keymap.resolve('pane:actions', 'a')).toBeUndefined();
    expect(keymap.resolve('pane:today', 'ctrl-k')?.id).toBe('palette');
    expect(keymap.keysOf('compose')).toEqual(['m']);
  });

  it('are refused in plain words: an unknown command, a key no terminal sends, a clash, a letter where text is typed, enter on yes', () => {
    const refused = (keys: Record<string, string | string[]>) => {
      try {
        buildKeymap(keys);
      } catch (error) {
        expect(error).toBeInstanceOf(KeymapError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(keys)}`);
    };
    expect(refused({ complose: 'm' })).toContain('"complose" is not a command');
    expect(refused({ compose: 'ctrl-é' })).toContain('compose: "ctrl-é" is not a key a terminal can send');
    expect(refused({ compose: 'hyper-x' })).toContain('not a key a terminal can send');
    expect(refused({ compose: 'j' })).toMatch(/"j" is both (compose and move\.down|move\.down and compose)/);
    expect(refused({ approve: 's' })).toContain('in the actions pane');
    expect(refused({ 'composer.send': 'x' })).toContain('would be typed as text');
    expect(refused({ 'prompt.yes': 'enter' })).toContain('enter and space never answer yes');
  });

  it('show in the help and the hints, and work, in the inbox itself', async () => {
    const tui = await startTui({
      columns: 100,
      rows: 30,
      intervals: QUIET,
      keys: { compose: 'm', help: 'H' },
    });
    await firstLoad(tui);
    await tui.waitFor((frame) => /m text/.test(plain(frame).split('\n').at(-1) ?? ''));
    await tui.press('?');
    expect(tui.state().helpOpen).toBe(false);
    await tui.press('H');
    const help = await tui.waitFor('Keys — Inbox');
    expect(
      helpLines(help).some(
        (line) => line.startsWith('m ') && line.includes("text the selected lead's contact"),
      ),
    ).toBe(true);
    expect(helpLines(help).some((line) => line.startsWith('c '))).toBe(false);
    await tui.press(KEYS.escape);
    await tui.press('c');
    expect(tui.state().composer ?? tui.state().composerWaiting).toBeUndefined();
    await tui.press('m');
    await tui.waitFor((_frame, state) => Boolean(state.composer ?? state.composerWaiting));
  });
});

describe('the help lists exactly the keys that work', () => {
  it('in every pane: its rows are the keymap of that pane, and a printable key it does not list does nothing', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    const read = watchReads(tui);
    await firstLoad(tui, (state) => state.actions.pending_approval.data !== undefined);
    for (const pane of PANES) {
      await tui.run(`pane.${pane.id}`);
      await tui.waitFor((_frame, state) => state.focus === pane.id);
      const working = new Set(tui.keymap.commands(`pane:${pane.id}`).flatMap(({ keys }) => keys));
      // The help's rows, as drawn: each row's keys are the keys of its commands.
      const keysByRow = new Map<string, string[]>();
      const rows = new Map<string, string[]>();
      for (const { command, keys } of tui.keymap.commands(`pane:${pane.id}`)) {
        const row = command.helpRow?.id ?? command.id;
        rows.set(row, [...(rows.get(row) ?? []), ...keys]);
      }
      for (const keys of rows.values()) keysByRow.set(keys.map(displayKey).join(' '), keys);
      await tui.run('help');
      const frame = await tui.waitFor(`Keys — ${pane.title}`);
      const listed = helpKeysOnScreen(frame, keysByRow);
      expect([...listed].sort(), pane.id).toEqual([...working].sort());
      await tui.run('help.close');

      for (let code = 0x21; code < 0x7f; code += 1) {
        const key = String.fromCharCode(code);
        if (working.has(key)) continue;
        await untilQuiet(tui, read);
        const before = observable(tui);
        await tui.press(keyBytes(key));
        expect(observable(tui), `${key} in ${pane.id}`).toEqual(before);
      }
    }
  });
});

describe('read-only', () => {
  it('every command that changes the shop is inert when its key is pressed, and nowhere in the help or the hints', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET, readOnly: true });
    const read = watchReads(tui);
    await firstLoad(tui, (state) => state.actions.pending_approval.data !== undefined);
    await tui.run('open');
    await tui.waitFor((_frame, state) => openLead(state) !== undefined);
    for (const pane of PANES) {
      const writes = pane.commands.filter((command) => command.writes);
      if (writes.length === 0) continue;
      await tui.run(`pane.${pane.id}`);
      await tui.waitFor((_frame, state) => state.focus === pane.id);
      for (const command of writes) {
        await untilQuiet(tui, read);
        const before = observable(tui);
        await tui.press(...command.keys.map(keyBytes));
        expect(observable(tui), `${command.id} in ${pane.id}`).toEqual(before);
        expect(plain(tui.frame()).split('\n').at(-1)).not.toContain(`${command.keys[0]} ${command.hint}`);
      }
      await tui.run('help');
      const help = await tui.waitFor(`Keys — ${pane.title}`);
      for (const command of writes) expect(helpEntries(help).join('\n')).not.toContain(command.label);
      await tui.run('help.close');
    }
    expect(await tui.writes()).toEqual([]);
  });
});
