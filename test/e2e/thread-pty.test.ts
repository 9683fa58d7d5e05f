/**
 * The built CLI in a real 80×24 pseudo-terminal: a lead highlighted in the
 * Inbox while new leads arrive above it is the lead the Thread tab shows and
 * names (not the thread opened before), and `c` there texts exactly that
 * contact: the question names them with their number, and the simulator
 * receives one text, to them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import type { Inbox } from '../../src/contract/resources.js';
import { startSim } from '../support/sim.js';
import { simConsent } from '../support/write-flows.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { KEYS, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-thread-pty-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-thread-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

it('80×24: highlight a lead, leads arrive, tab: the thread names that lead; c, enter, y texts exactly that contact', async () => {
  const s = await startSim();
  const shop = s.sim.shops.main;
  const inbox = (await s.client().getInbox({ filter: 'open', limit: 100 })) as Inbox;
  // A lead a few rows down, with a plain name (its row shows it whole) and consent given (a y/n question).
  const index = inbox.open_leads.findIndex(
    (lead, at) =>
      at >= 3 &&
      /^[A-Za-z .'-]{1,15}$/.test(lead.contact_name) &&
      simConsent(s.sim, lead.caller_phone) === true,
  );
  const lead = inbox.open_leads[index];
  const contactId = shop.leads.find((each) => each.id === lead?.id)?.contactId;
  if (!lead || !contactId) throw new Error('no lead fits');
  const named = `${lead.contact_name} (${lead.caller_phone})`;

  const env = terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write });
  const t = spawnInTerminal(process.execPath, [bundle.cliPath], { cols: 80, rows: 24, env });
  terminals.push(t);
  const count = inbox.open_leads.length;
  await t.waitForText(`Inbox — open leads (${count})`, 15_000);

  // A thread opened first (the first lead's), then back to the inbox.
  t.send(KEYS.enter);
  await t.waitForText(`Thread — ${inbox.open_leads[0]?.contact_name}`);
  t.send(KEYS.escape);
  await t.waitForText(/│ Inbox — open leads/);
  t.send('j'.repeat(index));
  const highlighted = () => [...t.inverseText().entries()].find(([row]) => row > 2)?.[1] ?? '';
  await t.waitFor(() => highlighted().startsWith(lead.contact_name), 'the lead highlighted');

  // Two missed calls arrive above it; r reads the inbox again: the highlight stays on the lead.
  s.sim.inject('missed_call');
  s.sim.inject('missed_call');
  t.send('r');
  await t.waitForText(`Inbox — open leads (${count + 2})`);
  expect(highlighted().startsWith(lead.contact_name)).toBe(true);

  t.send(KEYS.tab);
  await t.waitForText(`│ Thread — ${named}`);
  t.send('c');
  await t.waitForText(`To ${named}`);
  // Until the lead is read the composer only keeps the text (enter says so): wait for its consent record.
  await t.waitForText('consent given');
  t.send('Be there at 3');
  await t.waitForText('Be there at 3');
  t.send(KEYS.enter);
  await t.waitForText(`Send to ${named}? y/n`);
  t.send('y');
  await t.waitForText(`Sent to ${named}.`);

  const posts = s.sim.requests
    .list()
    .filter((request) => request.method === 'POST' && !request.path.includes(PROBE_ID_PREFIX));
  expect(posts.map((request) => [request.path, request.status])).toEqual([
    [`/v1/contacts/${contactId}/messages`, 200],
  ]);
  const sent = shop.leads
    .filter((each) => each.contactId === contactId)
    .flatMap((each) => each.messages)
    .filter((message) => message.direction === 'outbound' && message.body === 'Be there at 3');
  expect(sent).toHaveLength(1);

  t.send('q');
  expect(await t.exited).toMatchObject({ exitCode: 0 });
});
