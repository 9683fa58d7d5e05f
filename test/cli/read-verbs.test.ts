/**
 * The verbs that only read, from the built CLI against the simulator: human
 * text and --json (checked against the schemas scripts rely on), what the
 * inbox adds (the sender of an inbound text, how long a customer waits), what
 * each costs in requests, exit codes, and hostile strings from the service.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ActionsOutput,
  CliError,
  ContactsOutput,
  InboxOutput,
  ReviewsOutput,
  StatusOutput,
  ThreadOutput,
} from '../../src/contract/cli-output.js';
import type { SimContact, SimLead } from '../../src/sim/world.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { INJECTION_PAYLOADS, startHostileServer } from '../support/hostile-server.js';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';
import { closedPort, startSim, type TestSim } from '../support/sim.js';

let home: CliHome;
beforeEach(async () => {
  home = await cliHome('shop-inbox-read-');
});
afterEach(async () => {
  await home.remove();
});

const clock = seedCustomersAfternoon();
const MINUTE = 60_000;

/** A shop at the test's clock with a customer who called 20 minutes ago and texted 5 minutes ago. */
async function shopWithWaitingCustomer() {
  let now = clock.at - 20 * MINUTE;
  const t = await startSim({ now: () => now });
  t.sim.missedCallFrom({ name: 'Nora Quillfeather', phone: '+15035550142' });
  const shop = t.sim.shops.main;
  const contact = shop.contacts.find((c) => c.phone === '+15035550142') as SimContact;
  const lead = shop.leads.find((l) => l.contactId === contact.id) as SimLead;
  now = clock.at - 5 * MINUTE;
  t.sim.receiveText(lead.id, 'Is anyone coming today?');
  now = clock.at;
  return { t, contact, lead };
}

const envOf = (t: TestSim, extra: Record<string, string> = {}) =>
  home.env({
    SHOP_API_BASE_URL: t.baseUrl,
    SHOP_API_KEY: t.sim.tokens.read,
    SHOP_INBOX_NOW: new Date(clock.at).toISOString(),
    ...extra,
  });

describe('shop-inbox inbox', () => {
  it('--json: the leads and inbound texts, the sender and the wait from the threads read', async () => {
    const { t, contact, lead } = await shopWithWaitingCustomer();
    const result = await runCli(['inbox', '--json', '--threads', '3'], envOf(t));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const output = InboxOutput.parse(JSON.parse(result.stdout));
    expect(output.threads_read).toBe(3);
    expect(output.leads[0]).toMatchObject({
      id: lead.id,
      contact_name: 'Nora Quillfeather',
      thread_read: true,
      waiting: { why: 'inbound_text', seconds: 300, since: new Date(clock.at - 5 * MINUTE).toISOString() },
    });
    expect(output.leads.filter((row) => row.thread_read)).toHaveLength(3);
    expect(output.leads.at(-1)).toMatchObject({ thread_read: false, waiting: null });
    expect(output.latest_inbound[0]).toEqual({
      occurred_at: new Date(clock.at - 5 * MINUTE).toISOString(),
      body_preview: 'Is anyone coming today?',
      sender: { lead_id: lead.id, contact_id: contact.id, name: 'Nora Quillfeather', phone: '+15035550142' },
    });
    // The list, then one read per thread: reads only.
    const requests = await t.requests();
    expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['GET /v1/inbox', ...output.leads.slice(0, 3).map((row) => `GET /v1/leads/${row.id}`)].sort(),
    );
  });

  it('--filter callbacks: each missed call waits since the call; human text with ages', async () => {
    const { t, lead } = await shopWithWaitingCustomer();
    const json = InboxOutput.parse(
      JSON.parse(
        (await runCli(['inbox', '--filter', 'callbacks', '--json', '--threads', '0'], envOf(t))).stdout,
      ),
    );
    expect(json.filter).toBe('callbacks');
    expect(json.leads[0]).toMatchObject({ id: lead.id, waiting: { why: 'missed_call', seconds: 1200 } });
    expect(json.latest_inbound.every((preview) => preview.sender === null)).toBe(true);
    const human = await runCli(['inbox', '--filter', 'callbacks', '--threads', '1'], envOf(t));
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/^Missed calls with no reply \(\d+\)\n/);
    expect(human.stdout).toMatch(
      new RegExp(`${lead.id} +new +SAME DAY +Nora Quillfeather +\\+15035550142 +.* 20m +20m\\n`),
    );
    expect(human.stdout).toMatch(/\n5m +Nora Quillfeather \(\+15035550142\) +Is anyone coming today\?\n/);
  });

  it('a wrong option is a usage error: exit 2, nothing on stdout, nothing asked of the shop', async () => {
    const { t } = await shopWithWaitingCustomer();
    for (const args of [
      ['inbox', '--filter', 'closed', '--json'],
      ['inbox', '--limit', '0'],
      ['inbox', '--threads', '26'],
      ['actions', '--status', 'done'],
      ['thread'],
      ['contacts', 'a', 'b'],
      ['reviews', '--no-such-option'],
    ]) {
      const result = await runCli(args, envOf(t));
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^shop-inbox: /);
    }
    expect(await t.requests()).toEqual([]);
  });
});

describe('shop-inbox thread, contacts, reviews, actions, status', () => {
  it('thread --json: the lead whole, its consent, an opt-out and the wait', async () => {
    const { t, lead } = await shopWithWaitingCustomer();
    t.sim.receiveText(lead.id, 'STOP');
    const result = await runCli(['thread', lead.id, '--json'], envOf(t));
    expect(result.status).toBe(0);
    const output = ThreadOutput.parse(JSON.parse(result.stdout));
    expect(output.lead.id).toBe(lead.id);
    expect(output.consent_status).toBe('no consent record');
    expect(output.opted_out).toMatchObject({ body: 'STOP', message_id: lead.messages.at(-1)?.id });
    expect(output.waiting).toMatchObject({ why: 'inbound_text', seconds: 0 });
    const human = await runCli(['thread', lead.id], envOf(t));
    expect(human.stdout).toMatch(/^Thread — Nora Quillfeather \(\+15035550142\)\n/);
    expect(human.stdout).toContain('OPTED OUT: "STOP"');
    expect(human.stdout).toMatch(
      /◀ customer · \d{4}-\d\d-\d\d \d\d:\d\d · msg_\w+\n {2}Is anyone coming today\?\n/,
    );
    const missing = await runCli(['thread', 'lead_nope', '--json'], envOf(t));
    expect(missing.status).toBe(1);
    expect(CliError.parse(JSON.parse(missing.stdout)).error).toMatchObject({
      code: 'not_found',
      exit_code: 1,
    });
  });

  it('contacts QUERY, reviews --unreplied, actions --status: the shop’s lists, whole', async () => {
    const { t } = await shopWithWaitingCustomer();
    const contacts = ContactsOutput.parse(
      JSON.parse((await runCli(['contacts', 'quillfeather', '--json'], envOf(t))).stdout),
    );
    expect(contacts).toMatchObject({ query: 'quillfeather', complete: true });
    expect(contacts.items.map((c) => c.phone)).toEqual(['+15035550142']);
    const reviews = ReviewsOutput.parse(
      JSON.parse((await runCli(['reviews', '--unreplied', '--json'], envOf(t))).stdout),
    );
    expect(reviews.items.length).toBeGreaterThan(0);
    expect(reviews.items.every((review) => review.replied_at === null)).toBe(true);
    const actions = ActionsOutput.parse(
      JSON.parse(
        (await runCli(['actions', '--status', 'published', '--json', '--limit', '2'], envOf(t))).stdout,
      ),
    );
    expect(actions.status).toBe('published');
    expect(actions.items.every((action) => action.status === 'published')).toBe(true);
    const human = await runCli(['actions', '--status', 'pending_approval'], envOf(t));
    expect(human.stdout).toMatch(/^Actions pending approval \(\d+\)\nACTION +KIND +STATUS +AGE +DETAIL\n/);
  });

  it('status --json: the shop, the key’s mode and the outbox', async () => {
    const { t } = await shopWithWaitingCustomer();
    const result = await runCli(['status', '--json'], envOf(t));
    expect(result.status).toBe(0);
    const output = StatusOutput.parse(JSON.parse(result.stdout));
    expect(output).toMatchObject({
      base_url: t.baseUrl,
      key_source: 'env',
      key_mode: { mode: 'read', why: null, source: 'shop' },
      outbox: { waiting: 0, damage: null },
    });
    expect(output.me.identity.business_name).toBe(t.sim.shops.main.identity.businessName);
    expect(result.stdout).not.toContain(t.sim.tokens.read);
  });
});

describe('exit codes', () => {
  it('401 and no plan are 4, a spent rate limit 5, no shop 1, missing settings 1: each with its error document', async () => {
    const { t } = await shopWithWaitingCustomer();
    const refused = await runCli(['contacts', '--json'], envOf(t, { SHOP_API_KEY: 'shk_rotated' }));
    expect(refused.status).toBe(4);
    expect(CliError.parse(JSON.parse(refused.stdout)).error).toMatchObject({
      code: 'unauthorized',
      exit_code: 4,
    });
    expect(refused.stderr).toMatch(/refused the key/);
    const noPlan = await runCli(['reviews'], envOf(t, { SHOP_API_KEY: t.sim.tokens.no_subscription }));
    expect(noPlan.status).toBe(4);

    t.sim.faults.rateLimitBurst(10, 3600);
    const limited = await runCli(['actions', '--json'], envOf(t));
    expect(limited.status).toBe(5);
    expect(CliError.parse(JSON.parse(limited.stdout)).error).toMatchObject({
      code: 'rate_limited',
      exit_code: 5,
      retry_after: 3600,
    });
    t.sim.faults.clear();

    const port = await closedPort();
    const down = await runCli(
      ['inbox', '--json'],
      envOf(t, { SHOP_API_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    );
    expect(down.status).toBe(1);
    expect(CliError.parse(JSON.parse(down.stdout)).error.code).toBe('network');
    const unset = await runCli(['inbox', '--json'], home.env());
    expect(unset.status).toBe(1);
    expect(CliError.parse(JSON.parse(unset.stdout)).error.code).toBe('settings');
  });
});

describe('hostile strings from the service', () => {
  // The raw characters that prove a payload got through (a title's words shown as text are harmless).
  const controls = INJECTION_PAYLOADS.map((payload) => payload.evidence).filter(
    (evidence): evidence is string =>
      evidence !== undefined &&
      /[\p{Cc}\u200e\u200f\u061c\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(evidence),
  );

  for (const args of [['inbox'], ['thread', 'lead_0'], ['contacts'], ['reviews'], ['actions'], ['status']]) {
    it(`${args[0]}: defanged in human text, the same data in --json, no character a terminal acts on`, async () => {
      const t = await startSim();
      const hostile = await startHostileServer({ behaviour: { kind: 'injection', validTimestamps: true } });
      try {
        const env = home.env({ SHOP_API_BASE_URL: hostile.baseUrl, SHOP_API_KEY: t.sim.tokens.read });
        const human = await runCli(
          [...args, '--threads', '2'].slice(0, args[0] === 'inbox' ? 3 : args.length),
          env,
        );
        expect(human.status, human.stderr).toBe(0);
        for (const evidence of controls) {
          expect(human.stdout, evidence).not.toContain(evidence);
          expect(human.stderr, evidence).not.toContain(evidence);
        }
        const json = await runCli([...args, '--json'], env);
        expect(json.status).toBe(0);
        expect(json.stdout).not.toMatch(
          /(?!\n)[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u,
        );
        // The payloads are there, as data.
        expect(JSON.stringify(JSON.parse(json.stdout))).toContain(
          JSON.stringify(INJECTION_PAYLOADS[0]?.text).slice(1, -1),
        );
      } finally {
        await hostile.close();
      }
    });
  }
});
