/**
 * `shop-inbox check`, the monitoring plugin, from the built CLI against the
 * simulator at a set clock: one line, its state and exit code by the
 * thresholds, performance data a monitoring system parses, only reads (a read
 * key is enough, the mode is never asked), and the states of failures.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimContact, SimLead } from '../../src/sim/world.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';
import { closedPort, startSim, type TestSim } from '../support/sim.js';

let home: CliHome;
beforeEach(async () => {
  home = await cliHome('shop-inbox-check-');
});
afterEach(async () => {
  await home.remove();
});

const clock = seedCustomersAfternoon();
const MINUTE = 60_000;

/** The seeded shop with every missed call answered and nothing waiting, at the test's clock. */
async function quietShop() {
  let now = clock.at - 60 * MINUTE;
  const t = await startSim({ now: () => now });
  const shop = t.sim.shops.main;
  for (const lead of shop.leads) {
    lead.answeredAt = now;
    lead.messages.push({
      id: `msg_reply_${lead.id}`,
      direction: 'outbound',
      body: 'Thanks!',
      occurredAt: now,
    });
  }
  shop.actions = shop.actions.filter((a) => a.status !== 'pending_approval');
  for (const review of shop.reviews) review.repliedAt ??= now;
  const call = (name: string, phone: string, minutesAgo: number) => {
    now = clock.at - minutesAgo * MINUTE;
    t.sim.missedCallFrom({ name, phone });
    const contact = shop.contacts.find((c) => c.phone === phone) as SimContact;
    return shop.leads.find((l) => l.contactId === contact.id) as SimLead;
  };
  const setNow = (minutesAgo: number) => {
    now = clock.at - minutesAgo * MINUTE;
  };
  setNow(0);
  return { t, call, setNow };
}

const envOf = (t: TestSim, extra: Record<string, string> = {}) =>
  home.env({
    SHOP_API_BASE_URL: t.baseUrl,
    SHOP_API_KEY: t.sim.tokens.read,
    SHOP_INBOX_NOW: String(clock.at),
    ...extra,
  });

describe('shop-inbox check', () => {
  it('OK when nothing waits: one line, perfdata, exit 0, only reads with a read key', async () => {
    const { t } = await quietShop();
    const result = await runCli(['check'], envOf(t));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      'SHOP-INBOX OK - no callback waiting, no reply waiting (10 threads read), 0 actions awaiting approval, 0 unreplied reviews | callbacks=0;2;5;0 oldest_callback=0s;900;1800;0 waiting_replies=0;2;5;0 oldest_waiting=0s;900;1800;0 pending_actions=0;;;0 unreplied_reviews=0;;;0 texting_live=1;1:;;0;1\n',
    );
    expect(result.status).toBe(0);
    const requests = await t.requests();
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
    expect(requests).toHaveLength(3 + 10);
  });

  it('WARNING past a warning threshold, CRITICAL past a critical one, the worst first in the text', async () => {
    const { t, call } = await quietShop();
    call('Nora Quillfeather', '+15035550142', 14);
    call('Ivan Petrov', '+15035550143', 3);
    call('Lena Park', '+15035550144', 1);
    const warning = await runCli(['check', '--threads', '0'], envOf(t));
    expect(warning.status).toBe(1);
    expect(warning.stdout).toMatch(
      /^SHOP-INBOX WARNING - 3 callbacks waiting, oldest 14 min, 0 actions awaiting approval, 0 unreplied reviews \| callbacks=3;2;5;0 oldest_callback=840s;900;1800;0 pending_actions=0;;;0 unreplied_reviews=0;;;0 texting_live=1;1:;;0;1\n$/,
    );
    const critical = await runCli(['check', '--threads', '0', '-c', 'oldest_callback=10m'], envOf(t));
    expect(critical.status).toBe(2);
    expect(critical.stdout).toMatch(
      /^SHOP-INBOX CRITICAL - 3 callbacks waiting, oldest 14 min, .* oldest_callback=840s;900;600;0 /,
    );
    const relaxed = await runCli(
      ['check', '--threads', '0', '-w', 'callbacks=', '-w', 'callbacks=5'],
      envOf(t),
    );
    expect(relaxed.status).toBe(0);
    expect(relaxed.stdout).toMatch(/ callbacks=3;5;5;0 /);
  });

  it('counts the customers whose newest text waits for a reply, in the threads it reads', async () => {
    const { t, call, setNow } = await quietShop();
    const lead = call('Nora Quillfeather', '+15035550142', 40);
    setNow(40);
    t.sim.shops.main.leads
      .find((l) => l.id === lead.id)
      ?.messages.push({
        id: 'msg_answer',
        direction: 'outbound',
        body: 'Coming at 3',
        occurredAt: clock.at - 39 * MINUTE,
      });
    lead.answeredAt = clock.at - 39 * MINUTE;
    setNow(20);
    t.sim.receiveText(lead.id, 'Can you make it 2?');
    setNow(0);
    const result = await runCli(['check', '--threads', '3'], envOf(t));
    // 20 minutes: past the 15 of the warning, short of the 30 of the critical threshold.
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^SHOP-INBOX WARNING - 1 customer waiting for a reply, longest 20 min \(3 threads read\), no callback waiting, .* waiting_replies=1;2;5;0 oldest_waiting=1200s;900;1800;0 /,
    );
  });

  it('texting not live is a WARNING by default, CRITICAL when asked', async () => {
    const { t } = await quietShop();
    t.sim.shops.main.texting.status = 'pending';
    const warning = await runCli(['check', '--threads', '0'], envOf(t));
    expect(warning.status).toBe(1);
    expect(warning.stdout).toMatch(
      /^SHOP-INBOX WARNING - texting not live \(pending\), .*texting_live=0;1:;;0;1\n$/,
    );
    const critical = await runCli(['check', '--threads', '0', '-c', 'texting_live=1:'], envOf(t));
    expect(critical.status).toBe(2);
  });

  it('a refused key is CRITICAL, a spent rate limit UNKNOWN, the API unreachable CRITICAL or UNKNOWN as chosen', async () => {
    const { t } = await quietShop();
    const refused = await runCli(['check'], envOf(t, { SHOP_API_KEY: 'shk_rotated' }));
    expect(refused.status).toBe(2);
    expect(refused.stdout).toMatch(/^SHOP-INBOX CRITICAL - the shop's API refused the key: .*\n$/);
    expect(refused.stdout).not.toContain('shk_rotated');
    // Not a question of reaching the API: CRITICAL whatever --unreachable says.
    const refusedAnyway = await runCli(
      ['check', '--unreachable', 'unknown'],
      envOf(t, { SHOP_API_KEY: 'shk_rotated' }),
    );
    expect(refusedAnyway.status).toBe(2);
    t.sim.faults.rateLimitBurst(10, 3600);
    const limited = await runCli(['check'], envOf(t));
    expect(limited.status).toBe(3);
    expect(limited.stdout).toMatch(/^SHOP-INBOX UNKNOWN - too many requests on this key/);
    t.sim.faults.clear();
    const port = await closedPort();
    const down = await runCli(['check'], envOf(t, { SHOP_API_BASE_URL: `http://127.0.0.1:${port}/v1` }));
    expect(down.status).toBe(2);
    expect(down.stdout).toMatch(/^SHOP-INBOX CRITICAL - could not reach the shop's API \(ECONNREFUSED\)/);
    const unknown = await runCli(
      ['check', '--unreachable', 'unknown'],
      envOf(t, { SHOP_API_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    );
    expect(unknown.status).toBe(3);
  });

  it('a wrong command line or missing settings is UNKNOWN (exit 3), in one line', async () => {
    const { t } = await quietShop();
    for (const args of [
      ['check', '-w', 'nonsense=3'],
      ['check', '-w', 'callbacks=5:2'],
      ['check', '-w', 'callbacks=10m'],
      ['check', '--unreachable', 'maybe'],
      ['check', '--bogus'],
    ]) {
      const result = await runCli(args, envOf(t));
      expect(result.status, args.join(' ')).toBe(3);
      expect(result.stdout).toMatch(/^SHOP-INBOX UNKNOWN - [^\n|]+\n$/);
    }
    const unset = await runCli(['check'], home.env());
    expect(unset.status).toBe(3);
    expect(unset.stdout).toMatch(/^SHOP-INBOX UNKNOWN - no API key\.[^\n]*\n$/);
  });
});
