/**
 * The probe of a key's mode (client.probeKeyMode): against the simulator it
 * tells a read key from a write key with one request that changes nothing;
 * against a hostile or unusual service every answer but the two assumed ones
 * leaves the mode unknown, never "write", and is never retried.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptInfo } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { keyModeFromAnswer, PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import type { HostileBehaviour } from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';
import { clientOf, hostile } from './hostile-client.js';

const PROBE_PATH = new RegExp(`^/v1/reviews/${PROBE_ID_PREFIX}[0-9a-f]{16}/draft$`);
// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach a terminal
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('probeKeyMode against the simulator', () => {
  it('write key: write; read key: read; one POST each to a review that cannot exist; nothing changes', async () => {
    const t = await startSim();
    const before = JSON.stringify([...t.sim.world.shops.values()]);
    expect(await t.client('write').probeKeyMode()).toEqual({ mode: 'write' });
    expect(await t.client('read').probeKeyMode()).toEqual({ mode: 'read' });
    const requests = await t.requests();
    expect(requests.map(({ method, status, token }) => ({ method, status, token }))).toEqual([
      { method: 'POST', status: 404, token: 'write' },
      { method: 'POST', status: 403, token: 'read' },
    ]);
    for (const request of requests) {
      expect(request.path).toMatch(PROBE_PATH);
      expect(request.body).toBeUndefined();
    }
    // A new id every time.
    expect(new Set(requests.map((request) => request.path)).size).toBe(2);
    expect(JSON.stringify([...t.sim.world.shops.values()])).toBe(before);
  });

  it('follows the key when its mode is switched in the shop', async () => {
    const t = await startSim();
    const client = t.client('write');
    t.sim.setTokenMode('write', 'read');
    expect(await client.probeKeyMode()).toEqual({ mode: 'read' });
    t.sim.setTokenMode('write', 'write');
    expect(await client.probeKeyMode()).toEqual({ mode: 'write' });
  });

  it('is the one write a read-only client lets out; its other writes stay refused before the network', async () => {
    const t = await startSim();
    const attempts: AttemptInfo[] = [];
    const client = t.client('write', {
      readOnly: true,
      beforeAttempt: async (info) => void attempts.push(info),
    });
    expect(await client.probeKeyMode()).toEqual({ mode: 'write' });
    await expect(client.draftReply('rev_1')).rejects.toMatchObject({ code: 'read_only', local: true });
    expect((await t.requests()).map((request) => request.method)).toEqual(['POST']);
    // The scheduler is told it is the probe (a background request, not something staff wait for).
    expect(attempts).toEqual([{ endpoint: 'POST /reviews/{id}/draft', method: 'POST', probe: true }]);
  });

  it('a key the shop refuses, or a plan without the API: unknown, with why', async () => {
    const t = await startSim();
    const rotated = t.client('write');
    t.sim.rotateToken('write');
    const refused = await rotated.probeKeyMode();
    expect(refused).toMatchObject({ mode: 'unknown', transient: false });
    expect(refused.mode === 'unknown' && refused.why).toMatch(/refused the key/);
    const noPlan = await t.client('no_subscription').probeKeyMode();
    expect(noPlan.mode === 'unknown' && noPlan.why).toMatch(/plan cannot use the API/);
  });
});

describe('probeKeyMode against a service that does not answer as assumed', () => {
  const draftAnswer = JSON.stringify({ data: { reply: 'Thanks!', is_negative: false, review_id: 'x' } });
  const cases: Array<{ name: string; behaviour: HostileBehaviour; why: RegExp; transient: boolean }> = [
    {
      name: "a proxy's 404 page (no such endpoint)",
      behaviour: { kind: 'html', status: 404 },
      why: /HTTP 404 without its error body/,
      transient: false,
    },
    {
      name: 'a 404 whose body is not the error envelope',
      behaviour: { kind: 'status', status: 404, body: '{"message":"not here"}' },
      why: /HTTP 404 without its error body/,
      transient: false,
    },
    {
      name: 'a 403 page without the envelope',
      behaviour: { kind: 'html', status: 403 },
      why: /HTTP 403 without its error body/,
      transient: false,
    },
    {
      name: 'a 403 with a code never seen',
      behaviour: {
        kind: 'status',
        status: 403,
        headers: { 'content-type': 'application/json' },
        body: '{"error":"Forbidden by policy","code":"forbidden"}',
      },
      why: /HTTP 403 forbidden: Forbidden by policy/,
      transient: false,
    },
    {
      name: '422 invalid (a service that validates first)',
      behaviour: {
        kind: 'status',
        status: 422,
        headers: { 'content-type': 'application/json' },
        body: '{"error":"review id malformed","code":"invalid"}',
      },
      why: /HTTP 422 invalid/,
      transient: false,
    },
    {
      name: 'a draft made for a review that cannot exist (200)',
      behaviour: {
        kind: 'status',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: draftAnswer,
      },
      why: /made a draft for a review that cannot exist/,
      transient: false,
    },
    {
      name: 'a 200 of another shape',
      behaviour: {
        kind: 'status',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"data":1}',
      },
      why: /unexpected shape/,
      transient: false,
    },
    {
      name: 'a 503',
      behaviour: { kind: 'html', status: 503 },
      why: /had a problem \(HTTP 503\)/,
      transient: true,
    },
    {
      name: 'a 429 with Retry-After',
      behaviour: {
        kind: 'status',
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '7' },
        body: '{"error":"slow down","code":"rate_limited"}',
      },
      why: /too many requests/,
      transient: true,
    },
    {
      name: 'a redirect',
      behaviour: { kind: 'redirect' },
      why: /redirect/,
      transient: false,
    },
    {
      name: 'terminal-injection payloads in the error, at 403',
      behaviour: { kind: 'hostileError', status: 403 },
      why: /HTTP 403/,
      transient: false,
    },
    { name: 'no answer', behaviour: { kind: 'hang' }, why: /did not answer/, transient: true },
  ];

  it.each(cases)('$name: unknown, asked once', async ({ behaviour, why, transient }) => {
    const server = await hostile();
    server.behave(behaviour, 'draftReply');
    const client = clientOf(server, { readOnly: true, retry: { maxAttempts: 4 }, attemptTimeoutMs: 300 });
    const answer = await client.probeKeyMode();
    expect(answer).toMatchObject({ mode: 'unknown', transient });
    if (answer.mode !== 'unknown') return;
    expect(answer.why).toMatch(why);
    expect(answer.why).not.toMatch(CONTROL);
    expect(answer.why.length).toBeLessThan(600);
    expect(server.requests.filter((request) => request.endpoint === 'draftReply')).toHaveLength(1);
    expect(server.requests[0]?.url).toMatch(new RegExp(`^/v1/reviews/${PROBE_ID_PREFIX}`));
    expect(server.elsewhere.requests).toEqual([]);
  });

  it('any answer over HTTP: write only for 404 not_found in the envelope, read only for 403 read_only', async () => {
    const server = await hostile();
    const client = clientOf(server, { retry: { maxAttempts: 1 }, attemptTimeoutMs: 2_000 });
    const codes = fc.constantFrom(
      'not_found',
      'read_only',
      'invalid',
      'unauthorized',
      'forbidden',
      'NOT_FOUND',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 409, 410, 422, 429, 500, 502),
        fc.oneof(
          codes.map((code) => JSON.stringify({ error: 'x', code })),
          fc.string({ maxLength: 40 }),
          fc.constant('<html>Not Found</html>'),
        ),
        async (status, body) => {
          server.behave(
            { kind: 'status', status, headers: { 'content-type': 'application/json' }, body },
            'draftReply',
          );
          const answer = await client.probeKeyMode();
          const envelope = (() => {
            try {
              return JSON.parse(body) as { code?: unknown };
            } catch {
              return undefined;
            }
          })();
          const expected =
            status === 404 && envelope?.code === 'not_found'
              ? 'write'
              : status === 403 && envelope?.code === 'read_only'
                ? 'read'
                : 'unknown';
          expect(answer.mode).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('keyModeFromAnswer', () => {
  it('decides on the status and the service code together, and says why in one safe line', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 599 }),
        fc.oneof(fc.constantFrom('read_only', 'not_found', 'network', 'server', 'invalid'), fc.string()),
        fc.boolean(),
        fc.string(),
        (status, code, fromService, message) => {
          const answer = keyModeFromAnswer(
            new ApiError({ status, code, fromService, message, endpoint: 'POST /reviews/{id}/draft' }),
          );
          if (answer.mode === 'unknown') {
            expect(answer.why).not.toMatch(CONTROL);
            expect(answer.why.trim().length).toBeGreaterThan(0);
          } else if (answer.mode === 'write')
            expect([status, code, fromService]).toEqual([404, 'not_found', true]);
          else expect([status, code, fromService]).toEqual([403, 'read_only', true]);
        },
      ),
    );
  });
});
