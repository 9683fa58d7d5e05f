/**
 * No read can hang: the per-attempt timeout and the call's deadline are
 * timers the client holds, and they cover the body as well as the headers,
 * against a server that trickles bytes just fast enough to look alive. They
 * fire under garbage-collection pressure too: on Node 20 a timeout signal
 * inside AbortSignal.any can be collected and never fire (nodejs/node#57736).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../src/session/create-session.js';
import { until } from '../support/until.js';
import { clientOf, hostile, failure as outcome } from './hostile-client.js';

const sessions: Session[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

/** V8's collector, exposed at run time (the test runner does not start workers with --expose-gc). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Runs `work` while collecting garbage every few milliseconds. */
async function underGcPressure<T>(work: () => Promise<T>): Promise<T> {
  const gc = exposeGc();
  const timer = setInterval(gc, 5);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

describe('the per-attempt timeout', () => {
  it('fires while the headers arrive a byte at a time', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'headers', delayMs: 20 });
    const { error, ms } = await outcome(clientOf(server, { attemptTimeoutMs: 300 }).getMe());
    expect(error).toMatchObject({ code: 'timeout', status: 0, attempts: 1 });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1_500);
  });

  it('covers the body: fires while the body arrives a byte at a time', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', delayMs: 20 });
    const { error, ms } = await outcome(clientOf(server, { attemptTimeoutMs: 300 }).getMe());
    expect(error).toMatchObject({ code: 'timeout', status: 0 });
    expect(ms).toBeLessThan(1_500);
    // The server saw its connection dropped: nothing keeps reading the trickle.
    await until(() => (server.requests[0]?.closedEarly ? true : undefined), 2_000);
  });

  it('covers an endless body that stays under the size cap', async () => {
    const server = await hostile();
    server.behave({ kind: 'endless', bytesPerSecond: 20_000 });
    const { error, ms } = await outcome(clientOf(server, { attemptTimeoutMs: 300 }).getInbox());
    expect(error).toMatchObject({ code: 'timeout' });
    expect(ms).toBeLessThan(1_500);
  });

  it('retries after a trickled attempt and succeeds, within the deadline', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 10 });
    const client = clientOf(server, {
      attemptTimeoutMs: 200,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const call = client.getMe();
    await until(() => (server.requests.length > 0 ? true : undefined));
    server.reset();
    await expect(call).resolves.toMatchObject({ identity: { business_name: 'Hostile Plumbing' } });
    expect(server.requests.map((request) => request.behaviour)).toEqual(['trickle', 'normal']);
  });
});

describe('the deadline', () => {
  it('bounds a call whose every attempt trickles, body reads included', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 10 });
    const client = clientOf(server, {
      attemptTimeoutMs: 10_000,
      deadlineMs: 400,
      retry: { maxAttempts: 4 },
    });
    const { error, ms } = await outcome(client.getMe());
    expect(error).toMatchObject({ code: 'timeout', attempts: 1 });
    expect(error.message).toBe("no answer from the shop's API within 0.4 s");
    expect(ms).toBeLessThan(1_500);
  });

  it("the caller's cancel ends a trickling body read at once", async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 10 });
    const controller = new AbortController();
    const call = clientOf(server).getMe({ signal: controller.signal });
    await until(() => ((server.requests[0]?.bytesSent ?? 0) > 5 ? true : undefined));
    controller.abort();
    const { error, ms } = await outcome(call);
    expect(error).toMatchObject({ code: 'aborted' });
    expect(ms).toBeLessThan(500);
  });
});

describe('timers the client holds fire under garbage-collection pressure', () => {
  it('when no header ever comes', async () => {
    const server = await hostile();
    server.behave({ kind: 'hang' });
    const client = clientOf(server, { attemptTimeoutMs: 300, deadlineMs: 6_000 });
    const { error, ms } = await underGcPressure(() => outcome(client.getMe()));
    expect(error).toMatchObject({ code: 'timeout' });
    // The attempt's timer, not the (held) deadline: a collected timeout would leave 6 s.
    expect(ms).toBeLessThan(2_000);
  });

  it('when the body trickles', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 5 });
    const client = clientOf(server, { attemptTimeoutMs: 300, deadlineMs: 6_000 });
    const { error, ms } = await underGcPressure(() => outcome(client.getMe()));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(ms).toBeLessThan(2_000);
  });

  it('for many calls in a row', async () => {
    const server = await hostile();
    server.behave({ kind: 'hang' });
    const client = clientOf(server, { attemptTimeoutMs: 100, deadlineMs: 5_000 });
    await underGcPressure(async () => {
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: 20 }, () => outcome(client.getBilling())));
      expect(results.every(({ error }) => error.code === 'timeout')).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });
});

describe('a slow read never holds up the others beyond its own deadline', () => {
  it('at the client: other calls answer while one trickles', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 10 }, 'getInbox');
    const client = clientOf(server, { attemptTimeoutMs: 500 });
    const slow = outcome(client.getInbox());
    const started = performance.now();
    await expect(client.getMe()).resolves.toBeDefined();
    await expect(client.getBilling()).resolves.toBeDefined();
    expect(performance.now() - started).toBeLessThan(400);
    expect((await slow).error).toMatchObject({ code: 'timeout' });
  });

  it('in the inbox session (one read at a time): the rest is read once the slow read times out', async () => {
    const server = await hostile();
    server.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 10 }, 'getInbox');
    const session = createSession({
      baseUrl: server.baseUrl,
      apiKey: 'shk_test_key',
      maxRpm: 120,
      client: { attemptTimeoutMs: 400 },
      // The poller's own backoff after a failed read is another matter (tested with the poller).
      backoff: { baseMs: 50, maxMs: 100 },
    });
    sessions.push(session);
    const started = performance.now();
    session.start();
    const state = () => session.store.getState();
    await until(() => (state().inbox.open.error?.code === 'timeout' ? true : undefined), 3_000);
    await until(() => (state().me.data && state().billing.data ? true : undefined), 3_000);
    expect(state().me.data?.identity.business_name).toBe('Hostile Plumbing');
    // At most one attempt's time lost to the trickling read, plus the reads themselves.
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
