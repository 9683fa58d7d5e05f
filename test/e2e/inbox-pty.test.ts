/**
 * The built CLI in a real pseudo-terminal, read back through a headless
 * xterm: the full-screen inbox as staff see it, and the terminal they get
 * back on every way out (q, ctrl-c, SIGTERM, SIGHUP, SIGINT, a crash), and
 * the key kept off the screen.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { isRunning, KEYS, type PtyExit, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const BUSINESS = 'Rivera Plumbing & Heating';
const NODE = process.execPath;
/** Printed by the shell once it has reported on the CLI; the shell then waits for a line, so no output is lost. */
const DONE = '[shell: done]';
/**
 * After the CLI: its exit status and the terminal's settings, as a shell prompt would find them. The
 * shell stays until the test has read them (a pty can drop the last output of a process that exits).
 */
const THEN_REPORT = `echo "exit=$?"; stty -a; echo '${DONE}'; read -r _`;

let home: string;
let bundle: BuiltCli;
let cliPath: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-bundle-');
  cliPath = bundle.cliPath;
});
afterAll(async () => {
  await bundle.remove();
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

/** A clean environment: no key, no base URL, a config dir of its own (empty). */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return terminalEnv(home, extra);
}

function open(
  file: string,
  args: string[],
  size: { cols: number; rows: number },
  env: NodeJS.ProcessEnv = cleanEnv(),
) {
  const terminal = spawnInTerminal(file, args, { ...size, env });
  terminals.push(terminal);
  return terminal;
}

/** `node [NODE_ARGS] dist/cli.js ARGS` run by bash, which then reports as THEN_REPORT says. */
function openViaShell(
  cliArgs: string[],
  size: { cols: number; rows: number },
  env?: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
) {
  const quoted = [NODE, ...nodeArgs, cliPath, ...cliArgs]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  return open('bash', ['-c', `${quoted}; ${THEN_REPORT}`], size, env);
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const exitOf = (terminal: PtyTerminal, ms = 5_000): Promise<PtyExit> =>
  within(terminal.exited, ms, 'the process exit');

/**
 * Waits (bounded) for the CLI to exit with `status` and the shell to report, then lets the shell
 * end. Returns what `stty -a` printed: the line discipline once the CLI is gone.
 */
async function cliExit(terminal: PtyTerminal, status: number, ms = 5_000): Promise<{ stty: string }> {
  await terminal.waitFor(() => terminal.output().includes(DONE), 'the CLI to exit', ms);
  const output = terminal.output();
  const report = output.slice(output.lastIndexOf('exit='));
  expect(Number(/^exit=(\d+)/.exec(report)?.[1]), terminal.unwrappedText()).toBe(status);
  terminal.send('\n');
  expect(await exitOf(terminal)).toMatchObject({ exitCode: 0 });
  return { stty: report };
}

function expectCookedMode(stty: string) {
  expect(stty).toMatch(/(^|\s)icanon(\s|$)/);
  expect(stty).toMatch(/(^|\s)echo(\s|$)/);
  expect(stty).not.toMatch(/-icanon(\s|$)/);
  expect(stty).not.toMatch(/-echo(\s|$)/);
}

/** The terminal as the shell needs it: main screen, cursor shown, bracketed paste off. */
function expectTerminalRestored(terminal: PtyTerminal) {
  expect(terminal.isAlternateScreen()).toBe(false);
  expect(terminal.isCursorHidden()).toBe(false);
  expect(terminal.isBracketedPaste()).toBe(false);
  // The inbox was drawn on the alternate screen only: the shell's screen and scrollback are untouched.
  const buffer = terminal.term.buffer.normal;
  const everything = Array.from({ length: buffer.length }, (_, y) =>
    buffer.getLine(y)?.translateToString(true),
  ).join('\n');
  expect(everything).not.toContain('open leads');
}

/** The inbox is up: the shop's name on the alternate screen, raw input and bracketed paste on. */
async function waitForInbox(terminal: PtyTerminal, business = BUSINESS) {
  await terminal.waitForText(business, 15_000);
  await terminal.waitForText(/Inbox — open leads \(\d+\)/);
  expect(terminal.isAlternateScreen()).toBe(true);
  expect(terminal.isCursorHidden()).toBe(true);
  expect(terminal.isBracketedPaste()).toBe(true);
}

/** No row of the inbox was ever wider than the terminal (it would wrap and push the frame down). */
function expectWithinWidth(terminal: PtyTerminal) {
  expect(terminal.overflows(), terminal.screenText()).toEqual([]);
  expect(terminal.wrappedRows(), terminal.screenText()).toEqual([]);
  expect(terminal.lines()[0]).toContain(BUSINESS);
}

/** The CLI bash is running (its only child). */
function cliPid(terminal: PtyTerminal): number {
  const [pid] = execFileSync('pgrep', ['-P', String(terminal.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  expect(Number(pid)).toBeGreaterThan(0);
  return Number(pid);
}

/**
 * Preloaded into the CLI: on SIGUSR2, an error nothing catches, carrying the key in its message
 * (as an HTTP error printed whole would).
 */
const CRASH_ON_SIGUSR2 = `data:text/javascript,process.on('SIGUSR2', () => setImmediate(() => { throw new Error('boom with ' + process.env.SHOP_API_KEY); }));`;

/** Rows of the inbox list (a name, then a phone number). */
function leadRows(terminal: PtyTerminal): string[] {
  return terminal.lines().filter((line) => /^│ .+ \+\d{11} /.test(line));
}

describe('the inbox in a real terminal', () => {
  it('120×40: both panes side by side on the alternate screen; q gives the terminal back as it was', async () => {
    const t = openViaShell(['--demo'], { cols: 120, rows: 40 });
    await waitForInbox(t);
    // The inbox and the thread share a row: two pane frames side by side.
    await t.waitForText(/│ Inbox — open leads \(\d+\).*││ Thread/);
    expectWithinWidth(t);

    t.send('3');
    await t.waitForText(/│ Reviews \(/);
    expect(t.screenText()).not.toContain('Inbox — open leads');

    t.send('?');
    await t.waitForText('Keys — Reviews');
    await t.waitForText('draft to the selected review');
    t.send(KEYS.escape);
    await t.waitFor(() => !t.screenText().includes('Keys — Reviews'), 'the help to close');
    expect(t.screenText()).toMatch(/│ Reviews \(/);

    t.send('q');
    const { stty } = await cliExit(t, 0);
    expectCookedMode(stty);
    expectTerminalRestored(t);
  });

  it('80×24: a scrolled list marks the rows out of sight above and below, inside its box', async () => {
    const t = openViaShell(['--demo'], { cols: 80, rows: 24 });
    await waitForInbox(t);
    await t.waitFor(() => leadRows(t).length > 1, 'leads in the list');
    const bottomBorder = () => t.lines().findLastIndex((line) => line.startsWith('└'));
    const box = bottomBorder();
    await t.waitForText(/│ ▼ \d+ below +│/);
    const below = Number(/▼ (\d+) below/.exec(t.screenText())?.[1]);
    expect(t.screenText()).not.toMatch(/▲ \d+ above/);

    t.send('G');
    await t.waitForText(/│ ▲ \d+ above +│/);
    expect(t.screenText()).not.toMatch(/▼ \d+ below/);
    expect(Number(/▲ (\d+) above/.exec(t.screenText())?.[1])).toBe(below);
    expect(bottomBorder()).toBe(box);
    expectWithinWidth(t);

    t.send('k'.repeat(Math.ceil(leadRows(t).length / 2) + 1));
    await t.waitForText(/│ ▲ \d+ above +│[\s\S]*│ ▼ \d+ below +│/);
    expect(bottomBorder()).toBe(box);
    expectWithinWidth(t);
    t.send('q');
    const { stty } = await cliExit(t, 0);
    expectCookedMode(stty);
  });

  it('with CI=true in the shell (Ink would draw nothing until exit): the inbox still draws and quits cleanly', async () => {
    const t = openViaShell(
      ['--demo'],
      { cols: 100, rows: 30 },
      cleanEnv({ CI: 'true', CONTINUOUS_INTEGRATION: '1' }),
    );
    await waitForInbox(t);
    t.send('3');
    await t.waitForText(/│ Reviews \(/);
    t.send('q');
    const { stty } = await cliExit(t, 0);
    expectCookedMode(stty);
    expectTerminalRestored(t);
  });

  it('80×24: one pane at a time under the tabs; tab and j move, and nothing is wider than 80 columns', async () => {
    const t = openViaShell(['--demo'], { cols: 80, rows: 24 });
    await waitForInbox(t);
    expectWithinWidth(t);
    expect(t.screenText()).toMatch(/1 Inbox +2 Thread +3 Reviews +4 Actions +5 Contacts +6 Today/);
    // One pane frame across the width, not two side by side.
    expect(t.screenText()).not.toContain('││');
    expect(t.inverseText().get(2)).toBe('1 Inbox');

    t.send(KEYS.tab);
    // The thread of the lead the inbox highlights (its first), named with its phone.
    await t.waitForText(/│ Thread — .+ \(\+\d+\)/);
    expect(t.screenText()).not.toContain('Inbox — open leads');
    expect(t.inverseText().get(2)).toBe('2 Thread');
    expectWithinWidth(t);

    t.send(KEYS.tab);
    await t.waitForText(/│ Reviews \(/);
    expect(t.inverseText().get(2)).toBe('3 Reviews');
    expectWithinWidth(t);

    t.send(`${KEYS.shiftTab}${KEYS.shiftTab}`);
    await t.waitForText(/│ Inbox — open leads \(\d+\)/);
    await t.waitFor(() => leadRows(t).length > 1, 'leads in the list');
    const selectedRow = () => [...t.inverseText().keys()].find((row) => row > 2);
    const first = selectedRow();
    expect(first).toBeDefined();

    t.send('j');
    await t.waitFor(() => selectedRow() === (first ?? 0) + 1, 'the selection to move down one row');
    // The selected lead's name is the row's inverse text (cut with … when long).
    const name = t.inverseText().get((first ?? 0) + 1) ?? '';
    expect(name).not.toBe('');
    expectWithinWidth(t);

    t.send(KEYS.enter);
    await t.waitForText(`Thread — ${name.replace(/…$/, '')}`);
    expectWithinWidth(t);

    // ctrl-c arrives as a key in raw mode: it quits like q (nothing is unsent).
    t.send(KEYS.ctrlC);
    const { stty } = await cliExit(t, 0);
    expectCookedMode(stty);
    expectTerminalRestored(t);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const)('%s ends the inbox and gives the terminal back', async (signal, expected) => {
    const t = openViaShell(['--demo'], { cols: 100, rows: 30 });
    await waitForInbox(t);
    // bash runs the CLI as its child: signal that process alone, as `kill` or a hang-up would.
    process.kill(cliPid(t), signal);

    const { stty } = await cliExit(t, expected);
    expectCookedMode(stty);
    expectTerminalRestored(t);
  });

  it('an uncaught error: the terminal comes back, status 70, and the report leaves the key out', async () => {
    const s = await startSim();
    const key = s.sim.tokens.write;
    const t = openViaShell(
      ['--base-url', s.baseUrl],
      { cols: 120, rows: 40 },
      cleanEnv({ SHOP_API_KEY: key }),
      [`--import=${CRASH_ON_SIGUSR2}`],
    );
    await waitForInbox(t, s.sim.shops.main.identity.businessName);
    process.kill(cliPid(t), 'SIGUSR2');
    const { stty } = await cliExit(t, 70);
    expectCookedMode(stty);
    expectTerminalRestored(t);
    expect(t.unwrappedText()).toContain('shop-inbox crashed: Error: boom with [redacted]');
    expect(t.output()).not.toContain(key);
  });

  /**
   * The terminal closes under the inbox (the pty's master side, as sshd closes it when a connection
   * drops), not the process: it must end within seconds, quietly. Its stderr goes to a file, where
   * Node 20 used to print an assertion and a native stack (ResetStdio, nodejs/node#51519).
   */
  it.each([
    // The inbox leads the terminal's session (`ssh host shop-inbox`): SIGHUP, then EIO.
    [
      'leading the session',
      (cli: string, err: string, pidFile: string) => `echo $$ > ${pidFile}; exec ${cli} 2>${err}`,
    ],
    // The inbox is outside the terminal's session: no SIGHUP reaches it, only end of input and EIO.
    [
      'outside its session',
      (cli: string, err: string, pidFile: string) =>
        `(echo $BASHPID > ${pidFile}; exec setsid ${cli} 2>${err})`,
    ],
  ])(
    'a dropped session, %s: the process ends within seconds, with no assertion or stack',
    async (_case, script) => {
      const errFile = join(home, 'stderr.txt');
      const pidFile = join(home, 'pid');
      const cli = [NODE, cliPath, '--demo'].map((arg) => `'${arg}'`).join(' ');
      const t = open('bash', ['-c', script(cli, errFile, pidFile)], { cols: 100, rows: 30 });
      await waitForInbox(t);
      const pid = Number(await readFile(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(0);
      (t.pty as unknown as { destroy(): void }).destroy();
      const deadline = Date.now() + 5_000;
      while (isRunning(pid)) {
        if (Date.now() > deadline)
          throw new Error(`the CLI (pid ${pid}) is still running 5 s after a hang-up`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const stderr = await readFile(errFile, 'utf8');
      expect(stderr).not.toMatch(/Assertion|Native stack|node::|crashed|Error/i);
    },
  );
});

describe('a terminal that cannot show the inbox', () => {
  // node-pty sets TERM itself: the shell changes it for the CLI alone.
  it.each([
    ['TERM=dumb', 'env TERM=dumb', /TERM=dumb/],
    ['TERM unset', 'env -u TERM', /TERM is not set/],
  ])('%s: one line saying why, status 2, and no escape sequence', async (_case, prefix, reason) => {
    const t = open('bash', ['-c', `${prefix} '${NODE}' '${cliPath}' --demo; ${THEN_REPORT}`], {
      cols: 120,
      rows: 40,
    });
    await cliExit(t, 2);
    const output = t.output();
    const message = output.slice(0, output.indexOf('exit=2')).trim();
    expect(message).toMatch(/^shop-inbox: /);
    expect(message).toMatch(reason);
    expect(message).toMatch(/cursor/);
    expect(message.split('\n')).toHaveLength(1);
    expect(output).not.toContain('\u001B[');
    expect(t.isAlternateScreen()).toBe(false);
  });
});

describe('the key in a real terminal', () => {
  it('from SHOP_API_KEY: the inbox opens on that shop, says which program asks, and never writes the key to the terminal', async () => {
    const s = await startSim();
    const key = s.sim.tokens.write;
    const business = s.sim.shops.main.identity.businessName;
    const t = openViaShell(
      ['--base-url', s.baseUrl],
      { cols: 120, rows: 40 },
      cleanEnv({ SHOP_API_KEY: key }),
    );
    await waitForInbox(t, business);
    for (const keys of ['3', '4', '6', '?']) {
      t.send(keys);
      await t.settle();
    }
    await t.waitForText('Keys — Today');
    for (const fragment of [key, key.slice(0, 12), key.slice(-12)])
      expect(t.screenText()).not.toContain(fragment);
    // In the help, q only closes it: esc first, then q quits.
    t.send(KEYS.escape);
    await t.waitFor(() => !t.screenText().includes('Keys — Today'), 'the help to close');
    t.send('q');
    await cliExit(t, 0);
    expectTerminalRestored(t);
    // Nothing the app wrote, on either screen, at any time.
    for (const fragment of [key, key.slice(0, 12), key.slice(-12)])
      expect(t.output()).not.toContain(fragment);
    const requests = await s.requests();
    expect(requests.length).toBeGreaterThan(0);
    // Every request names the program and its version: the command line passes them to the session.
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(new Set(requests.map((request) => request.userAgent))).toEqual(new Set([`shop-inbox/${version}`]));
  });

  it.each([
    [['--api-key', 'shk_live_flag_secret'], '--api-key'],
    [['--api-key=shk_live_flag_secret'], '--api-key'],
    [['--token', 'shk_live_flag_secret', '--demo'], '--token'],
  ])('refuses a key on the command line (%j) with status 2 and says why', async (args, flag) => {
    const t = openViaShell(args, { cols: 120, rows: 40 });
    await cliExit(t, 2);
    const screen = t.unwrappedText();
    expect(screen).toContain(`${flag} is refused`);
    expect(screen).toMatch(/visible to every user/);
    expect(screen).toContain('SHOP_API_KEY');
    expect(t.output()).not.toContain('shk_live_flag_secret');
    expect(t.output()).not.toContain('\u001B[?1049h');
  });

  it('without a key and without --demo: explains the ways to give one and exits at once', async () => {
    const t = openViaShell([], { cols: 120, rows: 40 });
    // No input is sent until the shell reports: the CLI must not wait for any.
    const { stty } = await cliExit(t, 1);
    expectCookedMode(stty);
    const screen = t.unwrappedText();
    expect(screen).toContain('no API key');
    expect(screen).toContain('shop-inbox login');
    expect(screen).toContain('SHOP_API_KEY');
    expect(screen).toContain('--key-file');
    expect(screen).toContain('--demo');
    expect(t.output()).not.toContain('\u001B[?1049h');
    expect(t.isAlternateScreen()).toBe(false);
  });
});
