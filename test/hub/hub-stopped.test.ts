/**
 * One frozen terminal never freezes the desk (issue 19), across real
 * processes (headless inbox terminals, support/hub-terminal.ts) and the real
 * simulator, which logs every request with the User-Agent of the terminal
 * that made it:
 *
 * - a hub stopped with SIGSTOP (its socket still listening) leaves its
 *   clients reading the shop on their own within seconds, each within its
 *   share of the key's budget; a short stop ends with them giving way to it
 *   again, a long one with a client taking over, and the stopped hub, once
 *   continued, steps down without making a request;
 * - a terminal started while the hub is stopped reads on its own with a
 *   quarter of its budget (it cannot know how many others do), then takes
 *   over;
 * - a read the stopped hub was granted but had not yet written (stopped
 *   while its connection was made) is never written once another terminal
 *   took over;
 * - a text in flight at the hub when it stops, and one confirmed while it is
 *   stopped, each reach the customer exactly once, also after it continues.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import type { TerminalConfig } from './support/hub-terminal.js';
import {
  bundleTerminal,
  customerTexts,
  requestsOf,
  roleOf,
  shows,
  spawned,
  startTerminal,
  type Terminal,
  userAgentOf as userAgent,
} from './support/terminals.js';

let work = '';
let script = '';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hub-stopped-'));
  script = await bundleTerminal(work);
});

afterAll(async () => {
  for (const child of spawned) {
    // A stopped process does not act on SIGKILL's exit until it is continued on some systems.
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await rm(work, { recursive: true, force: true });
});

let users = 0;
function userEnv(): NodeJS.ProcessEnv {
  users += 1;
  const home = join(work, `u${users}`);
  return { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_RUNTIME_DIR: join(home, 'run') };
}

const FAST = { visibleMs: 500, headerMs: 2_000, backgroundMs: 30_000, rareMs: 300_000 };

function open(test: TestSim, env: NodeJS.ProcessEnv, extra: Partial<TerminalConfig> = {}): Terminal {
  return startTerminal(
    script,
    // The hubs meet in a stand-in /tmp, removed with the rest: no stale socket is left in the real one.
    { baseUrl: test.baseUrl, intervals: FAST, staleLockMs: 2_000, hubRoot: join(work, 't'), ...extra },
    test.sim.tokens.write,
    env,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function outboundCount(test: TestSim, body: string): number {
  return test.sim.shops.main.leads
    .flatMap((lead) => lead.messages)
    .filter((m) => m.direction === 'outbound' && m.body === body).length;
}

async function hubAndClients(
  test: TestSim,
  env: NodeJS.ProcessEnv,
  extra: Partial<TerminalConfig>,
  clientsOnly: Partial<TerminalConfig> = {},
) {
  const hub = open(test, env, extra);
  expect((await roleOf(hub)).role).toBe('hub');
  const clients = [
    open(test, env, { ...extra, ...clientsOnly }),
    open(test, env, { ...extra, ...clientsOnly }),
  ];
  for (const client of clients) expect((await roleOf(client)).role).toBe('client');
  for (const t of [hub, ...clients]) await t.next((e) => e.e === 'presence' && e.others === 2, 'two others');
  for (const t of [hub, ...clients]) await t.next((e) => e.e === 'inbound', 'the inbox');
  return { hub, clients };
}

describe('a hub whose process is stopped (SIGSTOP) while its socket still listens', () => {
  it('its clients read on their own within their share of the budget, and give way again when it continues', async () => {
    const test = await startSim();
    const env = userEnv();
    // Each process has its own --max-rpm. The clients' 12 a minute, shared by the 3 terminals they know of,
    // is 4 each while they stand in; the hub's 120 leave it reading every half second all through the test.
    // The clients also show the first lead's thread, which the hub does not.
    const timing = { beatMs: 250, silenceMs: 1_500, takeoverMs: 120_000 };
    const { hub, clients } = await hubAndClients(
      test,
      env,
      { hubTiming: timing, maxRpm: 120 },
      { maxRpm: 12, wide: true },
    );
    const from = test.sim.requests.list().length;
    const stoppedAt = Date.now();
    hub.process.kill('SIGSTOP');
    const body = customerTexts(test, 'while the hub is stopped');
    for (const client of clients) {
      const said = await client.next(
        (e) => e.e === 'sharing' && e.role === 'hub-silent' && e.t >= stoppedAt,
        'the hub not answering',
      );
      expect(said.why).toMatch(/hub terminal is not answering/);
      await shows(client, body);
    }
    // Long enough for each to want more than its share (the inbox every 0.5 s).
    await sleep(4_000);
    const resumedAt = Date.now();
    hub.process.kill('SIGCONT');
    for (const client of clients)
      await client.next((e) => e.e === 'sharing' && e.role === 'client' && e.t >= resumedAt, 'giving way');
    const gaveWay = test.sim.requests.list().length;
    const standingIn = test.sim.requests.list().slice(from, gaveWay);
    for (const client of clients) {
      const own = standingIn.filter((r) => r.userAgent === userAgent(client));
      expect(own.length).toBeGreaterThan(0);
      expect(own.length).toBeLessThanOrEqual(4);
    }
    // No takeover: the hub is still the hub, and after giving way only it reads the shop, the clients'
    // thread too: they ask it.
    expect(hub.role()).toBe('hub');
    await sleep(500);
    const after = test.sim.requests.list().length;
    const another = customerTexts(test, 'after the hub continued');
    for (const client of clients) await shows(client, another);
    await until(
      () => (requestsOf(test, hub, after).some((r) => r.path.includes('/leads/')) ? true : undefined),
      10_000,
    );
    for (const client of clients) expect(requestsOf(test, client, after)).toEqual([]);
  }, 60_000);

  it('a client takes over while it stays stopped; continued, it steps down without a request and reads through the new hub', async () => {
    const test = await startSim();
    const env = userEnv();
    const extra = { hubTiming: { beatMs: 250, silenceMs: 1_500, takeoverMs: 4_000 } };
    const { hub, clients } = await hubAndClients(test, env, extra);
    const stoppedAt = Date.now();
    hub.process.kill('SIGSTOP');
    const body = customerTexts(test, 'while the hub is stopped');
    for (const client of clients) await shows(client, body);
    const [newHub, tookOver] = await Promise.race(
      clients.map((t) =>
        t
          .next((e) => e.e === 'sharing' && e.role === 'hub' && e.t >= stoppedAt, 'a new hub')
          .then((e) => [t, e] as const),
      ),
    );
    const other = clients.find((t) => t !== newHub) as Terminal;
    await other.next(
      (e) => e.e === 'sharing' && e.role === 'client' && e.t >= tookOver.t,
      'a client of the new hub',
    );
    // Each said the hub was not answering, then how that ended.
    for (const t of clients)
      await t.next(
        (e) => e.e === 'notice' && /hub terminal is not answering/.test(e.text ?? ''),
        'the warning',
      );
    await newHub.next(
      (e) =>
        e.e === 'notice' &&
        /stayed silent: this terminal now reads the shop for the others/.test(e.text ?? ''),
      'taking over, said',
    );
    await other.next(
      (e) =>
        e.e === 'notice' &&
        /stayed silent: reading the shop through the hub that answers now/.test(e.text ?? ''),
      'following, said',
    );
    // A new terminal started now finds the new hub, not the stopped one.
    const late = open(test, env, extra);
    expect((await roleOf(late)).role).toBe('client');
    await sleep(1_000);
    const resumedFrom = test.sim.requests.list().length;
    const resumedAt = Date.now();
    hub.process.kill('SIGCONT');
    const stepped = await hub.next(
      (e) => e.e === 'sharing' && e.t >= resumedAt && e.role === 'client',
      'the stopped hub to become a client',
    );
    expect(stepped.role).toBe('client');
    const another = customerTexts(test, 'after the hub continued');
    for (const t of [hub, other, late]) await shows(t, another);
    // Continued, it never read the shop itself: the new hub did.
    expect(requestsOf(test, hub, resumedFrom)).toEqual([]);
    expect(newHub.role()).toBe('hub');
    expect([hub, other, late].map((t) => t.role())).toEqual(['client', 'client', 'client']);
    await until(() =>
      [hub, other, late, newHub].every((t) =>
        t.events.some((e) => e.e === 'presence' && e.others === 3 && e.t >= resumedAt),
      )
        ? true
        : undefined,
    );
  }, 60_000);

  it('a terminal started while the hub is stopped reads on its own with a quarter of its budget, then takes over', async () => {
    const test = await startSim();
    const env = userEnv();
    const timing = { beatMs: 250, silenceMs: 1_500, takeoverMs: 4_000 };
    const hub = open(test, env, { hubTiming: timing });
    expect((await roleOf(hub)).role).toBe('hub');
    await hub.next((e) => e.e === 'inbound', 'the inbox');
    hub.process.kill('SIGSTOP');
    const from = test.sim.requests.list().length;
    // 8 a minute: not knowing how many others read on their own, it takes a quarter, 2.
    const late = open(test, env, { hubTiming: timing, maxRpm: 8 });
    const said = await late.next((e) => e.e === 'sharing' && e.role !== undefined, 'a role');
    expect(said).toMatchObject({ role: 'hub-silent', why: expect.stringMatching(/not answering/) });
    await late.next((e) => e.e === 'inbound', 'the inbox, read by itself');
    const took = await late.next((e) => e.e === 'sharing' && e.role === 'hub', 'taking over');
    const standingIn = test.sim.requests
      .list()
      .slice(from)
      .filter((r) => r.userAgent === userAgent(late));
    expect(standingIn.length).toBeGreaterThan(0);
    expect(standingIn.length).toBeLessThanOrEqual(2);
    expect(took.t - said.t).toBeGreaterThanOrEqual(4_000);
    const resumedFrom = test.sim.requests.list().length;
    hub.process.kill('SIGCONT');
    await hub.next((e) => e.e === 'sharing' && e.role === 'client', 'the stopped hub joining');
    await sleep(1_000);
    expect(requestsOf(test, hub, resumedFrom)).toEqual([]);
  }, 60_000);

  it('a hub stopped after granting a request and before writing it, taken over meanwhile, never sends it', async () => {
    const test = await startSim();
    const env = userEnv();
    const timing = { beatMs: 250, silenceMs: 1_500, takeoverMs: 4_000 };
    // It stops itself the moment its budget grants its first read (the header's, GET /me, as in a stop that
    // lands while the first screen is read): the read is granted, its connection not yet made.
    const hub = open(test, env, { hubTiming: timing, stopAtFirstGrant: true });
    expect((await roleOf(hub)).role).toBe('hub');
    await hub.next((e) => e.e === 'stopping', 'the hub stopping between a grant and its write');
    const stoppedFrom = test.sim.requests.list().length;
    const late = open(test, env, { hubTiming: timing });
    await late.next((e) => e.e === 'sharing' && e.role === 'hub', 'taking over');
    const resumedAt = Date.now();
    hub.process.kill('SIGCONT');
    await hub.next(
      (e) => e.e === 'sharing' && e.role === 'client' && e.t >= resumedAt,
      'the stopped hub joining',
    );
    const another = customerTexts(test, 'after the stopped hub continued');
    await shows(hub, another);
    await sleep(1_000);
    // The read granted before the stop was refused as it was about to be written; nothing else went either.
    expect(requestsOf(test, hub, stoppedFrom)).toEqual([]);
    expect(requestsOf(test, late, stoppedFrom).length).toBeGreaterThan(0);
  }, 60_000);

  it('a text in flight at the hub, and one confirmed while it is stopped, each reach the customer exactly once', async () => {
    const test = await startSim();
    // Slow enough answers to stop the hub while it waits for one.
    test.sim.faults.setRates({ latencyMs: 600 });
    const env = userEnv();
    const extra = { hubTiming: { beatMs: 250, silenceMs: 1_500, takeoverMs: 120_000 } };
    const hub = open(test, env, extra);
    await roleOf(hub);
    const client = open(test, env, extra);
    expect((await roleOf(client)).role).toBe('client');
    const contact = test.sim.shops.main.contacts[0]?.id ?? '';
    const inFlight = 'sent through the hub, which stops before it answers';
    const whileStopped = 'confirmed while the hub is stopped';
    client.send({ c: 'send', contactId: contact, body: inFlight });
    await until(
      () =>
        test.sim.requests.list().some((r) => r.method === 'POST' && JSON.stringify(r.body).includes(inFlight))
          ? true
          : undefined,
      10_000,
    );
    // The hub's request has reached the shop; its answer has not reached the hub.
    hub.process.kill('SIGSTOP');
    client.send({ c: 'send', contactId: contact, body: whileStopped });
    const sent = await Promise.all(
      [inFlight, whileStopped].map((body) =>
        client.next((e) => e.e === 'sent' && e.body === body, `"${body}" sent`, 20_000),
      ),
    );
    // The first had reached the shop through the hub: the client's own attempt, with its key, was a replay.
    expect(sent.map((e) => e.state)).toEqual(['replayed', 'sent']);
    expect([outboundCount(test, inFlight), outboundCount(test, whileStopped)]).toEqual([1, 1]);
    const posts = (body: string) =>
      test.sim.requests.list().filter((r) => r.method === 'POST' && JSON.stringify(r.body).includes(body));
    expect(posts(inFlight).map((r) => r.userAgent)).toEqual([userAgent(hub), userAgent(client)]);
    expect(posts(whileStopped).map((r) => r.userAgent)).toEqual([userAgent(client)]);
    hub.process.kill('SIGCONT');
    // Continued, the hub makes the call it was asked before it stopped, with the same key: a replay.
    await until(
      () => (posts(whileStopped).filter((r) => r.status !== 0).length === 2 ? true : undefined),
      10_000,
    );
    expect(posts(whileStopped).map((r) => [r.userAgent, r.status])).toEqual([
      [userAgent(client), 200],
      [userAgent(hub), 200],
    ]);
    await sleep(1_000);
    expect([outboundCount(test, inFlight), outboundCount(test, whileStopped)]).toEqual([1, 1]);
    for (const body of [inFlight, whileStopped]) {
      // Every attempt carried the one key made when it was confirmed.
      expect(new Set(posts(body).map((r) => r.idempotencyKey)).size).toBe(1);
    }
  }, 60_000);
});
