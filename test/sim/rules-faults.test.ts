/**
 * The simulator's fault injection, over raw HTTP: scripted 5xx, malformed
 * bodies, resets, hangs, 429 bursts, added latency and dropped responses,
 * and the paths faults never touch.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;

function threadOf(t: TestSim) {
  const shop = t.sim.shops.main;
  const lead = shop.leads.find(
    (l) =>
      ['new', 'contacted', 'scheduled'].includes(l.status) &&
      shop.leads.filter((other) => other.contactId === l.contactId).length === 1,
  );
  if (!lead) throw new Error('seed has no contact with exactly one open lead');
  return lead;
}

describe('sim rules: fault injection', () => {
  it.each([500, 502, 503, 504] as const)(
    'failNext status %i answers that status once, then normally',
    async (status) => {
      const t = await startSim();
      t.sim.faults.failNext({ kind: 'status', status });
      const failed = await t.fetch('/me');
      expect(failed.status).toBe(status);
      const body = (await failed.json()) as Json;
      expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
      expect(typeof body.code).toBe('string');
      const next = await t.fetch('/me');
      expect(next.status).toBe(200);
      expect(Object.keys((await next.json()) as Json)).toEqual(['data']);
      expect((await t.requests()).map((r) => r.status)).toEqual([status, 200]);
    },
  );

  it('failNext with a count fails that many requests in order', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'status', status: 502 }, 2);
    t.sim.faults.failNext({ kind: 'status', status: 504 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await t.fetch('/billing');
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([502, 502, 504, 200]);
  });

  it('a malformed fault answers 200 with a body JSON.parse rejects', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'malformed' });
    const res = await t.fetch('/contacts');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const next = await t.fetch('/contacts');
    expect(next.status).toBe(200);
    expect(Object.keys((await next.json()) as Json)).toEqual(['data']);
  });

  it('a reset fault makes fetch reject and is logged with status 0', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'reset' });
    await expect(t.fetch('/inbox')).rejects.toThrow();
    const logged = await t.requests();
    expect(logged).toEqual([
      {
        method: 'GET',
        path: '/v1/inbox',
        query: '',
        status: 0,
        token: 'write',
        idempotencyKey: null,
        userAgent: 'node',
      },
    ]);
    expect((await t.fetch('/inbox')).status).toBe(200);
  });

  it('a hang fault never answers: a 300 ms timeout aborts the fetch, and closing the sim releases it', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' });
    const started = performance.now();
    const aborted = await t.fetch('/me', { signal: AbortSignal.timeout(300) }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(aborted).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect((await t.requests()).map((r) => r.status)).toEqual([0]);

    // A second hanging request with no timeout of its own: closing the simulator ends it.
    t.sim.faults.failNext({ kind: 'hang' });
    let settled = false;
    const pending = t.fetch('/me').then(
      (res) => {
        settled = true;
        return `status ${res.status}`;
      },
      () => {
        settled = true;
        return 'rejected';
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    const closeStarted = performance.now();
    await t.sim.close();
    expect(performance.now() - closeStarted).toBeLessThan(2000);
    expect(await pending).toBe('rejected');
  });

  it('a rate_limit burst of 2 with retryAfter 7 gives two 429 with Retry-After "7", then 200', async () => {
    const t = await startSim();
    t.sim.faults.rateLimitBurst(2, 7);
    for (let i = 0; i < 2; i += 1) {
      const res = await t.fetch('/reviews');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      const body = (await res.json()) as Json;
      expect(Object.keys(body).sort()).toEqual(['code', 'error']);
      expect(body.code).toBe('rate_limited');
      expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
    }
    const ok = await t.fetch('/reviews');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('retry-after')).toBeNull();
  });

  it('faults never apply to /_sim/requests or /openapi.json and stay queued for the next /v1 call', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'status', status: 503 });
    const log = await fetch(`${t.origin}/_sim/requests`);
    expect(log.status).toBe(200);
    expect(await log.json()).toEqual([]);
    for (const url of [`${t.origin}/openapi.json`, `${t.origin}/v1/openapi.json`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(((await res.json()) as Json).openapi).toBe('3.1.0');
    }
    t.sim.faults.failNext({ kind: 'malformed' });
    const doc = await fetch(`${t.origin}/v1/openapi.json`);
    expect(((await doc.json()) as Json).openapi).toBe('3.1.0');
    expect((await fetch(`${t.origin}/_sim/requests`)).status).toBe(200);
    // Both scripted faults are still waiting for real /v1 calls.
    expect((await t.fetch('/me')).status).toBe(503);
    const malformed = await t.fetch('/me');
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    expect((await t.fetch('/me')).status).toBe(200);
  });

  it('latencyMs of 150 delays an answer by at least 140 ms', async () => {
    const t = await startSim({ faults: { latencyMs: 150 } });
    const started = performance.now();
    const res = await t.fetch('/me');
    await res.json();
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(140);
  });

  it('drop_response on a send: the fetch fails but the text was sent', async () => {
    const t = await startSim();
    const lead = threadOf(t);
    const before = lead.messages.length;
    t.sim.faults.failNext({ kind: 'drop_response' });
    const text = 'Your invoice is ready — reply YES to confirm.';
    await expect(
      t.fetch(`/contacts/${lead.contactId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'drop-1' },
        body: JSON.stringify({ body: text }),
      }),
    ).rejects.toThrow();
    const res = await t.fetch(`/leads/${lead.id}?limit=100`);
    const { data } = (await res.json()) as { data: { messages: { direction: string; body: string }[] } };
    expect(data.messages).toHaveLength(before + 1);
    expect(data.messages.at(-1)).toMatchObject({ direction: 'outbound', body: text });
    const logged = await t.requests();
    expect(logged[0]).toEqual({
      method: 'POST',
      path: `/v1/contacts/${lead.contactId}/messages`,
      query: '',
      status: 0,
      token: 'write',
      idempotencyKey: 'drop-1',
      body: { body: text },
      userAgent: 'node',
    });
    // A retry with the same key is recognised as a replay, not a second text.
    const retry = await t.fetch(`/contacts/${lead.contactId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'drop-1' },
      body: JSON.stringify({ body: text }),
    });
    expect(await retry.json()).toEqual({ data: { sent: true, replayed: true } });
    expect(lead.messages).toHaveLength(before + 1);
  });
});

describe('sim faults: long runs', () => {
  it('releases a hung request as soon as its client gives up', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' }, 3);
    const pending = [0, 1, 2].map(() =>
      t.fetch('/me', { signal: AbortSignal.timeout(300) }).catch(() => 'gave up'),
    );
    await vi.waitFor(() => expect(t.sim.hangingRequests).toBe(3), { timeout: 2_000 });
    expect(await Promise.all(pending)).toEqual(['gave up', 'gave up', 'gave up']);
    await vi.waitFor(() => expect(t.sim.hangingRequests).toBe(0), { timeout: 2_000 });
    expect((await t.fetch('/me')).status).toBe(200);
  });
});
