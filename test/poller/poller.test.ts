/**
 * The background poller against the simulator over a real socket (session,
 * budget, client, store; no UI): what is on screen is read more often than
 * what is not, one read at a time, refresh keys read now, and the budget (and
 * the share kept for staff) holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { visibleReads } from '../../src/panes/visible-reads.js';
import type { RefreshIntervals } from '../../src/poller/refresh-plan.js';
import {
  burstRpmFor,
  createSession,
  type Session,
  type SessionOptions,
} from '../../src/session/create-session.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import type { SimulatorOptions } from '../../src/sim/simulator.js';
import type { AppState } from '../../src/store/app-store.js';
import { threadsToRead } from '../../src/store/conversation-picture.js';
import { callbackCount } from '../../src/store/counts.js';
import { previewSender } from '../../src/store/inbound-match.js';
import { startSim, type TestSim } from '../support/sim.js';

const FAST: RefreshIntervals = {
  visibleMs: 100,
  headerMs: 200,
  backgroundMs: 2_000,
  rareMs: 5_000,
  // The threads read to match the latest inbound texts are tested in test/ui/inbound-senders.test.tsx and test/ui/next-step.test.tsx.
  burstMs: 60_000,
  pacedMs: 60_000,
};
/** Nothing is due again within a test's time once everything was read once. */
const SLOW: RefreshIntervals = {
  visibleMs: 60_000,
  headerMs: 60_000,
  backgroundMs: 60_000,
  rareMs: 60_000,
  burstMs: 60_000,
  pacedMs: 60_000,
};

/** Every slot of the default screen (inbox focused, 80 columns): each read once on start. */
/** Everything the plan holds: me, today, billing, texting, both inbox lists, contacts, reviews, pending actions, the API spec. */
const FIRST_PASS = 10;

const sessions: Session[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

interface Timed extends LoggedRequest {
  /** When the simulator received it (Date.now()). */
  at: number;
}

interface Running {
  s: TestSim;
  session: Session;
  /** Requests as the simulator logged them, with the time each arrived. */
  log: Timed[];
  state(): AppState;
  count(path: string, query?: string): number;
  /** Most slots that were loading at the same moment, since start (or the last reset). */
  readonly maxLoading: number;
  resetMaxLoading(): void;
  waitUntil(condition: () => boolean, timeoutMs?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function loadingSlots(state: AppState): number {
  const all = [
    state.me,
    state.today,
    state.billing,
    state.texting,
    state.reviews,
    state.contacts,
    ...Object.values(state.inbox),
    ...Object.values(state.actions),
    ...Object.values(state.leads),
  ];
  return all.filter((loaded) => loaded.loading).length;
}

async function startPolling(
  options: Partial<SessionOptions> & { simOptions?: SimulatorOptions; start?: boolean } = {},
): Promise<Running> {
  const { simOptions, start = true, ...sessionOptions } = options;
  const s = await startSim(simOptions);
  const log: Timed[] = [];
  const add = s.sim.requests.add.bind(s.sim.requests);
  s.sim.requests.add = (entry) => {
    // The same object the simulator fills in with the status later.
    log.push(Object.assign(entry, { at: Date.now() }));
    add(entry);
  };
  const session = createSession({
    visibleSlots: visibleReads,
    baseUrl: s.baseUrl,
    apiKey: s.sim.tokens.write,
    backoff: { baseMs: 100, maxMs: 400 },
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    ...sessionOptions,
  });
  sessions.push(session);
  let maxLoading = 0;
  session.store.subscribe((state) => {
    maxLoading = Math.max(maxLoading, loadingSlots(state));
  });
  if (start) session.start();
  return {
    s,
    session,
    log,
    state: () => session.store.getState(),
    count: (path, query) =>
      log.filter((r) => r.path === `/v1${path}` && (query === undefined || r.query.includes(query))).length,
    get maxLoading() {
      return maxLoading;
    },
    resetMaxLoading() {
      maxLoading = loadingSlots(session.store.getState());
    },
    async waitUntil(condition, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) {
          throw new Error(
            `timed out; requests so far:\n${log.map((r) => `${r.method} ${r.path}?${r.query} ${r.status}`).join('\n')}`,
          );
        }
        await sleep(10);
      }
    },
  };
}

describe('poller: what is read, and how often', () => {
  it('reads the visible list often, the header less, billing once', async () => {
    const p = await startPolling({ intervals: FAST });
    await sleep(1_500);
    const open = p.count('/inbox', 'filter=open');
    const me = p.count('/me');
    const billing = p.count('/billing');
    const callbacks = p.count('/inbox', 'filter=callbacks');
    expect(open).toBeGreaterThanOrEqual(6);
    expect(me).toBeGreaterThanOrEqual(3);
    expect(me).toBeLessThan(open);
    expect(billing).toBe(1);
    expect(callbacks).toBe(1);
    expect(p.count('/texting')).toBe(1);
    expect(p.count('/reviews')).toBe(1);
    expect(p.count('/actions', 'status=pending_approval')).toBe(1);
    expect(p.count('/today')).toBe(1);
    expect(p.count('/contacts')).toBe(1);
    // Every read succeeded and landed in the store.
    expect(p.log.every((r) => r.status === 200)).toBe(true);
    expect(p.state().inbox.open.data?.open_leads.length).toBeGreaterThan(0);
    expect(p.state().billing.data).toBeDefined();
    expect(p.state().connection).toEqual({ state: 'ok' });
  });

  it('reads the reviews often once the reviews pane has focus', async () => {
    // Room for what the fast intervals ask (the open inbox every 50 ms spends the default 30 a minute at once).
    const p = await startPolling({ intervals: FAST, maxRpm: 120 });
    await p.waitUntil(() => p.count('/reviews') === 1 && p.count('/billing') === 1);
    await sleep(600);
    const reviewsBefore = p.count('/reviews');
    expect(reviewsBefore).toBe(1);
    const openBefore = p.count('/inbox', 'filter=open');

    const focusedAt = performance.now();
    p.session.store.setState({ focus: 'reviews' });
    // Every 100 ms now: four more reads come quickly (on a loaded machine, later than 400 ms).
    await p.waitUntil(() => p.count('/reviews') - reviewsBefore >= 4, 15_000);
    const elapsed = performance.now() - focusedAt;
    // The inbox went back to its background interval (2 s): one more read at most for each 2 s that passed.
    expect(p.count('/inbox', 'filter=open') - openBefore).toBeLessThanOrEqual(
      1 + Math.floor(elapsed / 2_000),
    );
  });

  it('reads the open thread when one is opened, and keeps reading it while it is on screen', async () => {
    const p = await startPolling({ intervals: FAST });
    await p.waitUntil(() => p.state().inbox.open.data !== undefined);
    const lead = p.state().inbox.open.data?.open_leads[0];
    expect(lead).toBeDefined();
    // The thread shows the lead highlighted in the inbox: the first row, before any key.
    p.session.store.setState({ focus: 'thread' });
    await sleep(700);
    expect(p.count(`/leads/${lead?.id}`)).toBeGreaterThanOrEqual(3);
    expect(p.state().leads[lead?.id ?? '']?.data).toBeDefined();
  });

  it('reads the first screen side by side: the header and the visible list at once', async () => {
    const p = await startPolling({ intervals: SLOW, simOptions: { faults: { latencyMs: 150 } } });
    await p.waitUntil(() => p.state().me.data !== undefined && p.state().inbox.open.data !== undefined);
    const me = p.log.find((r) => r.path === '/v1/me');
    const inbox = p.log.find((r) => r.path === '/v1/inbox');
    // Both asked before either was answered (each answer takes 150 ms).
    expect(Math.abs((me?.at ?? 0) - (inbox?.at ?? 1_000))).toBeLessThan(100);
    expect(p.maxLoading).toBe(2);
  });

  it('after the first screen, makes one read at a time, even with a slow API', async () => {
    const p = await startPolling({ intervals: FAST, simOptions: { faults: { latencyMs: 40 } } });
    await p.waitUntil(() => p.state().me.data !== undefined && p.state().inbox.open.data !== undefined);
    const firstScreen = p.log.length;
    p.resetMaxLoading();
    // Refresh keys and invalidations while reads are in flight do not start parallel reads.
    for (let i = 0; i < 5; i += 1) {
      p.session.poller.refreshAll();
      p.session.poller.refreshVisible();
      await sleep(50);
    }
    await sleep(500);
    expect(p.log.length).toBeGreaterThanOrEqual(10);
    expect(p.maxLoading).toBe(1);
    // And on the wire: each request arrived only after the previous one was answered.
    // (The public spec is answered without the added latency, so it is left out of the gaps.)
    const timed = p.log.slice(firstScreen).filter((r) => !r.path.endsWith('/openapi.json'));
    const gaps = timed.slice(1).map((r, i) => r.at - (timed[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(35);
  });
});

describe('poller: counts that move together', () => {
  it('reads a list at once when /me counts it differently than before, and not again while /me holds still', async () => {
    // /me every 200 ms; the lists behind the header only every minute on their own.
    const p = await startPolling({
      intervals: {
        visibleMs: 60_000,
        headerMs: 200,
        backgroundMs: 60_000,
        rareMs: 60_000,
        burstMs: 60_000,
        pacedMs: 60_000,
      },
    });
    await p.waitUntil(() => p.count('/inbox', 'filter=callbacks') === 1 && p.count('/me') >= 2);
    const caller = p.s.sim.shops.main.contacts[0];
    if (!caller) throw new Error('seed has no contact');
    p.s.sim.missedCall(caller.id);
    const lead = p.s.sim.shops.main.leads.at(-1);
    if (lead) lead.urgency = 'flexible';

    // The next /me says one more callback: the callbacks list is read right after it, not a minute later.
    await p.waitUntil(() => p.count('/inbox', 'filter=callbacks') === 2, 3_000);
    await p.waitUntil(() => callbackCount(p.state()) === p.state().me.data?.inbox_pulse.needs_callback);
    expect(p.state().inbox.callbacks.data?.open_leads.map((row) => row.id)).toContain(lead?.id);
    // The open leads changed too (one more); reviews and actions did not.
    await p.waitUntil(() => p.count('/inbox', 'filter=open') === 2);
    const meBefore = p.count('/me');
    await p.waitUntil(() => p.count('/me') >= meBefore + 4);
    expect(p.count('/inbox', 'filter=callbacks')).toBe(2);
    expect(p.count('/inbox', 'filter=open')).toBe(2);
    expect(p.count('/reviews')).toBe(1);
    expect(p.count('/actions', 'status=pending_approval')).toBe(1);
  });
});

describe('poller: refresh keys', () => {
  it('refreshVisible reads what the focused pane shows now, refreshAll reads everything', async () => {
    const p = await startPolling({ intervals: SLOW });
    await p.waitUntil(() => p.log.length === FIRST_PASS && p.log.every((r) => r.status === 200));
    await sleep(200);
    expect(p.log).toHaveLength(FIRST_PASS);

    const before = Date.now();
    p.session.poller.refreshVisible();
    await p.waitUntil(() => p.count('/inbox', 'filter=open') === 2, 1_000);
    expect(Date.now() - before).toBeLessThan(500);
    await sleep(150);
    expect(p.log).toHaveLength(FIRST_PASS + 1);

    p.session.store.setState({ focus: 'today' });
    await sleep(100);
    p.session.poller.refreshVisible();
    await p.waitUntil(
      () => p.count('/billing') === 2 && p.count('/texting') === 2 && p.count('/today') === 2,
    );

    const beforeAll = p.log.length;
    p.session.poller.refreshAll();
    await p.waitUntil(() => p.log.length === beforeAll + FIRST_PASS, 2_000);
    await sleep(150);
    expect(p.log).toHaveLength(beforeAll + FIRST_PASS);
    const paths = new Set(
      p.log.slice(beforeAll).map((r) => `${r.path}?${r.query.replace(/&?limit=\d+/, '')}`),
    );
    expect(paths.size).toBe(FIRST_PASS);
  });
});

describe('poller: the request budget', () => {
  it('keeps quiet reads within maxRpm and bursts within the burst limit; a quiet read held up holds up no burst', async () => {
    const p = await startPolling({
      maxRpm: 8,
      intervals: { visibleMs: 10, headerMs: 10, backgroundMs: 10, rareMs: 10 },
    });
    await sleep(3_000);
    const threads = p.log.filter((r) => r.path.startsWith('/v1/leads/'));
    const others = p.log.length - threads.length;
    expect(others).toBeGreaterThan(0);
    expect(others).toBeLessThanOrEqual(8);
    // The threads never read are read as a burst (burstRpmFor(8) a minute), although every quiet read is
    // overdue all the while and waits on its limit: the quiet reads do not stand in the burst's way.
    expect(threads.length).toBeGreaterThan(8);
    // The poller itself stops short of the budget, keeping a share for staff.
    const burst = burstRpmFor(8);
    expect(p.log.length).toBeLessThanOrEqual(burst - Math.ceil(burst * 0.2));
    expect(p.session.budget.usedInLastMinute).toBe(p.log.length);
    expect(p.session.budget.available).toBeGreaterThanOrEqual(1);
    expect(p.session.budget.availableFor('burst')).toBeGreaterThanOrEqual(1);
  });

  it('refresh keys use the budget too: never more than maxRpm, the rest waits', async () => {
    // A short call deadline: waiting for the budget is not "no answer from the API".
    const p = await startPolling({ maxRpm: 14, intervals: SLOW, client: { deadlineMs: 400 } });
    await p.waitUntil(() => p.log.length === FIRST_PASS && p.log.every((r) => r.status === 200));
    const states = new Set<string>();
    p.session.store.subscribe((state) => states.add(state.connection.state));
    for (let i = 0; i < 3; i += 1) {
      p.session.poller.refreshAll();
      await sleep(100);
    }
    await sleep(900);
    expect(p.log).toHaveLength(14);
    expect(p.session.budget.available).toBe(0);
    expect(p.state().connection).toEqual({ state: 'ok' });
    expect([...states]).toEqual(['ok']);
    // What waits for the budget is not shown as failed either.
    const failures = [p.state().me, p.state().billing, p.state().reviews, ...Object.values(p.state().inbox)]
      .map((loaded) => loaded.error?.code)
      .filter(Boolean);
    expect(failures).toEqual([]);
  });

  it('leaves the reserved share free so a user write goes through at once', async () => {
    const p = await startPolling({
      maxRpm: 5,
      intervals: { visibleMs: 10, headerMs: 10, backgroundMs: 10, rareMs: 10 },
    });
    // The poller reads until only the reserve is left of the quiet limit (1 of 5) and of the burst's
    // (a fifth of burstRpmFor(5), the threads never read), then waits.
    await p.waitUntil(() => p.log.length >= 4);
    await sleep(1_000);
    const settled = p.log.length;
    await sleep(500);
    expect(p.log).toHaveLength(settled);
    expect(settled).toBeLessThanOrEqual(burstRpmFor(5) - Math.ceil(burstRpmFor(5) * 0.2));

    const action = p.s.sim.shops.main.actions.find((a) => a.status === 'pending_approval');
    expect(action).toBeDefined();
    const before = Date.now();
    await p.session.approve(action?.id ?? '');
    expect(Date.now() - before).toBeLessThan(1_000);
    expect(p.state().decisions[action?.id ?? '']?.state).toBe('done');
    const writes = p.log.filter((r) => r.method === 'POST');
    expect(writes).toHaveLength(1);
    expect(writes[0]?.status).toBe(200);
  });
});

describe('poller: a redirect on every read', () => {
  it('backs off and says the API redirects (check the base URL), then recovers alone', async () => {
    const { startHostileServer } = await import('../support/hostile-server.js');
    const s = await startSim();
    const hostile = await startHostileServer({ upstream: s.baseUrl });
    try {
      hostile.behave({ kind: 'redirect', status: 302 });
      const session = createSession({
        visibleSlots: visibleReads,
        baseUrl: hostile.baseUrl,
        apiKey: s.sim.tokens.write,
        intervals: FAST,
        backoff: { baseMs: 200, maxMs: 800 },
      });
      sessions.push(session);
      session.start();
      const deadline = Date.now() + 5_000;
      while (session.store.getState().connection.state !== 'server_error') {
        if (Date.now() > deadline) throw new Error('no server_error state');
        await sleep(20);
      }
      const connection = session.store.getState().connection;
      expect(connection.state === 'server_error' && connection.message).toMatch(/redirect/);
      // Backing off: over 1.5 s, a handful of reads, not the dozens FAST intervals would make.
      const before = hostile.requests.length;
      await sleep(1_500);
      expect(hostile.requests.length - before).toBeLessThanOrEqual(6);
      // Nothing followed a redirect.
      expect(hostile.elsewhere.requests).toEqual([]);
      hostile.reset();
      const recovered = Date.now() + 5_000;
      while (session.store.getState().connection.state !== 'ok') {
        if (Date.now() > recovered) throw new Error('did not recover');
        await sleep(20);
      }
    } finally {
      await hostile.close();
    }
  });
});

describe('poller: the picture of every conversation beside the thread on screen', () => {
  it('reads the thread on screen at the burst pace when it is the next to read for a new text', async () => {
    // The thread beside the list (wide screen) is read once a minute as a visible slot; it is also the likeliest
    // to hold a new text (the shop spoke last in it, a moment ago), so the burst wants it first. The burst must
    // not wait a minute for the screen's next read of it.
    const p = await startPolling({
      maxRpm: 120,
      simOptions: { hints: 'none' },
      intervals: { ...SLOW, burstMs: 0 },
      visibleSlots: (state) => {
        const first = state.inbox.open.data?.open_leads[0];
        return [
          { kind: 'inbox', filter: 'open' },
          ...(first ? [{ kind: 'lead' as const, id: first.id }] : []),
        ];
      },
    });
    await p.waitUntil(() => p.state().inbox.open.data !== undefined);
    const open = p.state().inbox.open.data?.open_leads ?? [];
    const [beside, writer] = [open[0], open.at(-1)];
    if (!beside || !writer || open.length < 10) throw new Error('the seed has too few open leads');
    p.s.sim.shops.main.leads
      .find((lead) => lead.id === beside.id)
      ?.messages.push({
        id: 'msg_answered_now',
        direction: 'outbound',
        body: 'We can come at 9.',
        occurredAt: Date.now(),
      });
    p.session.poller.request({ kind: 'lead', id: beside.id });
    await p.waitUntil(
      () =>
        p.state().leads[beside.id]?.data?.messages.some((message) => message.id === 'msg_answered_now') ===
          true && threadsToRead(p.state()).length === 0,
      10_000,
    );

    p.s.sim.receiveText(writer.id, 'Is Monday still on?');
    p.session.poller.request({ kind: 'inbox', filter: 'open' });
    const named = () =>
      (p.state().inbox.open.data?.latest_inbound ?? []).some(
        (preview) =>
          preview.body_preview.startsWith('Is Monday still on?') &&
          previewSender(p.state(), preview).kind === 'matched',
      );
    // Named within seconds: the burst did not wait a minute for the screen's next read of the likeliest thread.
    await p.waitUntil(named, 10_000);
  });
});
