/**
 * `shop-inbox send` from the built CLI against the simulator: each check's
 * refusal and the flag that lifts it, contact resolution, the read-only key
 * refused before the outbox is written, and exactly once: the same
 * --idempotency-key twice, a send killed with SIGKILL and run again, the
 * same words sent again. Texts are counted where they land, in the simulator.
 * The clock is set (the simulator's and the CLI's, SHOP_INBOX_NOW), never the
 * wall clock's.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { KeyModeFile } from '../../src/config/key-mode-file.js';
import { SendOutput } from '../../src/contract/cli-output.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import type { SimContact, SimLead } from '../../src/sim/world.js';
import { clockAt, SEED_CUSTOMER_ZONE, seedCustomersAfternoon, type TestClock } from '../support/clock.js';
import { startHostileServer } from '../support/hostile-server.js';
import { type CliHome, cliHome, collect, runCli, spawnCli } from '../support/run-cli.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';

let home: CliHome;
beforeEach(async () => {
  home = await cliHome('shop-inbox-send-');
});
afterEach(async () => {
  await home.remove();
});

const NEW_CUSTOMER = { name: 'Nora Quillfeather', phone: '+15035550142' };

/** A simulator at `clock`, with a customer of our own who just called: an open lead, consent given. */
async function shopWithCustomer(clock: TestClock = seedCustomersAfternoon()) {
  const t = await startSim({ now: clock.now });
  t.sim.missedCallFrom(NEW_CUSTOMER);
  const shop = t.sim.shops.main;
  const contact = shop.contacts.find((c) => c.phone === NEW_CUSTOMER.phone) as SimContact;
  const lead = shop.leads.find((l) => l.contactId === contact.id) as SimLead;
  shop.consents.push({ phone: contact.phone, smsInitial: true, recordedAt: clock.at - 86_400_000 });
  return { t, shop, contact, lead, clock };
}

const envOf = (t: TestSim, clock: TestClock, extra: Record<string, string> = {}) =>
  home.env({
    SHOP_API_BASE_URL: t.baseUrl,
    SHOP_API_KEY: t.sim.tokens.write,
    SHOP_INBOX_NOW: String(clock.at),
    ...extra,
  });

/** Outbound texts of these words the simulator holds for the contact: what the customer received. */
const textsReceived = (t: TestSim, contact: SimContact, body: string) =>
  t.sim.shops.main.leads
    .filter((l) => l.contactId === contact.id)
    .flatMap((l) => l.messages)
    .filter((m) => m.direction === 'outbound' && m.body === body).length;

const sendRequests = async (t: TestSim) =>
  (await t.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

describe('shop-inbox send: the checks', () => {
  it('sends when nothing is found, by contact id, and says so on stdout', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const result = await runCli(['send', contact.id, '--body', 'On our way'], envOf(t, clock));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`Sent to ${NEW_CUSTOMER.name} (${NEW_CUSTOMER.phone}).\n`);
    expect(result.status).toBe(0);
    expect(textsReceived(t, contact, 'On our way')).toBe(1);
  });

  it('finds the contact by phone number however it is written, and by whole name', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const byPhone = await runCli(['send', '(503) 555-0142', '--body', 'One'], envOf(t, clock));
    expect(byPhone.status).toBe(0);
    const byName = await runCli(['send', 'nora  QUILLFEATHER', '--body', 'Two'], envOf(t, clock));
    expect(byName.status).toBe(0);
    expect(textsReceived(t, contact, 'One') + textsReceived(t, contact, 'Two')).toBe(2);
    const partial = await runCli(['send', 'Nora', '--body', 'Three'], envOf(t, clock));
    expect(partial.status).toBe(1);
    expect(partial.stderr).toMatch(/no contact has the id or the whole name "Nora"/);
  });

  it('refuses a name two contacts share, naming both, exit 2; nothing is asked of the outbox', async () => {
    const { t, clock } = await shopWithCustomer();
    t.sim.missedCallFrom({ name: NEW_CUSTOMER.name, phone: '+15035550199' });
    const result = await runCli(['send', NEW_CUSTOMER.name, '--body', 'Hi', '--json'], envOf(t, clock));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`2 contacts have the name "${NEW_CUSTOMER.name}"`);
    expect(result.stderr).toContain('(+15035550142)');
    expect(result.stderr).toContain('(+15035550199)');
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ambiguous', exit_code: 2 } });
    expect(await sendRequests(t)).toEqual([]);
  });

  it('no consent on record: refused naming it (exit 3) unless --consent-ok', async () => {
    const { t, shop, contact, clock } = await shopWithCustomer();
    shop.consents = shop.consents.filter((c) => c.phone !== contact.phone);
    const refused = await runCli(['send', contact.id, '--body', 'Hi', '--json'], envOf(t, clock));
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/No consent on record for this number\. \(--consent-ok sends anyway\)/);
    const output = SendOutput.parse(JSON.parse(refused.stdout));
    expect(output).toMatchObject({ outcome: 'refused', idempotency_key: null });
    expect(output.findings).toEqual([
      expect.objectContaining({ check: 'consent', level: 'strong', flag: '--consent-ok', allowed: false }),
    ]);
    // --yes is not consent: only the flag for it lifts it.
    expect((await runCli(['send', contact.id, '--body', 'Hi', '--yes'], envOf(t, clock))).status).toBe(3);
    expect(await sendRequests(t)).toEqual([]);
    const sent = await runCli(['send', contact.id, '--body', 'Hi', '--consent-ok'], envOf(t, clock));
    expect(sent.status).toBe(0);
    expect(sent.stderr).toMatch(/note: No consent on record.*\(sent anyway: --consent-ok\)/);
    expect(textsReceived(t, contact, 'Hi')).toBe(1);
  });

  it('an opt-out (STOP): refused naming the text unless --override', async () => {
    const { t, contact, lead, clock } = await shopWithCustomer();
    t.sim.receiveText(lead.id, 'Stop.');
    const refused = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(
      /The customer opted out: their text "Stop\." .*\(--override sends anyway\)/,
    );
    expect((await runCli(['send', contact.id, '--body', 'Hi', '--yes'], envOf(t, clock))).status).toBe(3);
    const sent = await runCli(['send', contact.id, '--body', 'Hi', '--override'], envOf(t, clock));
    expect(sent.status).toBe(0);
    expect(textsReceived(t, contact, 'Hi')).toBe(1);
  });

  it("quiet hours at the customer's location: refused unless --yes, whatever this machine's zone", async () => {
    const late = clockAt(SEED_CUSTOMER_ZONE, '22:30');
    const { t, contact, clock } = await shopWithCustomer(late);
    const env = envOf(t, clock, { TZ: 'Asia/Kathmandu' });
    const refused = await runCli(['send', contact.id, '--body', 'Hi', '--json'], env);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(
      /Quiet hours \(08:00–21:00 their time\): it is 22:30 for the customer \(America\/Los_Angeles, from the area code\)\. \(--yes sends anyway\)/,
    );
    const output = SendOutput.parse(JSON.parse(refused.stdout));
    expect(output.customer_time).toMatchObject({
      quiet: true,
      zones: [{ zone: 'America/Los_Angeles', time: '22:30' }],
    });
    const sent = await runCli(['send', contact.id, '--body', 'Hi', '--yes'], env);
    expect(sent.status).toBe(0);
    expect(textsReceived(t, contact, 'Hi')).toBe(1);
    // The afternoon there: nothing to say.
    const afternoon = clockAt(SEED_CUSTOMER_ZONE, '15:00');
    const calm = await runCli(
      ['send', contact.id, '--body', 'Later'],
      envOf(t, afternoon, { TZ: 'Pacific/Chatham' }),
    );
    expect(calm.status).toBe(0);
  });

  it('texting not live: refused unless --yes; then the shop refuses it: not sent, exit 1, nothing kept', async () => {
    const { t, shop, contact, clock } = await shopWithCustomer();
    shop.texting.status = 'pending';
    const refused = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/Texting is not live \(status "pending"\).*\(--yes sends anyway\)/);
    const tried = await runCli(['send', contact.id, '--body', 'Hi', '--yes', '--json'], envOf(t, clock));
    expect(tried.status).toBe(1);
    expect(SendOutput.parse(JSON.parse(tried.stdout))).toMatchObject({
      outcome: 'not_sent',
      error: { code: 'texting_inactive' },
    });
    const outbox = OutboxFile.forKey(home.env(), t.baseUrl, t.sim.tokens.write);
    expect((await outbox.inspect()).waiting).toBe(0);
    expect(textsReceived(t, contact, 'Hi')).toBe(0);
  });

  it('--after: a text newer than the one the caller saw is named and refused unless --yes', async () => {
    const { t, contact, lead, clock } = await shopWithCustomer();
    t.sim.receiveText(lead.id, 'Are you coming?');
    const seen = lead.messages.at(-1)?.id as string;
    const current = await runCli(
      ['send', contact.id, '--body', 'Yes, at 3', '--after', seen],
      envOf(t, clock),
    );
    expect(current.status).toBe(0);
    t.sim.receiveText(lead.id, 'Never mind, fixed it myself');
    const stale = await runCli(
      ['send', contact.id, '--body', 'See you at 3', '--after', seen],
      envOf(t, clock),
    );
    expect(stale.status).toBe(3);
    expect(stale.stderr).toMatch(
      /The customer wrote since you started .*"Never mind, fixed it myself" \(--yes sends anyway\)/,
    );
    expect(stale.stderr).toMatch(/Someone else sent since you started .*"Yes, at 3"/);
    const unknown = await runCli(
      ['send', contact.id, '--body', 'x', '--after', 'msg_nowhere'],
      envOf(t, clock),
    );
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /no thread of Nora Quillfeather \(\+15035550142\) read here holds the text msg_nowhere/,
    );
    expect(textsReceived(t, contact, 'See you at 3')).toBe(0);
  });

  it('a {variable} left in the text: refused, and no flag sends it', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const result = await runCli(
      ['send', contact.id, '--body', 'Hi {first_name}', '--yes', '--consent-ok', '--override'],
      envOf(t, clock),
    );
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/\{first_name\}.*\(nothing sends it as it is\)/);
  });

  it('takes the text from standard input; refuses control characters and an empty text (exit 2)', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const piped = await runCli(['send', contact.id], envOf(t, clock), 'Two lines\nof text\n');
    expect(piped.status).toBe(0);
    expect(textsReceived(t, contact, 'Two lines\nof text')).toBe(1);
    const withEscape = await runCli(['send', contact.id, '--body', 'a\u001b[2Jb'], envOf(t, clock));
    expect(withEscape.status).toBe(2);
    expect(withEscape.stderr).toMatch(/control character \(U\+001B at character 2\)/);
    expect((await runCli(['send', contact.id], envOf(t, clock), '  \n')).status).toBe(2);
    expect((await runCli(['send'], envOf(t, clock))).status).toBe(2);
    expect(
      (await runCli(['send', contact.id, '--body', 'x', '--idempotency-key', 'has space'], envOf(t, clock)))
        .status,
    ).toBe(2);
  });
});

describe('shop-inbox send: a key that cannot write', () => {
  it('a read-only key is refused before the outbox is written: exit 4, how to fix it', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const result = await runCli(
      ['send', contact.id, '--body', 'Hi', '--json'],
      envOf(t, clock, { SHOP_API_KEY: t.sim.tokens.read }),
    );
    expect(result.status).toBe(4);
    expect(result.stderr).toMatch(
      /this key is read-only: nothing was sent\. To write, turn on write mode in the shop's API settings/,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'read_only', exit_code: 4 } });
    expect(existsSync(OutboxFile.forKey(home.env(), t.baseUrl, t.sim.tokens.read).path)).toBe(false);
    // Only the question that changes nothing was a write.
    const writes = (await t.requests()).filter((r) => r.method !== 'GET');
    expect(writes.map((r) => r.path)).toEqual([
      expect.stringMatching(/^\/v1\/reviews\/shop-inbox-mode-probe-/),
    ]);
  });

  it('remembered read-only and the shop silent now: still refused, saying when it was learned', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const hostile = await startHostileServer({ upstream: t.baseUrl });
    try {
      await KeyModeFile.forKey(home.env(), hostile.baseUrl, t.sim.tokens.write).remember({
        mode: 'read',
        how: 'probe',
        at: Date.parse('2026-11-20T10:00:00Z'),
      });
      hostile.behave({ kind: 'status', status: 503 }, 'draftReply');
      const result = await runCli(
        ['send', contact.id, '--body', 'Hi'],
        envOf(t, clock, { SHOP_API_BASE_URL: hostile.baseUrl }),
      );
      expect(result.status).toBe(4);
      expect(result.stderr).toMatch(/was read-only when the shop last said \(2026-11-20T10:00:00\.000Z\)/);
      expect(hostile.requests.some((r) => r.endpoint === 'sendText')).toBe(false);
    } finally {
      await hostile.close();
    }
  });

  it('read_only in config.json: refused at once, exit 4', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    await writeConfig(home.env(), { base_url: t.baseUrl, read_only: true });
    const result = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(result.status).toBe(4);
    expect(result.stderr).toMatch(/read_only is set in config\.json/);
    expect(await t.requests()).toEqual([]);
  });

  it('a refused key is 4, a spent rate limit 5 (the text then waits in the outbox), no shop at all 1', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const refused = await runCli(
      ['send', contact.id, '--body', 'Hi'],
      envOf(t, clock, { SHOP_API_KEY: 'shk_gone' }),
    );
    expect(refused.status).toBe(4);
    expect(refused.stderr).toMatch(/refused the key/);
    expect(refused.stderr).not.toContain('shk_gone');

    const hostile = await startHostileServer({ upstream: t.baseUrl });
    try {
      hostile.behave(
        {
          kind: 'status',
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '3600' },
          body: JSON.stringify({ error: 'slow down', code: 'rate_limited' }),
        },
        'sendText',
      );
      const limited = await runCli(
        ['send', contact.id, '--body', 'Hi', '--json'],
        envOf(t, clock, { SHOP_API_BASE_URL: hostile.baseUrl }),
      );
      expect(limited.status).toBe(5);
      const output = SendOutput.parse(JSON.parse(limited.stdout));
      expect(output).toMatchObject({ outcome: 'waiting', error: { code: 'rate_limited' } });
      expect(limited.stderr).toContain(`Idempotency-Key ${output.idempotency_key}`);
      expect(
        (await OutboxFile.forKey(home.env(), hostile.baseUrl, t.sim.tokens.write).inspect()).waiting,
      ).toBe(1);
    } finally {
      await hostile.close();
    }
    await t.sim.close();
    const down = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/could not reach the shop's API/);
  });
});

describe('shop-inbox send: exactly once', () => {
  it('the same --idempotency-key twice: the second is a replay, one text', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const args = [
      'send',
      contact.id,
      '--body',
      'Your invoice',
      '--idempotency-key',
      'invoice-2026-11-21',
      '--json',
    ];
    const first = SendOutput.parse(JSON.parse((await runCli(args, envOf(t, clock))).stdout));
    const second = await runCli(args, envOf(t, clock));
    expect(second.status).toBe(0);
    expect(first).toMatchObject({ outcome: 'sent', idempotency_key: 'invoice-2026-11-21' });
    expect(SendOutput.parse(JSON.parse(second.stdout))).toMatchObject({ outcome: 'replayed', findings: [] });
    expect(textsReceived(t, contact, 'Your invoice')).toBe(1);
    const keys = (await sendRequests(t)).length;
    expect(keys).toBe(2);
  });

  it('the same words again without a key: refused as sent before, unless --yes', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    expect((await runCli(['send', contact.id, '--body', 'On our way'], envOf(t, clock))).status).toBe(0);
    const again = await runCli(['send', contact.id, '--body', 'On our way'], envOf(t, clock));
    expect(again.status).toBe(3);
    expect(again.stderr).toMatch(
      /The same text was sent to them at .* sending it again texts them twice\. \(--yes sends anyway\)/,
    );
    expect(textsReceived(t, contact, 'On our way')).toBe(1);
  });

  for (const when of ['before the shop got it', 'after the shop sent it, its answer lost'] as const) {
    it(`killed with SIGKILL ${when}: the same command again sends it once, with the same key`, async () => {
      const { t, contact, clock } = await shopWithCustomer();
      const hostile = await startHostileServer({ upstream: t.baseUrl });
      try {
        hostile.behave({ kind: when === 'before the shop got it' ? 'hang' : 'swallow' }, 'sendText');
        const env = envOf(t, clock, { SHOP_API_BASE_URL: hostile.baseUrl });
        const args = ['send', contact.id, '--body', 'Running late, 10 min', '--json'];
        const child = spawnCli(args, env);
        const ended = collect(child);
        await until(() => hostile.requests.find((r) => r.endpoint === 'sendText'), 15_000);
        if (when !== 'before the shop got it')
          await until(
            () => (textsReceived(t, contact, 'Running late, 10 min') === 1 ? true : undefined),
            5_000,
          );
        child.kill('SIGKILL');
        expect((await ended).signal).toBe('SIGKILL');
        const firstKey = hostile.requests.find((r) => r.endpoint === 'sendText')?.headers['idempotency-key'];

        hostile.reset();
        const again = await runCli(args, env);
        expect(again.status).toBe(0);
        const output = SendOutput.parse(JSON.parse(again.stdout));
        expect(output).toMatchObject({
          outcome: when === 'before the shop got it' ? 'sent' : 'replayed',
          resumed: true,
          idempotency_key: firstKey,
        });
        expect(textsReceived(t, contact, 'Running late, 10 min')).toBe(1);
        expect(
          (await OutboxFile.forKey(home.env(), hostile.baseUrl, t.sim.tokens.write).inspect()).waiting,
        ).toBe(0);
      } finally {
        await hostile.close();
      }
    });
  }
});

describe('shop-inbox send: the outbox of others', () => {
  it('takes over only its own text: another text left waiting in the outbox stays for the inbox', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    const outbox = OutboxFile.forKey(home.env(), t.baseUrl, t.sim.tokens.write);
    await outbox.save([
      {
        localId: 'left-by-a-crash',
        contactId: 'ct_someone_else',
        contactName: 'Someone Else',
        phone: '+15035550177',
        body: 'A text another process confirmed',
        idempotencyKey: '0b7a2c9e-7a51-4f0e-9a57-3d1c0b2a9e11',
        confirmedAt: Date.now(),
        state: 'waiting',
        attempts: 1,
      },
    ]);
    // Given up, as a process that ended leaves it: any process of the key may take it.
    await outbox.release();
    const result = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(result.status).toBe(0);
    expect((await outbox.inspect()).waiting).toBe(1);
    expect(await sendRequests(t)).toHaveLength(1);
  });
});

describe('shop-inbox send: untrusted text', () => {
  it('a hostile contact name reaches the terminal defanged, and --json as the same data', async () => {
    const { t, contact, clock } = await shopWithCustomer();
    contact.name = 'Nora\u001b]0;pwned\u0007 Q\u202e\u009b2J';
    const human = await runCli(['send', contact.id, '--body', 'Hi'], envOf(t, clock));
    expect(human.status).toBe(0);
    for (const control of ['\u001b', '\u0007', '\u202e', '\u009b']) {
      expect(human.stdout).not.toContain(control);
      expect(human.stderr).not.toContain(control);
    }
    const json = await runCli(['send', contact.id, '--body', 'Hello', '--json'], envOf(t, clock));
    for (const control of ['\u001b', '\u0007', '\u202e', '\u009b'])
      expect(json.stdout).not.toContain(control);
    expect(SendOutput.parse(JSON.parse(json.stdout)).contact.name).toBe(contact.name);
  });
});
