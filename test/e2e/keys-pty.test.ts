/**
 * Keys and the mouse through the built CLI in a real pseudo-terminal: keys
 * that a slow SSH link delivers in odd pieces (an arrow cut in two, ctrl-u and
 * ctrl-w in one read with text), clicks, mouse reporting turned on and given
 * back, and a user's keys from config.json (or a clear refusal of bad ones).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const MOUSE_ON = '\u001B[?1000h\u001B[?1006h';
const MOUSE_OFF = '\u001B[?1006l\u001B[?1000l';

let bundle: BuiltCli;
let cliPath: string;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-keys-');
  cliPath = bundle.cliPath;
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-keys-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

function env(s: TestSim, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write, ...extra });
}

async function open(
  s: TestSim,
  args: string[] = [],
  size = { cols: 100, rows: 30 },
  extraEnv: Record<string, string> = {},
) {
  const t = spawnInTerminal(process.execPath, [cliPath, ...args], { ...size, env: env(s, extraEnv) });
  terminals.push(t);
  await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  return t;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The highlighted lead row: the one drawn in inverse video inside the inbox frame. */
function highlighted(t: PtyTerminal): string | undefined {
  return [...t.inverseText().entries()].find(([row]) => row > 3)?.[1];
}

async function configKeys(keys: unknown) {
  await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config', 'shop-inbox', 'config.json'), JSON.stringify({ keys }), {
    mode: 0o600,
  });
}

describe('keys over a slow link', () => {
  it('an arrow cut in two reads is one arrow; ctrl-u and ctrl-w read with text edit it, and type nothing', async () => {
    const s = await startSim();
    // A link that splits an arrow by up to a second, as staff would say with ESCDELAY (the default wait is
    // 100 ms, which a loaded machine running this test could overshoot between two writes).
    const t = await open(s, [], undefined, { ESCDELAY: '1000' });
    const first = highlighted(t);
    // ESC [ B (down) arrives in two reads, 300 ms apart: still one key, not esc then "[B".
    t.send('\u001B[');
    await sleep(300);
    t.send('B');
    await t.waitFor(() => highlighted(t) !== first, 'the selection to move down');
    const second = highlighted(t);
    t.send('j\u001B');
    await sleep(300);
    t.send('[A');
    await t.waitFor(() => highlighted(t) === second, 'j then up to come back');

    t.send('c');
    await t.waitForText(/To .+ characters/);
    // Typed fast: the text, then ctrl-u (cut it) and ctrl-w, and more text, all in one read.
    t.send('Running late\u0015\u0017on my way');
    await t.waitForText('on my way');
    const screen = t.screenText();
    expect(screen).not.toMatch(/[␕␗]/);
    expect(screen).not.toContain('Running late');
    expect(screen).toMatch(/9 characters · 1 segment \(GSM-7\)/);
    t.send('\u001B');
    await t.waitFor(() => !/To .+ characters/.test(t.screenText()), 'the composer to close');
    t.send('q');
    await t.waitForText('Quit anyway? y/n');
    t.send('y');
    expect(await t.exited).toMatchObject({ exitCode: 0 });
  });
});

describe('the mouse', () => {
  it('is reported while the inbox runs and given back on exit; a click on a tab switches to it', async () => {
    const s = await startSim();
    const t = await open(s);
    expect(t.output()).toContain(MOUSE_ON);
    const tabRow = t.lines().findIndex((line) => line.includes('1 Inbox'));
    const column = (t.lines()[tabRow] ?? '').indexOf('3 Reviews');
    t.send(`\u001B[<0;${column + 2};${tabRow + 1}M\u001B[<0;${column + 2};${tabRow + 1}m`);
    await t.waitForText(/│ Reviews \(/);
    t.send('q');
    expect(await t.exited).toMatchObject({ exitCode: 0 });
    expect(t.output().lastIndexOf(MOUSE_OFF)).toBeGreaterThan(t.output().lastIndexOf(MOUSE_ON));
  });

  it('--no-mouse, or "mouse": false, leaves the mouse to the terminal', async () => {
    const s = await startSim();
    const t = await open(s, ['--no-mouse']);
    expect(t.output()).not.toContain('\u001B[?1000h');
    t.send('q');
    expect(await t.exited).toMatchObject({ exitCode: 0 });

    await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
    await writeFile(join(home, 'config', 'shop-inbox', 'config.json'), JSON.stringify({ mouse: false }), {
      mode: 0o600,
    });
    const u = await open(s);
    expect(u.output()).not.toContain('\u001B[?1000h');
    u.send('q');
    expect(await u.exited).toMatchObject({ exitCode: 0 });
  });
});

describe("a user's keys", () => {
  it('from config.json: the help shows them and they work', async () => {
    const s = await startSim();
    await configKeys({ compose: 'm', help: 'H' });
    const t = await open(s);
    t.send('H');
    await t.waitForText('Keys — Inbox');
    expect(t.screenText()).toMatch(/║ m +text the selected lead's contact/);
    t.send('\u001B');
    await t.waitFor(() => !t.screenText().includes('Keys — Inbox'), 'the help to close');
    t.send('m');
    await t.waitForText(/To .+ characters/);
  });

  it('refused in plain words, before the screen changes, with exit status 1', async () => {
    const s = await startSim();
    await configKeys({ compose: 'j', complose: 'x' });
    const t = spawnInTerminal(process.execPath, [cliPath], { cols: 100, rows: 30, env: env(s) });
    terminals.push(t);
    expect(await t.exited).toMatchObject({ exitCode: 1 });
    const text = t.unwrappedText();
    expect(text).toContain('the keys in the config file cannot be used');
    expect(text).toContain('"complose" is not a command');
    expect(text).toMatch(/"j" is both/);
    expect(t.output()).not.toContain('\u001B[?1049h');
  });
});
