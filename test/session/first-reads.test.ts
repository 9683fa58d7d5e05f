/**
 * The first screen's reads, and the screen's code loaded beside them (src/session/first-reads.ts): over a
 * real socket to the simulator, the wait ends when the shop and its first list are in, when they answered
 * with an error, or at its limit when the list never comes; the code's load starts once the reads are on
 * their way, while they are still unanswered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../src/session/create-session.js';
import {
  firstReads,
  firstReadsAnswered,
  firstReadsAskedFor,
  firstReadsBeside,
} from '../../src/session/first-reads.js';
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

describe("the screen's code loaded beside the first reads", () => {
  it('starts loading once the reads are asked for, before they answer, and is handed over after they do', async () => {
    const { sim, baseUrl } = await startSim();
    const hostile = await startHostileServer({ upstream: baseUrl });
    servers.push(hostile);
    // The list's answer comes a byte at a time: it is on its way for a while, then answered.
    hostile.behave({ kind: 'trickle', part: 'headers', delayMs: 5 }, 'getInbox');
    const session = started(hostile.baseUrl, sim.tokens.write);
    let atLoad: ReturnType<typeof session.store.getState> | undefined;
    const { loaded } = await firstReadsBeside(
      [session.store],
      async () => {
        atLoad = session.store.getState();
        return 'the screen';
      },
      NEVER_MS,
    );
    // The load began while the list was on its way and unanswered; the wait ended with its answer.
    expect(atLoad && firstReadsAskedFor(atLoad)).toBe(true);
    expect(atLoad?.inbox.open.loading).toBe(true);
    expect(atLoad?.inbox.open.data).toBeUndefined();
    expect(firstReadsAnswered(session.store.getState())).toBe(true);
    expect(await loaded).toBe('the screen');
  });

  it('loads at its limit when the reads are never asked for (a session not started)', async () => {
    const { sim, baseUrl } = await startSim();
    const session = createSession({
      baseUrl,
      apiKey: sim.tokens.write,
      maxRpm: 120,
      visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
    });
    sessions.push(session);
    let loads = 0;
    const { loaded } = await firstReadsBeside(
      [session.store],
      async () => {
        loads += 1;
        return loads;
      },
      100,
    );
    expect(await loaded).toBe(1);
    expect(firstReadsAskedFor(session.store.getState())).toBe(false);
  });

  it('hands a failed load over to be awaited, not left unhandled while the reads are awaited', async () => {
    const { sim, baseUrl } = await startSim();
    const hostile = await startHostileServer({ upstream: baseUrl });
    servers.push(hostile);
    hostile.behave({ kind: 'hang' }, 'getInbox');
    const session = started(hostile.baseUrl, sim.tokens.write);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { loaded } = await firstReadsBeside(
        [session.store],
        () => Promise.reject(new Error('no such chunk')),
        200,
      );
      await expect(loaded).rejects.toThrow('no such chunk');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
