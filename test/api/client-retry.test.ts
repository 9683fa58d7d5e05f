import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/api/errors.js';
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter } from '../../src/api/retry-policy.js';
import { recordingSleep, startSim } from '../support/sim.js';

const statuses = async (t: Awaited<ReturnType<typeof startSim>>) => (await t.requests()).map((r) => r.status);

describe('retry policy', () => {
  it('retries 5xx on a GET with backoff, then succeeds', async () => {
    const t = await startSim();
    const waits = recordingSleep();
    t.sim.faults.failNext({ kind: 'status', status: 503 });
    t.sim.faults.failNext({ kind: 'status', status: 500 });
    const me = await t.client('write', { sleep: waits.sleep, random: () => 0.5 }).getMe();
    expect(me.identity.business_name).toBeTruthy();
    expect(await statuses(t)).toEqual([503, 500, 200]);
    expect(waits.waits).toHaveLength(2);
    expect(waits.waits[1]).toBeGreaterThan(waits.waits[0] ?? 0);
  });

  it('waits Retry-After on a 429, then succeeds', async () => {
    const t = await startSim();
    const waits = recordingSleep();
    t.sim.faults.rateLimitBurst(2, 3);
    await t.client('write', { sleep: waits.sleep }).getTexting();
    expect(await statuses(t)).toEqual([429, 429, 200]);
    expect(waits.waits).toEqual([3000, 3000]);
  });

  it('honours a real one-second Retry-After with a real clock', async () => {
    const t = await startSim();
    t.sim.faults.rateLimitBurst(1, 1);
    const started = performance.now();
    await t.client().getBilling();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(await statuses(t)).toEqual([429, 200]);
  });

  it('retries network resets and malformed bodies on a GET', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'reset' });
    t.sim.faults.failNext({ kind: 'malformed' });
    const reviews = await t.client('write', { sleep: recordingSleep().sleep }).getReviews();
    expect(reviews.items.length).toBeGreaterThan(0);
    expect(await statuses(t)).toEqual([0, 200, 200]);
  });

  it('retries a hung attempt after the per-attempt timeout', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' });
    const client = t.client('write', { attemptTimeoutMs: 150, sleep: recordingSleep().sleep });
    await expect(client.getMe()).resolves.toBeDefined();
    expect((await t.requests()).map((r) => r.path)).toEqual(['/v1/me', '/v1/me']);
  });

  it('never retries 401, 403, 404 or 422', async () => {
    const t = await startSim();
    const waits = recordingSleep();
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: ApiError) => e.code,
      );
    expect(
      await fail(t.client('read', { sleep: waits.sleep }).draftReply(t.sim.shops.main.reviews[0]?.id ?? '')),
    ).toBe('read_only');
    expect(await fail(t.client('no_subscription', { sleep: waits.sleep }).getMe())).toBe('no_subscription');
    expect(await fail(t.client('write', { sleep: waits.sleep }).getLead('lead_nope'))).toBe('not_found');
    const contact = t.sim.shops.main.contacts[0]?.id ?? '';
    expect(
      await fail(
        t.client('write', { sleep: waits.sleep }).sendText(contact, '', { idempotencyKey: 'a-key' }),
      ),
    ).toBe('invalid');
    t.sim.rotateToken('write');
    expect(await fail(t.client('write', { apiKey: 'shk_stale', sleep: waits.sleep }).getMe())).toBe(
      'unauthorized',
    );
    expect(await statuses(t)).toEqual([403, 403, 404, 422, 401]);
    expect(waits.waits).toEqual([]);
  });

  it('gives up after maxAttempts with the last error and the attempt count', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'status', status: 504 }, 10);
    const error = await t
      .client('write', { retry: { maxAttempts: 3 }, sleep: recordingSleep().sleep })
      .getMe()
      .catch((e: ApiError) => e);
    expect(error).toMatchObject({ code: 'server', status: 504, attempts: 3 });
    expect(await statuses(t)).toEqual([504, 504, 504]);
  });

  it('does not wait past the overall deadline: a long Retry-After comes back at once', async () => {
    const t = await startSim();
    const waits = recordingSleep();
    t.sim.faults.rateLimitBurst(1, 120);
    const error = await t
      .client('write', { deadlineMs: 30_000, sleep: waits.sleep })
      .getInbox()
      .catch((e: ApiError) => e);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfter: 120, attempts: 1 });
    expect(waits.waits).toEqual([]);
    expect(await statuses(t)).toEqual([429]);
  });

  it('bounds the whole call, every attempt and wait, by the deadline', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' }, 10);
    const started = performance.now();
    const error = await t
      .client('write', {
        attemptTimeoutMs: 200,
        deadlineMs: 500,
        retry: { maxAttempts: 10, baseDelayMs: 50 },
      })
      .getMe()
      .catch((e: ApiError) => e);
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ code: 'timeout' });
    expect(elapsed).toBeLessThan(1500);
    expect((await t.requests()).length).toBeGreaterThanOrEqual(2);
    expect((await t.requests()).length).toBeLessThanOrEqual(3);
  });

  it('reports each wait so a UI can say "retrying in N s"', async () => {
    const t = await startSim();
    const seen: Array<{ attempt: number; delayMs: number; code: string }> = [];
    t.sim.faults.rateLimitBurst(1, 2);
    await t
      .client('write', {
        sleep: recordingSleep().sleep,
        onRetry: (info) => seen.push({ attempt: info.attempt, delayMs: info.delayMs, code: info.error.code }),
      })
      .getMe();
    expect(seen).toEqual([{ attempt: 1, delayMs: 2000, code: 'rate_limited' }]);
  });
});

describe('POST retries and idempotency', () => {
  it('never retries a POST without an Idempotency-Key', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[0]?.id ?? '';
    t.sim.faults.failNext({ kind: 'status', status: 503 });
    const error = await t
      .client('write', { sleep: recordingSleep().sleep })
      .sendText(contact, 'Running late, there by 3')
      .catch((e: ApiError) => e);
    expect(error).toMatchObject({ code: 'server', attempts: 1 });
    const action = t.sim.shops.main.actions.find((a) => a.status === 'pending_approval')?.id ?? '';
    t.sim.faults.failNext({ kind: 'status', status: 502 });
    expect(
      await t
        .client()
        .decideAction(action)
        .catch((e: ApiError) => e.code),
    ).toBe('server');
    t.sim.faults.rateLimitBurst(1, 1);
    expect(
      await t
        .client()
        .draftReply(t.sim.shops.main.reviews[0]?.id ?? '')
        .catch((e: ApiError) => e.code),
    ).toBe('rate_limited');
    expect(await statuses(t)).toEqual([503, 502, 429]);
  });

  it('retries a send with a key when the answer is lost, and the text goes out once', async () => {
    const t = await startSim();
    const shop = t.sim.shops.main;
    const contact = shop.contacts.find((c) => shop.leads.some((l) => l.contactId === c.id));
    if (!contact) throw new Error('no contact with a lead');
    const outboundCount = () =>
      shop.leads
        .filter((l) => l.contactId === contact.id)
        .flatMap((l) => l.messages)
        .filter((m) => m.direction === 'outbound' && m.body === 'Tech is 10 min away').length;

    t.sim.faults.failNext({ kind: 'drop_response' });
    const result = await t
      .client('write', { sleep: recordingSleep().sleep })
      .sendText(contact.id, 'Tech is 10 min away', {
        idempotencyKey: '4b1c7a9e-2f0d-4c1e-9a51-6f7d8e9a0b1c',
      });
    expect(result).toEqual({ sent: true, replayed: true });
    expect(outboundCount()).toBe(1);
    expect(await statuses(t)).toEqual([0, 200]);
  });

  it('replays the same key later (after a crash) without sending again', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[1]?.id ?? '';
    const key = '0d3c2b1a-9f8e-4d7c-8b6a-5f4e3d2c1b0a';
    expect(await t.client().sendText(contact, 'See you at 9', { idempotencyKey: key })).toEqual({
      sent: true,
      replayed: false,
    });
    expect(await t.client().sendText(contact, 'See you at 9', { idempotencyKey: key })).toEqual({
      sent: true,
      replayed: true,
    });
    const credits = t.sim.shops.main.credits.used;
    await t.client().sendText(contact, 'See you at 9', { idempotencyKey: key });
    expect(t.sim.shops.main.credits.used).toBe(credits);
  });
});

describe('retry arithmetic', () => {
  it('backs off exponentially with equal jitter, capped', () => {
    const options = { ...DEFAULT_RETRY, baseDelayMs: 500, maxDelayMs: 8000 };
    expect(backoffDelay(1, options, () => 0)).toBe(250);
    expect(backoffDelay(1, options, () => 0.999999)).toBe(500);
    expect(backoffDelay(3, options, () => 0)).toBe(1000);
    expect(backoffDelay(10, options, () => 0)).toBe(4000);
    expect(backoffDelay(10, options, () => 0.999999)).toBe(8000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
