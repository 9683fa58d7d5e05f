/**
 * The command registry and the keymap: one key runs one command in each
 * context, the help lists exactly the keys that work, commands that change
 * the shop are inert and hidden in read-only mode, and a user's keys from
 * config.json replace the defaults or are refused in plain words.
 */
import { describe, expect, it } from 'vitest';
import { PANES } from '../../src/panes/registry.js';
import { allContexts, buildKeymap, commandsIn, KeymapError } from '../../src/shell/commands/keymap.js';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';
import { openLead } from '../../src/store/selectors.js';
import { displayKey } from '../../src/ui-kit/input/key-event.js';
import { keyBytes } from '../support/key-bytes.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { firstLoad, helpLines, plain, QUIET } from './nav-pane-helpers.js';

/** The keys the help shows for the focused pane, read off the screen. */
function helpKeysOnScreen(frame: string, keysByRow: Map<string, string[]>): Set<string> {
  const shown = new Set<string>();
  for (const line of helpLines(frame)) {
    for (const [row, keys] of keysByRow)
      if (line.startsWith(`${row} `)) for (const key of keys) shown.add(key);
  }
  return shown;
}

/** What a key press could change: if none of it changes, the key did nothing. */
const observable = (tui: TestTui) => {
  const state = tui.state();
  return JSON.stringify({
    focus: state.focus,
    selection: state.selection[state.focus],
    prompt: state.prompt,
    composer: state.composer,
    waiting: state.composerWaiting,
    help: state.helpOpen,
    palette: state.palette,
    searching: state.searching,
    inboxFilter: state.inboxFilter,
    actionsFilter: state.actionsFilter,
    notice: state.notice?.text,
    composed: state.composed,
    quit: tui.quitRequested,
  });
};

describe('the registry', () => {
  it('no key runs two commands in any context, with the default keys', () => {
    const keymap = buildKeymap();
    for (const context of allContexts()) {
      const seen = new Map<string, string>();
      for (const { command, keys } of keymap.commands(context)) {
        for (const key of keys) {
          const other = seen.get(key);
          expect(
            other === undefined || other === command.id,
            `${context}: ${key} is ${other} and ${command.id}`,
          ).toBe(true);
          seen.set(key, command.id);
          expect(keymap.resolve(context, key)?.id).toBe(command.id);
        }
      }
    }
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
        const before = observable(tui);
        await tui.press(keyBytes(key));
        expect(observable(tui), `${key} in ${pane.id}`).toBe(before);
      }
    }
  });
});

describe('read-only', () => {
  it('every command that changes the shop is inert when its key is pressed, and nowhere in the help or the hints', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET, readOnly: true });
    await firstLoad(tui, (state) => state.actions.pending_approval.data !== undefined);
    await tui.run('open');
    await tui.waitFor((_frame, state) => openLead(state) !== undefined);
    for (const pane of PANES) {
      const writes = pane.commands.filter((command) => command.writes);
      if (writes.length === 0) continue;
      await tui.run(`pane.${pane.id}`);
      await tui.waitFor((_frame, state) => state.focus === pane.id);
      for (const command of writes) {
        const before = observable(tui);
        await tui.press(...command.keys.map(keyBytes));
        expect(observable(tui), `${command.id} in ${pane.id}`).toBe(before);
        expect(plain(tui.frame()).split('\n').at(-1)).not.toContain(`${command.keys[0]} ${command.hint}`);
      }
      await tui.run('help');
      const help = await tui.waitFor(`Keys — ${pane.title}`);
      for (const command of writes) expect(plain(help)).not.toContain(command.label);
      await tui.run('help.close');
    }
    expect(await tui.writes()).toEqual([]);
  });
});
