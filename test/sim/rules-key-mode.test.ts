/**
 * The order in which the simulator checks a write, which the inbox's probe of
 * a key's mode relies on (docs/api-assumptions.md): the key (401), the rate
 * limit (429), the plan (403 no_subscription), the key's mode (403
 * read_only), the body (422), and only then the record (404). So a write to a
 * record that cannot exist tells a read key (read_only) from a write key
 * (not_found) and changes nothing. And the mode of a key can be switched
 * while clients run, as in the shop's API settings (PUT /_sim/tokens/NAME/mode).
 */
import { describe, expect, it } from 'vitest';
import type { TokenName } from '../../src/sim/world.js';
import { startSim, type TestSim } from '../support/sim.js';

/** A review id no shop can hold: the probe's kind of id. */
const NO_SUCH_REVIEW = 'shop-inbox-mode-probe-0123456789abcdef';

async function status(res: Response): Promise<[number, unknown]> {
  const body = (await res.json()) as { code?: unknown };
  return [res.status, body.code];
}

const probe = (t: TestSim, init: { token: TokenName | null; headers?: Record<string, string> }) =>
  t.fetch(`/reviews/${NO_SUCH_REVIEW}/draft`, { method: 'POST', ...init });

async function setMode(t: TestSim, name: string, body: unknown): Promise<Response> {
  return fetch(`${t.origin}/_sim/tokens/${name}/mode`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('sim rules: a write to a record that cannot exist', () => {
  it('is refused read_only for a read key and not_found for a write key, and changes nothing', async () => {
    const t = await startSim();
    const before = JSON.stringify([...t.sim.world.shops.values()]);
    expect(await status(await probe(t, { token: 'read' }))).toEqual([403, 'read_only']);
    expect(await status(await probe(t, { token: 'write' }))).toEqual([404, 'not_found']);
    expect(await status(await probe(t, { token: 'other_shop' }))).toEqual([404, 'not_found']);
    // The same order on the other two writes: the mode is checked before the body and the record.
    const sendTo = (token: 'read' | 'write', body: string) =>
      t.fetch('/contacts/ct_no_such_contact/messages', {
        token,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect(await status(await sendTo('read', '{"body":"hi"}'))).toEqual([403, 'read_only']);
    expect(await status(await sendTo('read', '{"body":""}'))).toEqual([403, 'read_only']);
    expect(await status(await sendTo('write', '{"body":""}'))).toEqual([422, 'invalid']);
    expect(await status(await sendTo('write', '{"body":"hi"}'))).toEqual([404, 'not_found']);
    const decide = (token: 'read' | 'write', body: string) =>
      t.fetch('/actions/act_no_such_action/decide', {
        token,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect(await status(await decide('read', '{"status":"nope"}'))).toEqual([403, 'read_only']);
    expect(await status(await decide('write', '{"status":"approved"}'))).toEqual([404, 'not_found']);
    expect(JSON.stringify([...t.sim.world.shops.values()])).toBe(before);
  });

  it('meets the key, the rate limit and the plan before the mode', async () => {
    const t = await startSim({ rateLimitPerMinute: 2 });
    expect(await status(await probe(t, { token: null }))).toEqual([401, 'unauthorized']);
    expect(
      await status(
        await probe(t, { token: null, headers: { authorization: 'Bearer shk_never_issued_by_the_sim' } }),
      ),
    ).toEqual([401, 'unauthorized']);
    expect(await status(await probe(t, { token: 'no_subscription' }))).toEqual([403, 'no_subscription']);
    // The read key's minute: two requests pass, the third is 429 before its mode is looked at.
    expect(await status(await probe(t, { token: 'read' }))).toEqual([403, 'read_only']);
    expect(await status(await probe(t, { token: 'read' }))).toEqual([403, 'read_only']);
    expect(await status(await probe(t, { token: 'read' }))).toEqual([429, 'rate_limited']);
  });
});

describe('sim control: switching a key between read and write mode', () => {
  it('PUT /_sim/tokens/NAME/mode changes what that key may do at once; reads stay allowed', async () => {
    const t = await startSim();
    const switched = await setMode(t, 'write', { mode: 'read' });
    expect(switched.status).toBe(200);
    expect(await switched.json()).toEqual({ data: { name: 'write', mode: 'read' } });
    expect(await status(await probe(t, { token: 'write' }))).toEqual([403, 'read_only']);
    expect((await t.fetch('/me', { token: 'write' })).status).toBe(200);
    // Other keys keep their modes.
    expect(await status(await probe(t, { token: 'other_shop' }))).toEqual([404, 'not_found']);
    expect(await status(await probe(t, { token: 'read' }))).toEqual([403, 'read_only']);

    expect((await setMode(t, 'read', { mode: 'write' })).status).toBe(200);
    expect(await status(await probe(t, { token: 'read' }))).toEqual([404, 'not_found']);
    expect((await setMode(t, 'write', { mode: 'write' })).status).toBe(200);
    expect(await status(await probe(t, { token: 'write' }))).toEqual([404, 'not_found']);
  });

  it('refuses an unknown name or mode, and a rotated key keeps the mode it was switched to', async () => {
    const t = await startSim();
    expect((await setMode(t, 'nobody', { mode: 'read' })).status).toBe(404);
    expect((await setMode(t, 'write', { mode: 'admin' })).status).toBe(422);
    expect((await setMode(t, 'write', 'read')).status).toBe(422);
    t.sim.setTokenMode('write', 'read');
    const fresh = t.sim.rotateToken('write');
    expect(
      await status(
        await t.fetch(`/reviews/${NO_SUCH_REVIEW}/draft`, {
          token: null,
          method: 'POST',
          headers: { authorization: `Bearer ${fresh}` },
        }),
      ),
    ).toEqual([403, 'read_only']);
    // Control requests are not logged among the API's requests.
    expect((await t.requests()).some((request) => request.path.startsWith('/_sim'))).toBe(false);
  });
});
