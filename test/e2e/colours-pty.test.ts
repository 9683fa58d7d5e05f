/**
 * Colours of the built CLI in a real pseudo-terminal, against the simulator
 * on a real socket, read from the raw bytes it wrote: under NO_COLOR not one
 * colour parameter on any screen (header, tabs, panes, status bar, help,
 * palette, composer, wallboard), with the selection and urgency still
 * visible through inverse, bold and words; and the light theme, by flag or
 * from COLORFGBG, drawn with its own colours.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { KEYS, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-colours-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-colours-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

function open(sim: TestSim, args: string[], env: NodeJS.ProcessEnv, size = { cols: 120, rows: 40 }) {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, ...args], {
    ...size,
    env: terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.write, ...env }),
  });
  terminals.push(terminal);
  return terminal;
}

/**
 * Every SGR parameter that sets or resets a colour, in the raw output: 30–39 and 90–97 (text),
 * 40–49 and 100–107 (background), 38/48 with their 5;N or 2;R;G;B, 58/59 (underline colour).
 */
const SGR = new RegExp(`${'\u001B'}\\[([0-9;:]*)m`, 'g');

function colourParameters(raw: string): string[] {
  const found: string[] = [];
  for (const match of raw.matchAll(SGR)) {
    for (const parameter of (match[1] ?? '').split(';')) {
      const code = Number(parameter.split(':')[0] || '0');
      const colour =
        (code >= 30 && code <= 49) ||
        (code >= 90 && code <= 97) ||
        (code >= 100 && code <= 107) ||
        code === 58 ||
        code === 59;
      if (colour) found.push(match[0]);
    }
  }
  return found;
}

/** Each screen the inbox has, one after another, each waited for. */
async function tour(terminal: PtyTerminal) {
  await terminal.waitForText('open leads ·');
  await terminal.waitForText(/Thread/);
  for (const [key, text] of [
    ['3', 'Reviews'],
    ['4', 'pending approval'],
    ['5', 'Contacts'],
    ['6', 'Today'],
    ['1', 'SAME DAY'],
  ] as const) {
    terminal.send(key);
    await terminal.waitForText(text);
  }
  terminal.send('?');
  await terminal.waitForText('Keys — Inbox');
  terminal.send(KEYS.escape);
  await terminal.waitFor(() => !terminal.screenText().includes('Keys — Inbox'), 'the help to close');
  terminal.send(':');
  await terminal.waitForText('go to Reviews');
  terminal.send(KEYS.escape);
  await terminal.waitFor(() => !terminal.screenText().includes('go to Reviews'), 'the palette to close');
}

describe('colours', () => {
  it('NO_COLOR: not one colour byte on any screen; selection, urgency and read-only still visible', async () => {
    const sim = await startSim();
    const inbox = open(sim, [], { NO_COLOR: '1' });
    await tour(inbox);
    // The selected lead is in inverse video, same-day leads say so in words.
    expect([...inbox.inverseText().values()].some((text) => text.length > 2)).toBe(true);
    expect(inbox.screenText()).toContain('SAME DAY');
    inbox.send('c');
    await inbox.waitForText(' characters · ');
    inbox.send('hello');
    await inbox.waitForText('hello');
    inbox.send(KEYS.escape);
    await inbox.waitFor(() => !inbox.screenText().includes(' characters · '), 'the composer to close');
    // The typed text is kept: quitting asks first (the question is drawn without colour too).
    inbox.send('q');
    await inbox.waitForText('y/n');
    inbox.send('y');
    expect((await inbox.exited).exitCode).toBe(0);
    expect(colourParameters(inbox.output())).toEqual([]);

    const readOnly = open(sim, ['--read-only'], { NO_COLOR: '1' }, { cols: 80, rows: 24 });
    await readOnly.waitForText('open leads ·');
    // The badge: inverse video instead of black on yellow.
    expect([...readOnly.inverseText().values()]).toContain('[READ-ONLY]');
    readOnly.send('q');
    expect((await readOnly.exited).exitCode).toBe(0);
    expect(colourParameters(readOnly.output())).toEqual([]);

    const wallboard = open(sim, ['--wallboard'], { NO_COLOR: '1' }, { cols: 80, rows: 24 });
    await wallboard.waitForText(/updated \d+ s ago/);
    await wallboard.waitForText('OLDEST MISSED CALL');
    wallboard.send('q');
    expect((await wallboard.exited).exitCode).toBe(0);
    expect(colourParameters(wallboard.output())).toEqual([]);
  }, 60_000);

  it('an empty NO_COLOR is not set (no-color.org): the inbox has its colours', async () => {
    const sim = await startSim();
    const terminal = open(sim, [], { NO_COLOR: '' });
    await terminal.waitForText('open leads ·');
    terminal.send('q');
    await terminal.exited;
    expect(colourParameters(terminal.output()).length).toBeGreaterThan(0);
  });

  it('the light theme (--theme light, or auto on a light COLORFGBG) draws with its own colours', async () => {
    const sim = await startSim();
    // The focused pane's border: cyan (36) on the dark theme, blue (34) on the light one.
    const focusedBorder = (raw: string, code: number) => raw.includes(`\u001B[${code}m┌`);
    const dark = open(sim, ['--theme', 'dark'], { COLORFGBG: '0;15' });
    await dark.waitForText('open leads ·');
    dark.send('q');
    await dark.exited;
    expect(focusedBorder(dark.output(), 36)).toBe(true);
    expect(focusedBorder(dark.output(), 34)).toBe(false);

    for (const [args, env] of [
      [['--theme', 'light'], {}],
      [[], { COLORFGBG: '0;15' }],
    ] as const) {
      const light = open(sim, [...args], env);
      await light.waitForText('open leads ·');
      light.send('q');
      await light.exited;
      expect(focusedBorder(light.output(), 34), `${args.join(' ')} ${JSON.stringify(env)}`).toBe(true);
      expect(focusedBorder(light.output(), 36)).toBe(false);
    }
  }, 60_000);
});
