/**
 * Read and done across two built inboxes of one user on one shop, each in
 * its own pseudo-terminal and sharing a hub: a new text is unread (●) in both;
 * done (e) in one takes it off the other's waiting list and reads it there
 * too; an inbox started later, alone, still knows (the state directory's
 * file).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { hubSocketPath } from '../../src/hub/hub-paths.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, removeHubSockets, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];
const sockets: string[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-read-done-pty-');
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-read-done-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await removeHubSockets(sockets);
});
afterAll(async () => {
  await bundle.remove();
  await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

it('done in one terminal is done in the other, and after a restart', async () => {
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

  // A text from the second newest lead's customer (its thread is among the first the inbox reads to match it;
  // the first lead's is beside the list, highlighted, so read and seen).
  const newest = (await test.client().getInbox({ filter: 'open', limit: 100 })).open_leads[1];
  if (!newest) throw new Error('no open lead');
  test.sim.receiveText(newest.id, 'Are you open on Saturday?');
  const waitingRows = (screen: string) => screen.split('\n').filter((line) => / waiting \d/.test(line));
  const waitingRowOf = (screen: string) =>
    waitingRows(screen).filter((line) => line.includes(newest.caller_phone));
  // The waiting list once every open conversation is read (its title no longer says how many are).
  const wholeWaitingList = (screen: string) =>
    screen.includes('Inbox — waiting for a reply') &&
    !screen.includes('conversations read') &&
    waitingRows(screen).length > 0;
  a.send('R');
  // Matched to its sender in both, and unread (●) in both.
  const unreadPreview = /● +\S+ .*\(\+\d+\): Are you open on Sa/;
  await a.waitForText(unreadPreview, 20_000);
  await b.waitForText(unreadPreview, 20_000);

  // B: the waiting list, once every open conversation is read: its newest waiter is the last row; e marks it done.
  b.send('w');
  await b.waitFor(() => wholeWaitingList(b.screenText()), 'the whole waiting list', 20_000);
  expect(waitingRowOf(b.screenText())).toHaveLength(1);
  b.send('G');
  b.send('e');
  await b.waitForText(/Done: .* is off the waiting list until they write again/);
  await b.waitFor(() => waitingRowOf(b.screenText()).length === 0, 'the row to leave the list');
  // A: no longer unread, and not on its waiting list.
  const readPreview = /^│ {3} *\S+ .*\(\+\d+\): Are you open on Sa/m;
  await a.waitForText(readPreview, 10_000);
  a.send('w');
  await a.waitFor(() => wholeWaitingList(a.screenText()), 'the whole waiting list', 20_000);
  expect(waitingRowOf(a.screenText())).toEqual([]);

  // Both quit; one started later, alone, remembers.
  a.send('q');
  b.send('q');
  await Promise.all([a.exited, b.exited]);
  const c = open();
  await c.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  await c.waitForText(readPreview, 20_000);
  c.send('w');
  // Checked on the list once it holds every waiting conversation, the others there.
  await c.waitFor(() => wholeWaitingList(c.screenText()), 'the whole waiting list', 20_000);
  expect(waitingRows(c.screenText()).length).toBeGreaterThan(0);
  expect(waitingRowOf(c.screenText())).toEqual([]);
}, 90_000);
