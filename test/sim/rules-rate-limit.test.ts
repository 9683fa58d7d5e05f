/**
 * The per-token limit of the simulator, over raw HTTP: 120 requests per
 * sliding minute on each token across all /v1 calls; the 121st gets 429
 * rate_limited with Retry-After in whole seconds; refused requests do not count.
 */
import { describe, expect, it } from 'vitest';
import type { TokenName } from '../../src/sim/world.js';
import { manualClock, startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;

const SECOND = 1000;

/** A rotating mix of read calls across the endpoints, all of which answer 200. */
function mixedPaths(t: TestSim): string[] {
  const lead = t.sim.shops.main.leads[0];
  if (!lead) throw new Error('seed has no lead');
  return [
    '/me',
    '/today?limit=3',
    '/billing',
    '/texting',
    '/inbox',
    '/inbox?filter=callbacks',
    '/contacts?q=a',
    `/leads/${lead.id}`,
    '/reviews?limit=5',
    '/actions?status=published',
  ];
}

/** `count` requests on the token, cycling through the mix; returns the statuses. */
async function burst(t: TestSim, count: number, token: TokenName = 'write'): Promise<number[]> {
  const paths = mixedPaths(t);
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const path = paths[i % paths.length] ?? '/me';
    const res = await t.fetch(path, { token });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

const all = (n: number, status: number) => Array<number>(n).fill(status);

/** A 429 rate_limited answer; returns its Retry-After header. */
async function expectLimited(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(429);
  const body = JSON.parse(text) as Json;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe('rate_limited');
  expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  return retryAfter ?? '';
}

describe('sim rules: 120 requests per minute per token', () => {
  it('lets 120 mixed calls through and answers the 121st with 429 and a Retry-After of 1..60 s', async () => {
    const t = await startSim();
    expect(await burst(t, 120)).toEqual(all(120, 200));
    const retryAfter = Number(await expectLimited(await t.fetch('/me')));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Writes and the other paths are limited too: the count is over all /v1 calls on the token.
    const contact = t.sim.shops.main.contacts[0];
    const send = await t.fetch(`/contacts/${contact?.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'should be refused' }),
    });
    await expectLimited(send);
    await expectLimited(await t.fetch('/nope'));
    expect(
      t.sim.shops.main.leads.flatMap((l) => l.messages).some((m) => m.body === 'should be refused'),
    ).toBe(false);
    const logged = await t.requests();
    expect(logged.slice(-3).map((r) => [r.status, r.token])).toEqual([
      [429, 'write'],
      [429, 'write'],
      [429, 'write'],
    ]);
  });

  it('counts writes, 404s and 422s in the same minute as reads', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[0];
    const send = await t.fetch(`/contacts/${contact?.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Be there at 3.' }),
    });
    expect(send.status).toBe(200);
    expect((await t.fetch('/leads/lead_0000000000')).status).toBe(404);
    expect((await t.fetch('/reviews?limit=0')).status).toBe(422);
    expect(await burst(t, 117)).toEqual(all(117, 200));
    await expectLimited(await t.fetch('/me'));
  });

  it('with a manual clock: Retry-After is the whole seconds until the oldest counted call leaves the window', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    expect(await burst(t, 60)).toEqual(all(60, 200)); // at 0 s
    clock.advance(20 * SECOND);
    expect(await burst(t, 60)).toEqual(all(60, 200)); // at 20 s
    expect(await expectLimited(await t.fetch('/me'))).toBe('40');
    clock.advance(250); // 39.75 s left: rounded up
    expect(await expectLimited(await t.fetch('/today'))).toBe('40');
    clock.advance(39 * SECOND); // 0.75 s left
    expect(await expectLimited(await t.fetch('/inbox'))).toBe('1');
    clock.advance(750); // 60 s after the first burst: those 60 leave the window
    expect(await burst(t, 60)).toEqual(all(60, 200));
    // Now the oldest counted calls are the second burst, made at 20 s; it is 60 s now.
    expect(await expectLimited(await t.fetch('/me'))).toBe('20');
    clock.advance(20 * SECOND);
    expect(await burst(t, 60)).toEqual(all(60, 200));
    expect(await expectLimited(await t.fetch('/me'))).toBe('40');
  });

  it('with all 120 calls at one instant, Retry-After is 60 and the window reopens exactly 60 s later', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    expect(await burst(t, 120)).toEqual(all(120, 200));
    expect(await expectLimited(await t.fetch('/me'))).toBe('60');
    clock.advance(60 * SECOND - 1);
    expect(await expectLimited(await t.fetch('/me'))).toBe('1');
    clock.advance(1);
    expect((await t.fetch('/me')).status).toBe(200);
  });

  it('limits each token on its own: read and other_shop pass while write is limited', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    expect(await burst(t, 120, 'write')).toEqual(all(120, 200));
    await expectLimited(await t.fetch('/me', { token: 'write' }));
    expect((await t.fetch('/me', { token: 'read' })).status).toBe(200);
    expect((await t.fetch('/actions', { token: 'other_shop' })).status).toBe(200);
    await expectLimited(await t.fetch('/me', { token: 'write' }));
    // The read key of the same shop has a full minute of its own.
    expect(await burst(t, 119, 'read')).toEqual(all(119, 200));
    await expectLimited(await t.fetch('/me', { token: 'read' }));
    // The mix's main-shop lead is another shop's record for other_shop: 404, and still counted.
    expect(await burst(t, 119, 'other_shop')).toEqual(all(119, 200).map((s, i) => (i % 10 === 7 ? 404 : s)));
    await expectLimited(await t.fetch('/me', { token: 'other_shop' }));
  });

  it('does not count refused (429) calls: after the window passes exactly 120 pass again', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    expect(await burst(t, 120)).toEqual(all(120, 200));
    clock.advance(30 * SECOND);
    expect(await burst(t, 30)).toEqual(all(30, 429));
    clock.advance(30 * SECOND);
    expect(await burst(t, 120)).toEqual(all(120, 200));
    expect(await expectLimited(await t.fetch('/me'))).toBe('60');
  });

  it('does not count calls without a valid token against any token', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    for (let i = 0; i < 30; i += 1) {
      expect((await t.fetch('/me', { token: null })).status).toBe(401);
    }
    expect(await burst(t, 120)).toEqual(all(120, 200));
    await expectLimited(await t.fetch('/me'));
  });
});
