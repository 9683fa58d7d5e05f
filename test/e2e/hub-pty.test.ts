/**
 * Two built inboxes of one user on one key, each in its own pseudo-terminal,
 * one started with XDG_RUNTIME_DIR and one without (as an SSH login and a
 * `su` session would be): the second is a client of the first (the hub), each says it is also open
 * in another terminal, and while one composes to a contact the other shows
 * "being replied to in another terminal" on that lead and asks again before
 * sending to it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { hubSocketPath } from '../../src/hub/hub-paths.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, removeHubSockets, terminalEnv } from './built-cli.js';
import { COMPOSER_READY, KEYS, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-hub-pty-');
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-hub-home-'));
});
/** Sockets of the built inboxes in the real /tmp/shop-inbox-UID: killed, they leave them; removed here. */
const sockets: string[] = [];
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await removeHubSockets(sockets);
});
afterAll(async () => {
  await bundle.remove();
  await rm(home, { recursive: true, force: true });
});

it('two terminals share one hub: presence, and a second question before writing to a contact another terminal writes to', async () => {
  const test = await startSim();
  sockets.push(hubSocketPath({}, test.baseUrl, test.sim.tokens.write));
  const env = terminalEnv(home, { SHOP_API_KEY: test.sim.tokens.write, SHOP_API_BASE_URL: test.baseUrl });
  const open = (extra: NodeJS.ProcessEnv = {}) => {
    const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
      cols: 120,
      rows: 40,
      env: { ...env, ...extra },
    });
    terminals.push(terminal);
    return terminal;
  };
  const a = open({ XDG_RUNTIME_DIR: join(home, 'run') });
  await a.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  const b = open();
  await b.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  await a.waitForText('also open in 1 other terminal');
  await b.waitForText('also open in 1 other terminal');
  // Both show the first lead's thread beside the inbox. A starts writing to its contact.
  await a.waitForText(/│ Thread — /);
  a.send('c');
  await a.waitForText(/To /i);
  a.send('On my way');
  await b.waitForText('being replied to in another terminal');
  // And on the lead's row in B's inbox.
  await b.waitForText('✎ typing');
  // B writes to the same contact: after its y, it is asked again.
  b.send('c');
  await b.waitForText(COMPOSER_READY);
  b.send('Coming at 3');
  b.send(KEYS.enter);
  // The seed's first lead may have no consent given: then the question wants "send" typed, not y.
  await b.waitForText(/Send to .*\? (y\/n|Type send)/);
  if (/Send to .*\? Type send/.test(b.screenText())) {
    b.send('send');
    b.send(KEYS.enter);
  } else {
    b.send('y');
  }
  await b.waitForText('Being replied to in another terminal: send to');
  // A closes its composer: the mark goes away in B once it says no.
  b.send('n');
  a.send(KEYS.escape);
  await b.waitFor(
    () => !b.screenText().includes('being replied to in another terminal'),
    'the mark to go',
    10_000,
  );
  // One process read the shop: the requests at the simulator are those of one inbox, not two.
  expect(test.sim.requests.list().filter((r) => r.path.endsWith('/inbox')).length).toBeLessThanOrEqual(4);

  // kill -9 of the hub: B keeps its data on screen, takes over, and reads the shop itself.
  const inboxReads = () => test.sim.requests.list().filter((r) => r.path.endsWith('/inbox')).length;
  const readsBefore = inboxReads();
  process.kill(a.pid, 'SIGKILL');
  await b.waitFor(() => !b.screenText().includes('also open in'), 'B to be alone', 10_000);
  expect(b.screenText()).toMatch(/Inbox — open leads \(\d+\)/);
  await b.waitFor(() => inboxReads() > readsBefore, 'B to read the inbox itself', 5_000);
}, 60_000);

it('a hub stopped with SIGSTOP: the other says so and reads the shop itself, then takes over; continued, the stopped one joins it', async () => {
  const test = await startSim();
  sockets.push(hubSocketPath({}, test.baseUrl, test.sim.tokens.write));
  const env = terminalEnv(home, { SHOP_API_KEY: test.sim.tokens.write, SHOP_API_BASE_URL: test.baseUrl });
  const open = () => {
    const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], { cols: 120, rows: 40, env });
    terminals.push(terminal);
    return terminal;
  };
  const a = open();
  await a.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  const b = open();
  await b.waitForText('also open in 1 other terminal', 15_000);
  const inboxReads = () => test.sim.requests.list().filter((r) => r.path.endsWith('/inbox')).length;
  process.kill(a.pid, 'SIGSTOP');
  try {
    // After 4 s without a beat.
    await b.waitForText('The hub terminal is not answering: reading the shop on our own', 10_000);
    const before = inboxReads();
    await b.waitFor(() => inboxReads() > before, 'B to read the inbox itself', 15_000);
    // After 12 s B is the hub: the terminal it knew of is gone from its header.
    await b.waitFor(() => !b.screenText().includes('also open in'), 'B to take over', 15_000);
    expect(b.screenText()).toMatch(/Inbox — open leads \(\d+\)/);
  } finally {
    process.kill(a.pid, 'SIGCONT');
  }
  await a.waitForText('another took over reading the shop', 10_000);
  await b.waitForText('also open in 1 other terminal', 10_000);
}, 60_000);
