/**
 * The first screen's reads, awaited before the UI loads (src/session/first-reads.ts): over a real socket
 * to the simulator, the wait ends when the shop and its first list are in, when they answered with an
 * error, or at its limit when the list never comes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../src/session/create-session.js';
import { firstReads, firstReadsAnswered } from '../../src/session/first-reads.js';
import { type HostileServer, startHostileServer } from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';

const sessions: Session[] = [];
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  for (const server of servers.splice(0)) await server.close();
});

function started(baseUrl: string, apiKey: string): Session {
  const session = createSession({
    baseUrl,
    apiKey,
    maxRpm: 120,
    visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
  });
  sessions.push(session);
  session.start();
  return session;
}

/** Longer than any test may run: a wait that ends, ends because the reads answered. */
const NEVER_MS = 600_000;

describe('the first reads before the UI', () => {
  it('end when the shop and its open leads are in', async () => {
    const { sim, baseUrl } = await startSim();
    const session = started(baseUrl, sim.tokens.write);
    expect(firstReadsAnswered(session.store.getState())).toBe(false);
    await firstReads(session.store, NEVER_MS);
    const { me, inbox } = session.store.getState();
    expect(me.data?.identity.business_name).toBe('Rivera Plumbing & Heating');
    expect(inbox.open.data?.open_leads.length).toBeGreaterThan(0);
  });

  it('end when they answered with an error (a key the shop refuses)', async () => {
    const { baseUrl } = await startSim();
    const session = started(baseUrl, 'sk_live_not_a_key_of_this_shop');
    await firstReads(session.store, NEVER_MS);
    const { me, inbox } = session.store.getState();
    expect(me.error).toBeDefined();
    expect(inbox.open.error).toBeDefined();
  });

  it('end at their limit while the list never comes: the inbox is then drawn loading', async () => {
    const { sim, baseUrl } = await startSim();
    const hostile = await startHostileServer({ upstream: baseUrl });
    servers.push(hostile);
    hostile.behave({ kind: 'hang' }, 'getInbox');
    const session = started(hostile.baseUrl, sim.tokens.write);
    await firstReads(session.store, 200);
    expect(firstReadsAnswered(session.store.getState())).toBe(false);
    expect(session.store.getState().inbox.open.data).toBeUndefined();
  });

  it('end at once when they are already in', async () => {
    const { sim, baseUrl } = await startSim();
    const session = started(baseUrl, sim.tokens.write);
    await firstReads(session.store, NEVER_MS);
    let ended = false;
    void firstReads(session.store, NEVER_MS).then(() => {
      ended = true;
    });
    await Promise.resolve();
    expect(ended).toBe(true);
  });
});
