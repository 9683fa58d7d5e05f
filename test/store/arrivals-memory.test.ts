/**
 * A wallboard open for weeks sees tens of thousands of missed calls arrive: what it remembers of them
 * (to say each once) is bounded. Each missed call is news once while it is among the last REMEMBERED
 * ids; past that, the oldest are forgotten, so a call that comes back after thousands of others is
 * news again, and one that comes back soon after is not. Driven with a real answer of the simulator
 * (the callbacks list), copied with new ids as later reads would bring them.
 */
import { afterEach, expect, it } from 'vitest';
import { storeData } from '../../src/poller/store-writes.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { createArrivals, REMEMBERED } from '../../src/store/arrivals.js';
import { startSim } from '../support/sim.js';

let session: Session | undefined;
afterEach(() => {
  session?.close();
});

it('remembers the newest missed calls only, however many arrived', async () => {
  const sim = await startSim();
  session = createSession({ baseUrl: sim.baseUrl, apiKey: sim.sim.tokens.write });
  const page = await session.client.getInbox({ filter: 'callbacks' });
  const template = page.open_leads[0];
  expect(template).toBeDefined();
  if (!template) return;
  const startedAt = Date.parse('2026-11-26T09:00:00Z');
  const arrivals = createArrivals(startedAt, () => startedAt);
  const { store } = session;
  const slot = { kind: 'inbox', filter: 'callbacks' } as const;
  /** A read of the callbacks list holding these calls, all after start-up; what arrived with it. */
  const read = (ids: string[], at: number) => {
    const open_leads = ids.map((id) => ({
      ...template,
      id,
      created_at: new Date(startedAt + at).toISOString(),
    }));
    storeData(store, slot, { ...page, open_leads }, startedAt + at);
    return arrivals(store.getState()).map((arrival) => arrival.text);
  };
  const pageOf = (from: number) => Array.from({ length: 100 }, (_, index) => `ld_soak_${from + index}`);

  read([], 0);
  const first = read(['ld_soak_first'], 1);
  expect(first).toHaveLength(1);
  // Soon after, it comes back: not news again.
  read(pageOf(0), 2);
  expect(read(['ld_soak_first'], 3)).toEqual([]);
  // Thousands of other calls arrive, a page at a time: each is news once.
  const pages = Math.ceil(REMEMBERED / 100) + 1;
  let told = 0;
  for (let index = 1; index <= pages; index += 1) told += read(pageOf(index * 100), 10 + index).length;
  expect(told).toBe(pages * 100);
  // The first call has been forgotten, so memory stays bounded: it is news again when it comes back.
  expect(read(['ld_soak_first'], 10_000)).toEqual(first);
  // The latest page is still remembered: none of it is news again.
  expect(read(pageOf(pages * 100), 10_001)).toEqual([]);
});
