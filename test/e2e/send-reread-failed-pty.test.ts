/**
 * `send` typed at a terminal, in a real pseudo-terminal with the built CLI,
 * when the thread cannot be read again after the answer: nothing is sent; it
 * says why and asks whether to send without that check, as the composer does
 * (the decision is the composer's, user-actions/send-decision.ts). y sends
 * once; anything else sends nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimContact, SimLead } from '../../src/sim/world.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-send-reread-pty-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-send-reread-pty-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

const clock = seedCustomersAfternoon();

function run(t: TestSim, args: string[]): PtyTerminal {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, ...args], {
    cols: 160,
    rows: 30,
    env: terminalEnv(home, {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.write,
      SHOP_INBOX_NOW: String(clock.at),
    }),
  });
  terminals.push(terminal);
  return terminal;
}

/** From now on, every read of this lead meets a 503 (the client's retries included). */
function failReadsOf(t: TestSim, leadId: string): void {
  const draw = t.sim.faults.draw.bind(t.sim.faults);
  t.sim.faults.draw = () => {
    const current = t.sim.requests.list().at(-1);
    if (current?.method === 'GET' && current.path === `/v1/leads/${leadId}`)
      return { kind: 'status', status: 503 };
    return draw();
  };
}

/** Texts sent: POSTs to a contact's messages (the key-mode probe is a POST too). */
const posts = (t: TestSim) =>
  t.sim.requests
    .list()
    .filter((request) => request.method === 'POST' && /^\/v1\/contacts\/[^/]+\/messages$/.test(request.path));

async function customerWithoutConsent() {
  const t = await startSim({ now: clock.now });
  t.sim.missedCallFrom({ name: 'Nora Quillfeather', phone: '+15035550142' });
  const shop = t.sim.shops.main;
  const contact = shop.contacts.find((c) => c.phone === '+15035550142') as SimContact;
  const lead = shop.leads.find((l) => l.contactId === contact.id) as SimLead;
  const sent = (body: string) =>
    lead.messages.filter((m) => m.direction === 'outbound' && m.body === body).length;
  return { t, contact, lead, sent };
}

describe('send at a terminal, the thread not read again', () => {
  it('says why and asks again; no POST before that y, exactly one after', async () => {
    const { t, contact, lead, sent } = await customerWithoutConsent();
    const terminal = run(t, ['send', contact.id, '--body', 'On our way']);
    await terminal.waitForText('Type send (then enter) to send to Nora Quillfeather (+15035550142) anyway');
    failReadsOf(t, lead.id);
    terminal.send('send\r');
    await terminal.waitForText(
      "Could not read the thread again to check for new texts: the shop's API had a problem (HTTP 503). Nothing was sent.",
    );
    await terminal.waitForText('Send to Nora Quillfeather (+15035550142) without that check? [y/N]');
    expect(posts(t)).toEqual([]);
    terminal.send('y\r');
    await terminal.waitForText('Sent to Nora Quillfeather (+15035550142).');
    expect((await terminal.exited).exitCode).toBe(0);
    expect(posts(t)).toHaveLength(1);
    expect(sent('On our way')).toBe(1);
  });

  it('anything but y is no: nothing sent, exit 3', async () => {
    const { t, contact, lead, sent } = await customerWithoutConsent();
    const terminal = run(t, ['send', contact.id, '--body', 'On our way']);
    await terminal.waitForText('Type send (then enter)');
    failReadsOf(t, lead.id);
    terminal.send('send\r');
    await terminal.waitForText('without that check? [y/N]');
    terminal.send('\r');
    await terminal.waitForText('not sent to Nora Quillfeather (+15035550142)');
    expect((await terminal.exited).exitCode).toBe(3);
    expect(posts(t)).toEqual([]);
    expect(sent('On our way')).toBe(0);
  });
});
