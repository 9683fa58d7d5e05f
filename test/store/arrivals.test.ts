/**
 * What counts as news, against the simulator over a real socket (a session
 * polling as the wallboard does, no UI): nothing that was there at start-up,
 * each new item once, however often its lists are read again, and not again
 * when it leaves a list and comes back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { storeData } from '../../src/poller/store-writes.js';
import { wallboardReads } from '../../src/poller/wallboard-reads.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { createAppStore } from '../../src/store/app-store.js';
import { type Arrival, createArrivals } from '../../src/store/arrivals.js';
import { startSim, type TestSim } from '../support/sim.js';

const sessions: Session[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session reading every list behind a notification every ~100 ms, and what arrived, as it arrived. */
function watch(sim: TestSim) {
  const session = createSession({
    baseUrl: sim.baseUrl,
    apiKey: sim.sim.tokens.read,
    readOnly: true,
    // Many rounds of reads in a few seconds: this test is about what is news, not about the budget.
    maxRpm: 6_000,
    view: 'wallboard',
    visibleSlots: wallboardReads,
    intervals: { visibleMs: 50, headerMs: 50, backgroundMs: 50, rareMs: 60_000 },
  });
  sessions.push(session);
  const arrivals = createArrivals();
  const arrived: Arrival[] = [];
  session.store.subscribe((state) => arrived.push(...arrivals(state)));
  session.start();
  /** Waits until each list behind a notification has been read `times` more times. */
  const rounds = async (times: number) => {
    const start = (await sim.requests()).length;
    const lists = ['filter=callbacks', 'filter=open', 'status=pending_approval', ''];
    for (;;) {
      const log = (await sim.requests()).slice(start);
      const counts = lists.map(
        (query) =>
          log.filter((request) => (query ? request.query.includes(query) : request.path.endsWith('/today')))
            .length,
      );
      if (counts.every((count) => count >= times)) return;
      await sleep(50);
    }
  };
  return { session, arrived, rounds };
}

describe('arrivals: what is news', () => {
  it('nothing at start-up; a new missed call once, also when it leaves its lists and comes back', async () => {
    const sim = await startSim({ rateLimitPerMinute: 6_000 });
    const { arrived, rounds } = watch(sim);
    await rounds(3);
    // Missed calls, same-day leads, texts and pending actions are all there at start: none is news.
    expect(arrived).toEqual([]);

    sim.sim.inject('missed_call');
    const lead = sim.sim.shops.main.leads.at(-1);
    if (!lead) throw new Error('no lead');
    // Same-day and a missed call: one item, said once.
    lead.urgency = 'same_day';
    await rounds(3);
    expect(arrived).toHaveLength(1);
    expect(['missed_call', 'same_day']).toContain(arrived[0]?.event);

    // It leaves every list (closed on the dashboard), then comes back (reopened).
    lead.status = 'won';
    await rounds(2);
    lead.status = 'new';
    await rounds(3);
    expect(arrived).toHaveLength(1);

    // Something else new is news: a text, then an action awaiting approval.
    expect(sim.sim.inject('inbound_text')).not.toBeNull();
    expect(sim.sim.inject('action')).not.toBeNull();
    await rounds(3);
    expect(
      arrived
        .slice(1)
        .map((arrival) => arrival.event)
        .sort(),
    ).toEqual(['inbound_text', 'pending_action']);
  }, 60_000);

  it('a missed call that arrived between the first read of one list and of another is news all the same', async () => {
    const sim = await startSim();
    const client = sim.client('read');
    const store = createAppStore({ view: 'wallboard' });
    const arrivals = createArrivals();
    const read = async (filter: 'open' | 'callbacks') =>
      storeData(store, { kind: 'inbox', filter }, await client.getInbox({ filter, limit: 50 }), Date.now());
    await read('open');
    expect(arrivals(store.getState())).toEqual([]);
    // The open leads were read; a missed call comes in before the callbacks are read the first time.
    sim.sim.inject('missed_call');
    const lead = sim.sim.shops.main.leads.at(-1);
    if (lead) lead.urgency = 'this_week';
    await read('callbacks');
    const caller = sim.sim.shops.main.contacts.find((contact) => contact.id === lead?.contactId);
    // Only it: the other missed calls in that first copy were there at start-up.
    expect(arrivals(store.getState())).toEqual([
      { event: 'missed_call', text: expect.stringContaining(`Missed call: ${caller?.name}`) },
    ]);
    await read('open');
    await read('callbacks');
    expect(arrivals(store.getState())).toEqual([]);
  });
});
