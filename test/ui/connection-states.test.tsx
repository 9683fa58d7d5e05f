/**
 * What the inbox shows when the shop's API is not answering normally, against
 * the simulator over a real socket: a 429 pauses everything for its
 * Retry-After, 5xx and a lost connection back off and keep the last data on
 * screen, a refused key (401) or a plan without the API (403) stop everything
 * with a full-screen explanation. Also the refresh keys r and R.
 */
import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import type { TestSim } from '../support/sim.js';
import { startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';

/** Reads go on every 300 ms, so a fault queued for "the next request" is met soon. */
const BUSY = { visibleMs: 300, headerMs: 300, backgroundMs: 60_000, rareMs: 60_000 };
/** Nothing is read again within a test once everything was read once. */
const SLOW = {
  visibleMs: 60_000,
  headerMs: 60_000,
  backgroundMs: 60_000,
  rareMs: 60_000,
  burstMs: 60_000,
  pacedMs: 60_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Timed = LoggedRequest & { at: number };

/** Records the time each request reached the simulator (the log itself has none). */
function timeRequests(s: TestSim): Timed[] {
  const log: Timed[] = [];
  const add = s.sim.requests.add.bind(s.sim.requests);
  s.sim.requests.add = (entry) => {
    log.push(Object.assign(entry, { at: Date.now() }));
    add(entry);
  };
  return log;
}

/** Every connection state the store went through. */
function connectionStates(tui: TestTui): string[] {
  const states: string[] = [tui.state().connection.state];
  tui.session.store.subscribe((state) => {
    if (states.at(-1) !== state.connection.state) states.push(state.connection.state);
  });
  return states;
}

async function loaded(tui: TestTui): Promise<string> {
  await tui.waitFor((_frame, state) => startupLoaded(state));
  const lead = tui.state().inbox.open.data?.open_leads[0];
  if (!lead) throw new Error('the seed has no open lead');
  return tui.waitFor(String(lead.contact_name));
}

/** The status bar's first line (the second-to-last line of the frame). */
const statusLine = (frame: string) => frame.split('\n').at(-2) ?? '';

describe('connection states: 429', () => {
  it('pauses everything for Retry-After, says so, then goes on by itself', async () => {
    const tui = await startTui({ intervals: BUSY, client: { deadlineMs: 1_000 } });
    const log = timeRequests(tui.s);
    await loaded(tui);
    const states = connectionStates(tui);

    tui.s.sim.faults.failNext({ kind: 'rate_limit', retryAfterSeconds: 2 });
    const frame = await tui.waitFor(/rate limited by the shop's API — everything paused for [12] s/);
    expect(statusLine(frame)).toMatch(/paused for [12] s · updated \d+ s ago/);
    const limited = log.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    const limitedAt = limited?.at ?? 0;

    // Refresh keys during the pause wait for it too (and are not mistaken for a dead network).
    await tui.press('r');
    await tui.press('R');
    await tui.waitFor((f, state) => state.connection.state === 'ok' && !f.includes('rate limited'), 6_000);
    await tui.waitFor(() => log.some((r) => r.at > limitedAt && r.status === 200));

    const during = log.filter((r) => r.at > limitedAt && r.at < limitedAt + 2_000 - 20);
    expect(during).toEqual([]);
    const after = log.filter((r) => r.at > limitedAt);
    expect(after.every((r) => r.status === 200)).toBe(true);
    expect(states).toEqual(['ok', 'rate_limited', 'ok']);
  });

  it('honours the simulator’s own per-token limit (a real sliding minute)', async () => {
    // The simulator's clock runs ahead, so its minute is nearly over when the limit is hit.
    let offset = 0;
    const tui = await startTui({
      simOptions: { rateLimitPerMinute: 11, now: () => Date.now() + offset },
      intervals: BUSY,
    });
    const log = timeRequests(tui.s);
    await loaded(tui);
    const states = connectionStates(tui);
    let until = 0;
    tui.session.store.subscribe((state) => {
      if (state.connection.state === 'rate_limited') until = Math.max(until, state.connection.until);
    });
    offset = 58_000;
    // A few more reads pass, then one gets 429 with a Retry-After of what is left of the minute.
    await tui.waitFor(/rate limited by the shop's API — everything paused for [123] s/, 5_000);
    const limited = log.filter((r) => r.status === 429);
    expect(limited).toHaveLength(1);
    const limitedAt = limited[0]?.at ?? 0;
    expect(until - limitedAt).toBeGreaterThanOrEqual(1_000);
    await tui.waitFor((f, state) => state.connection.state === 'ok' && !f.includes('rate limited'), 6_000);
    await tui.waitFor(() => log.some((r) => r.at > limitedAt && r.status === 200));
    // Nothing reached the simulator before the Retry-After was over, and then all passed.
    expect(log.filter((r) => r.at > limitedAt && r.at < until - 20)).toEqual([]);
    expect(log.filter((r) => r.status === 429)).toHaveLength(1);
    expect(states).toEqual(['ok', 'rate_limited', 'ok']);
  });
});

describe('connection states: the API failing or unreachable', () => {
  it('5xx: says it is failing and when it retries, keeps the data, recovers by itself', async () => {
    const tui = await startTui({ intervals: BUSY, backoff: { baseMs: 2_000, maxMs: 2_000 } });
    const log = timeRequests(tui.s);
    const leadFrame = await loaded(tui);
    const lead = String(tui.state().inbox.open.data?.open_leads[0]?.contact_name);
    expect(leadFrame).toContain(lead);

    tui.s.sim.faults.failNext({ kind: 'status', status: 503 });
    const frame = await tui.waitFor(/the shop's API is failing — retrying in [12] s · updated \d+ s ago/);
    // The last good copy stays on screen.
    expect(frame).toContain(lead);
    expect(frame).toContain('Inbox — open lead');
    expect(tui.state().inbox.open.data?.open_leads.length).toBeGreaterThan(0);
    const failedAt = log.find((r) => r.status === 503)?.at ?? 0;

    await tui.waitFor((f, state) => state.connection.state === 'ok' && !f.includes('failing'), 5_000);
    expect(statusLine(tui.frame())).not.toMatch(/failing|retrying/);
    expect(tui.frame()).toContain(lead);
    // It waited for its backoff (at least half the step) before reading again.
    const next = log.find((r) => r.at > failedAt);
    expect((next?.at ?? 0) - failedAt).toBeGreaterThanOrEqual(1_000 - 20);
  });

  it('5xx on the visible list: the pane explains it and shows the age of what it still shows', async () => {
    const tui = await startTui({
      intervals: {
        visibleMs: 200,
        headerMs: 60_000,
        backgroundMs: 60_000,
        rareMs: 60_000,
        burstMs: 60_000,
        pacedMs: 60_000,
      },
      backoff: { baseMs: 3_000, maxMs: 3_000 },
      // Wide enough for the pane's status line to show the age after the explanation, yet
      // not the wide layout, whose thread beside the inbox would be read as often.
      columns: 119,
    });
    await loaded(tui);
    const lead = String(tui.state().inbox.open.data?.open_leads[0]?.contact_name);
    tui.s.sim.faults.failNext({ kind: 'status', status: 502 });
    const frame = await tui.waitFor(/HTTP 502\)\. · showing what was updated \d+ s ago/);
    expect(frame).toContain(lead);
    expect(statusLine(frame)).toMatch(/the shop's API is failing — retrying in \d s/);
  });

  it('offline: says so and when it retries, keeps the data, reconnects when the API is back', async () => {
    const tui = await startTui({ intervals: BUSY, backoff: { baseMs: 800, maxMs: 800 } });
    const log = timeRequests(tui.s);
    await loaded(tui);
    const lead = String(tui.state().inbox.open.data?.open_leads[0]?.contact_name);
    const port = Number(new URL(tui.s.baseUrl).port);

    await tui.s.sim.close();
    const frame = await tui.waitFor(/offline — (retrying in \d s|retrying now) · updated \d+ s ago/);
    expect(frame).toContain(lead);
    expect(tui.state().connection.state).toBe('offline');
    await sleep(500);
    expect(tui.state().connection.state).toBe('offline');
    expect(tui.frame()).toContain(lead);

    const before = log.length;
    await tui.s.sim.listen({ port });
    await tui.waitFor((f, state) => state.connection.state === 'ok' && !f.includes('offline'), 5_000);
    expect(log.length).toBeGreaterThan(before);
    expect(tui.frame()).toContain(lead);
  });
});

describe('connection states: stops that no retry can fix', () => {
  it('401 after a rotation: explains it full-screen, stops polling, q quits', async () => {
    // Wide enough for the explanation to fit each sentence on one line.
    const tui = await startTui({ intervals: BUSY, columns: 170, rows: 24 });
    const log = timeRequests(tui.s);
    await loaded(tui);
    tui.s.sim.rotateToken('write');

    const frame = await tui.waitFor('refused this key');
    expect(frame).toContain('The key is missing, truncated, or was rotated.');
    expect(frame).toContain('assistant connection');
    expect(frame).toContain('Nothing is being retried. Press q to quit.');
    expect(frame).not.toContain('Inbox — open leads');
    expect(tui.state().fatal?.kind).toBe('unauthorized');

    const refused = log.filter((r) => r.status === 401);
    expect(refused).toHaveLength(1);
    const count = log.length;
    // Refresh keys do nothing now.
    await tui.press('r', 'R');
    await sleep(1_200);
    expect(log).toHaveLength(count);
    expect(tui.quitRequested).toBe(false);
    await tui.press('q');
    expect(tui.quitRequested).toBe(true);
  });

  it('403 no_subscription: explains the plan full-screen and sends nothing more', async () => {
    const tui = await startTui({ token: 'no_subscription', intervals: BUSY, columns: 120 });
    const log = timeRequests(tui.s);
    const frame = await tui.waitFor('plan cannot use the API');
    expect(frame).toContain('Change the plan in the shop’s billing settings');
    expect(frame).toContain('Press q to quit.');
    expect(tui.state().fatal?.kind).toBe('no_subscription');
    await sleep(1_000);
    // The first screen is read side by side (the header and the inbox): each of those reads is refused, and
    // nothing is sent after them.
    expect(log.length).toBeGreaterThanOrEqual(1);
    expect(log.length).toBeLessThanOrEqual(2);
    expect(log.every((request) => request.status === 403)).toBe(true);
    expect((log.at(-1)?.at ?? 0) - (log[0]?.at ?? 0)).toBeLessThan(300);
    await tui.press('q');
    expect(tui.quitRequested).toBe(true);
  });
});

describe('refresh keys', () => {
  it('r reads the focused pane now, R reads everything, within the budget', async () => {
    const tui = await startTui({ intervals: SLOW, maxRpm: 15 });
    const log = timeRequests(tui.s);
    await loaded(tui);
    await sleep(200);
    const first = log.length;
    expect(first).toBe(10);
    const count = (path: string, query = '') =>
      log.filter((r) => r.path === `/v1${path}` && r.query.includes(query)).length;

    let pressedAt = Date.now();
    await tui.press('r');
    await tui.waitFor(() => count('/inbox', 'filter=open') === 2, 1_000);
    expect(Date.now() - pressedAt).toBeLessThan(500);
    await sleep(100);
    expect(log).toHaveLength(first + 1);

    await tui.press('3');
    await tui.waitFor('Reviews (');
    await sleep(100);
    expect(count('/reviews')).toBe(1);
    pressedAt = Date.now();
    await tui.press('r');
    await tui.waitFor(() => count('/reviews') === 2, 1_000);
    expect(Date.now() - pressedAt).toBeLessThan(500);

    // R: everything, one read at a time, but only while the budget lasts (15 a minute).
    await tui.press('R');
    await tui.waitFor(() => log.length === 15, 2_000);
    await sleep(600);
    expect(log).toHaveLength(15);
    expect(log.every((r) => r.status === 200)).toBe(true);
    expect(tui.session.budget.available).toBe(0);
    expect(tui.state().connection.state).toBe('ok');
  });
});
