/**
 * An inbox or a wallboard open for weeks reads thousands of threads: the poller remembers when it read each
 * record (a lead's thread, a contacts search) only for the most recent KEPT_RECORD_READS of them, and always
 * for the lists. Driven with real answers of the simulator, handed to the poller as a hub would hand them.
 */
import { afterEach, expect, it } from 'vitest';
import { KEPT_RECORD_READS } from '../../src/poller/poller.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { startSim, type TestSim } from '../support/sim.js';

let session: Session | undefined;
afterEach(() => {
  session?.close();
});

it('remembers the newest record reads only, however many threads were read', async () => {
  const sim: TestSim = await startSim();
  session = createSession({ baseUrl: sim.baseUrl, apiKey: sim.sim.tokens.write });
  const leadId = sim.sim.shops.main.leads[0]?.id ?? '';
  const lead = await session.client.getLead(leadId);
  const contacts = await session.client.getContacts({});
  const me = await session.client.getMe();
  const { poller } = session;
  poller.accept({ kind: 'me' }, me, 1);
  poller.accept({ kind: 'contacts', query: '' }, contacts, 1);
  for (let index = 0; index < 4 * KEPT_RECORD_READS; index += 1) {
    poller.accept({ kind: 'lead', id: `lead-${index}` }, lead, 10 + index);
    if (index % 3 === 0) poller.accept({ kind: 'contacts', query: `q${index}` }, contacts, 10 + index);
  }
  // The lists (me, the contacts list) and at most KEPT_RECORD_READS records.
  expect(poller.remembered).toBeLessThanOrEqual(KEPT_RECORD_READS + 2);
  expect(poller.remembered).toBeGreaterThanOrEqual(KEPT_RECORD_READS);

  // A newer copy of a kept record is stored; an older one is refused as stale (it is still remembered).
  const newest = `lead-${4 * KEPT_RECORD_READS - 1}`;
  const before = session.store.getState().leads[newest];
  expect(before).toBeDefined();
  poller.accept({ kind: 'lead', id: newest }, lead, 5);
  expect(session.store.getState().leads[newest]).toBe(before);
  // The lists are never forgotten: an older copy of me is refused too.
  const meBefore = session.store.getState().me;
  poller.accept({ kind: 'me' }, me, 0);
  expect(session.store.getState().me).toBe(meBefore);
});
