/**
 * The hub's own terminal stops reading what it draws, as a frozen SSH session
 * does (here: the test stops reading the pty's master side). Node writes to a
 * terminal synchronously: a write the terminal does not take would stop the
 * whole process, and with it every terminal the hub serves. The hub must
 * keep polling and serving its client, queue no more than a frame for its
 * own screen, and once its terminal reads again show a whole, correct screen.
 * Told to quit meanwhile, it gives the terminal back if the terminal reads
 * again soon, and ends within seconds if it does not.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { COMPOSER_READY, isRunning, KEYS, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';
import {
  brokenBoxRows,
  mismatchedListRows,
  newestLeadPhone,
  untilQuiet,
  withoutAges,
} from './screen-checks.js';

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-stall-pty-');
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-stall-home-'));
});
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill();
});
afterAll(async () => {
  await bundle.remove();
  await rm(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CTRL_L = '\u000C';

/**
 * Preloaded into the CLI: on SIGUSR2, an error nothing catches (as in inbox-pty.test.ts), whose report
 * then goes to a terminal that does not read.
 */
const CRASH_ON_SIGUSR2 = `data:text/javascript,process.on('SIGUSR2', () => setImmediate(() => { throw new Error('boom'); }));`;

/** What the shell the inbox runs in writes once the inbox has ended (a window title, drawn as nothing). */
const INBOX_ENDED = '\u001B]2;inbox ended\u0007';

/**
 * The inbox alone, on a simulator of its own, with more drawn than its pty holds once it stops reading.
 * `inShell`: run in a shell that stays once the inbox has ended, until told (a line), as a login shell
 * does: Linux may drop what the inbox wrote last when the pty's last slave closes before this process
 * has read it all (a busy machine), so the screen after the inbox is read before the shell ends.
 */
async function stalledInbox(
  nodeArgs: string[] = [],
  { inShell = false } = {},
): Promise<{ terminal: PtyTerminal; inboxPid: number }> {
  const test = await startSim();
  const inbox = [...nodeArgs, bundle.cliPath];
  const terminal = inShell
    ? spawnInTerminal(
        '/bin/sh',
        [
          '-c',
          `"$0" "$@"; code=$?; printf '\\033]2;inbox ended\\007'; read line; exit $code`,
          process.execPath,
          ...inbox,
        ],
        terminalOptions(test),
      )
    : spawnInTerminal(process.execPath, inbox, terminalOptions(test));
  terminals.push(terminal);
  await terminal.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  const inboxPid = inShell ? childOf(terminal.pid) : terminal.pid;
  await untilQuiet(terminal);
  terminal.pty.pause();
  for (let i = 0; i < 20; i += 1) {
    terminal.send(CTRL_L);
    await sleep(30);
  }
  return { terminal, inboxPid };
}

function terminalOptions(test: Awaited<ReturnType<typeof startSim>>) {
  return {
    cols: 120,
    rows: 40,
    env: terminalEnv(home, { SHOP_API_KEY: test.sim.tokens.write, SHOP_API_BASE_URL: test.baseUrl }),
  };
}

/** The one child of a process (the shell's inbox). */
function childOf(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  if (children.length !== 1 || !children[0])
    throw new Error(`expected one child of ${pid}, found "${children.join(' ')}"`);
  return Number(children[0]);
}

it('a hub whose terminal stops reading keeps serving its client, and its screen is whole once read again', async () => {
  const test = await startSim();
  const env = terminalEnv(home, {
    SHOP_API_KEY: test.sim.tokens.write,
    SHOP_API_BASE_URL: test.baseUrl,
    XDG_RUNTIME_DIR: join(home, 'run'),
  });
  const open = () => {
    // All of the key's requests: R reads everything at once.
    const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, '--max-rpm', '120'], {
      cols: 120,
      rows: 40,
      env,
      // Emoji two columns wide, as every current terminal draws them and Ink counts them.
      unicode11: true,
    });
    terminals.push(terminal);
    return terminal;
  };
  const hub = open();
  await hub.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  const client = open();
  await client.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  await hub.waitForText('also open in 1 other terminal');
  await client.waitForText('also open in 1 other terminal');
  await untilQuiet(hub);

  // The hub's terminal stops reading. Keys still reach the hub: each redraws its screen (ctrl-l all of
  // it), far more than the pty holds (16 KiB here).
  hub.pty.pause();
  const writtenBeforeStall = hub.output().length;
  for (let i = 0; i < 60; i += 1) {
    hub.send(i % 2 === 0 ? KEYS.tab : CTRL_L);
    await sleep(30);
  }

  // The hub still reads the shop for its client: a new missed call shows there within a few poll cycles.
  test.sim.inject('missed_call');
  const phone = newestLeadPhone(test.sim.shops.main);
  await client.waitForText(phone, 35_000);
  expect(client.screenText()).toContain('also open in 1 other terminal');

  // And carries the client's text to the shop.
  client.send('c');
  await client.waitForText(/To /i);
  await client.waitForText(COMPOSER_READY);
  client.send('Be there at 4');
  client.send(KEYS.enter);
  await client.waitForText(/Send to .*\? (y\/n|Type send)/);
  if (/Send to .*\? Type send/.test(client.screenText())) {
    client.send('send');
    client.send(KEYS.enter);
  } else {
    client.send('y');
  }
  await client.waitFor(
    () => test.sim.shops.main.leads.some((lead) => lead.messages.some((m) => m.body === 'Be there at 4')),
    'the text to reach the shop',
    15_000,
  );

  // The terminal reads again. What waited for it is what the pty held and a frame or two: not a frame
  // for each of the 60 keys (~10 KB each).
  hub.pty.resume();
  await hub.waitForText(phone, 15_000);
  await untilQuiet(hub);
  expect(hub.output().length - writtenBeforeStall).toBeLessThan(100_000);
  // Everything the text changed (the thread, the callbacks) read now, so that nothing moves under the
  // comparison below.
  hub.send('R');
  await hub.waitForText('Be there at 4');
  await untilQuiet(hub, 1_000);
  const shown = hub.lines();
  expect(brokenBoxRows(hub.term), shown.join('\n')).toEqual([]);
  expect(mismatchedListRows(shown, test.sim.shops.main.contacts), shown.join('\n')).toEqual([]);
  expect(shown.join('\n')).toContain(phone);
  // The same screen as one drawn from scratch.
  hub.send(CTRL_L);
  await untilQuiet(hub);
  expect(withoutAges(shown)).toBe(withoutAges(hub.lines()));
}, 120_000);

it('told to quit while its terminal does not read, it gives the terminal back once it reads again', async () => {
  const { terminal: t, inboxPid } = await stalledInbox([], { inShell: true });
  process.kill(inboxPid, 'SIGTERM');
  await sleep(300);
  t.pty.resume();
  await t.waitFor(() => t.output().includes(INBOX_ENDED), 'the inbox to end');
  t.send(KEYS.enter);
  expect(await t.exited).toMatchObject({ exitCode: 143 });
  expect(t.isAlternateScreen()).toBe(false);
  expect(t.isCursorHidden()).toBe(false);
  expect(t.isBracketedPaste()).toBe(false);
}, 60_000);

it.each([
  ['told to quit', 'SIGTERM', []],
  ['crashing', 'SIGUSR2', [`--import=${CRASH_ON_SIGUSR2}`]],
])(
  '%s while its terminal never reads again, it ends within seconds all the same',
  async (_what, signal, nodeArgs) => {
    const { terminal: t } = await stalledInbox(nodeArgs);
    process.kill(t.pid, signal);
    const deadline = Date.now() + 6_000;
    while (isRunning(t.pid)) {
      if (Date.now() > deadline)
        throw new Error(`still running 6 s after ${signal}, waiting on a terminal that does not read`);
      await sleep(100);
    }
  },
  60_000,
);
