/**
 * `send` and `approve` typed at a terminal, in a real pseudo-terminal with the
 * built CLI: they show what they will do and ask, as the composer asks (y, or
 * the word to type), read the thread again after the answer and ask again when
 * a text arrived meanwhile; no is no.
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
  bundle = await copyBuiltCli('shop-inbox-verbs-pty-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-verbs-pty-home-'));
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

describe('send and approve at a terminal', () => {
  it('send: asks for the word the composer asks, then again for a text that arrived meanwhile', async () => {
    const { t, contact, lead, sent } = await customerWithoutConsent();
    const terminal = run(t, ['send', contact.id, '--body', 'On our way']);
    await terminal.waitForText('No consent on record for this number');
    await terminal.waitForText('Type send (then enter) to send to Nora Quillfeather (+15035550142) anyway');
    t.sim.receiveText(lead.id, 'Actually, can you come tomorrow?');
    terminal.send('send\r');
    await terminal.waitForText('A text arrived meanwhile:');
    await terminal.waitForText(/The customer wrote since you started .*"Actually, can you come tomorrow\?"/);
    await terminal.waitForText('Send to Nora Quillfeather (+15035550142)? [y/N]');
    expect(sent('On our way')).toBe(0);
    terminal.send('y\r');
    await terminal.waitForText('Sent to Nora Quillfeather (+15035550142).');
    expect((await terminal.exited).exitCode).toBe(0);
    expect(sent('On our way')).toBe(1);
  });

  it('send: anything but the word is no: nothing sent, exit 3', async () => {
    const { t, contact, sent } = await customerWithoutConsent();
    const terminal = run(t, ['send', contact.id, '--body', 'On our way']);
    await terminal.waitForText('Type send (then enter)');
    terminal.send('y\r');
    await terminal.waitForText('not sent to Nora Quillfeather (+15035550142)');
    expect((await terminal.exited).exitCode).toBe(3);
    expect(sent('On our way')).toBe(0);
  });

  it('approve: shows the action and asks y/N; y approves', async () => {
    const t = await startSim({ now: clock.now });
    const action = t.sim.shops.main.actions.find((a) => a.status === 'pending_approval');
    if (!action) throw new Error('no pending action in the seed');
    const terminal = run(t, ['approve', action.id]);
    await terminal.waitForText(`Action ${action.id} · ${action.kind} · pending_approval`);
    await terminal.waitForText(`Approve ${action.kind} ${action.id}? [y/N]`);
    expect(action.status).toBe('pending_approval');
    terminal.send('y\r');
    await terminal.waitForText('is now published');
    expect((await terminal.exited).exitCode).toBe(0);
    expect(action.status).toBe('published');
  });
});
