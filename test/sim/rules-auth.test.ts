/**
 * The simulator's authentication and mode rules, over raw HTTP: 401 for every
 * kind of bad key, 403 no_subscription, 403 read_only with nothing changed,
 * the public OpenAPI document, and 404 for unknown paths only after auth.
 */
import { describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;

async function expectError(res: Response, status: number, code: string): Promise<Json> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Json;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect((body.error as string).trim().length).toBeGreaterThan(0);
  return body;
}

function firstOf<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`seed has no ${what}`);
  return item;
}

/** A main-shop contact, review and pending action that writes would change. */
function writeTargets(t: TestSim) {
  const shop = t.sim.shops.main;
  const lead = firstOf(
    shop.leads.filter((l) => l.messages.length > 0),
    'lead with messages',
  );
  const pendingReviewIds = new Set(
    shop.actions.flatMap((a) =>
      a.status === 'pending_approval' && a.target.type === 'review_reply' ? [a.target.reviewId] : [],
    ),
  );
  const review = firstOf(
    shop.reviews.filter((r) => r.repliedAt === null && !pendingReviewIds.has(r.id)),
    'unreplied review without a pending action',
  );
  const action = firstOf(
    shop.actions.filter((a) => a.status === 'pending_approval'),
    'pending action',
  );
  return { lead, contactId: lead.contactId, review, action };
}

function writeRequests(t: TestSim) {
  const { contactId, review, action } = writeTargets(t);
  return [
    {
      path: `/contacts/${contactId}/messages`,
      init: {
        method: 'POST',
        body: JSON.stringify({ body: 'Running 10 minutes late, sorry!' }),
        headers: { 'content-type': 'application/json' },
      },
    },
    { path: `/reviews/${review.id}/draft`, init: { method: 'POST' } },
    {
      path: `/actions/${action.id}/decide`,
      init: {
        method: 'POST',
        body: JSON.stringify({ status: 'approved' }),
        headers: { 'content-type': 'application/json' },
      },
    },
  ];
}

function readPaths(leadId: string): string[] {
  return [
    '/me',
    '/today',
    '/billing',
    '/texting',
    '/inbox',
    '/contacts',
    `/leads/${leadId}`,
    '/reviews',
    '/actions',
  ];
}

describe('sim rules: authentication', () => {
  it('answers 401 unauthorized when the Authorization header is missing, on reads and writes', async () => {
    const t = await startSim();
    const before = JSON.stringify(t.sim.shops.main);
    const lead = firstOf(t.sim.shops.main.leads, 'lead');
    for (const path of readPaths(lead.id)) {
      await expectError(await t.fetch(path, { token: null }), 401, 'unauthorized');
    }
    for (const { path, init } of writeRequests(t)) {
      await expectError(await t.fetch(path, { ...init, token: null }), 401, 'unauthorized');
    }
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
    const logged = await t.requests();
    expect(logged).toHaveLength(12);
    expect(logged.every((r) => r.status === 401 && r.token === null)).toBe(true);
  });

  it('answers 401 for a non-Bearer scheme or a bare key', async () => {
    const t = await startSim();
    const key = t.sim.tokens.write;
    for (const authorization of [
      `Basic ${key}`,
      `Token ${key}`,
      key,
      `Bearer`,
      `Bearer `,
      `Bearer: ${key}`,
    ]) {
      const res = await t.fetch('/me', { token: null, headers: { authorization } });
      await expectError(res, 401, 'unauthorized');
    }
    // The same key with the right scheme works: the refusals were about the scheme.
    expect((await t.fetch('/me', { token: null, headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
  });

  it('answers 401 for an unknown key and for a truncated or extended real key', async () => {
    const t = await startSim();
    const key = t.sim.tokens.write;
    const bad = ['shk_not-a-key-the-simulator-issued', key.slice(0, -1), `${key}x`, key.toUpperCase()];
    for (const value of bad) {
      const res = await t.fetch('/me', { token: null, headers: { authorization: `Bearer ${value}` } });
      await expectError(res, 401, 'unauthorized');
    }
    const logged = await t.requests();
    expect(logged.map((r) => [r.status, r.token])).toEqual(bad.map(() => [401, 'unknown']));
  });

  it('answers 401 for a rotated key; the new value works and other keys are untouched', async () => {
    const t = await startSim();
    const old = t.sim.tokens.write;
    expect((await t.fetch('/me')).status).toBe(200);
    const fresh = t.sim.rotateToken('write');
    expect(fresh).not.toBe(old);
    expect(t.sim.tokens.write).toBe(fresh);
    const lead = firstOf(t.sim.shops.main.leads, 'lead');
    for (const path of readPaths(lead.id)) {
      const res = await t.fetch(path, { token: null, headers: { authorization: `Bearer ${old}` } });
      await expectError(res, 401, 'unauthorized');
    }
    const { contactId } = writeTargets(t);
    const send = await t.fetch(`/contacts/${contactId}/messages`, {
      token: null,
      method: 'POST',
      headers: { authorization: `Bearer ${old}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'should not go out' }),
    });
    await expectError(send, 401, 'unauthorized');
    expect(
      t.sim.shops.main.leads.flatMap((l) => l.messages).some((m) => m.body === 'should not go out'),
    ).toBe(false);
    const me = await t.fetch('/me', { token: null, headers: { authorization: `Bearer ${fresh}` } });
    expect(me.status).toBe(200);
    expect((await t.fetch('/me', { token: 'read' })).status).toBe(200);
    expect((await t.fetch('/me', { token: 'other_shop' })).status).toBe(200);
  });

  it('answers 403 no_subscription on every read endpoint (and every write) for a shop without an API plan', async () => {
    const t = await startSim();
    const shop = t.sim.shops.noSubscription;
    const lead = firstOf(shop.leads, 'lead of the no-subscription shop');
    const before = JSON.stringify(shop);
    for (const path of readPaths(lead.id)) {
      await expectError(await t.fetch(path, { token: 'no_subscription' }), 403, 'no_subscription');
    }
    const review = firstOf(shop.reviews, 'review of the no-subscription shop');
    await expectError(
      await t.fetch(`/contacts/${lead.contactId}/messages`, {
        token: 'no_subscription',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'hello' }),
      }),
      403,
      'no_subscription',
    );
    await expectError(
      await t.fetch(`/reviews/${review.id}/draft`, { token: 'no_subscription', method: 'POST' }),
      403,
      'no_subscription',
    );
    expect(JSON.stringify(shop)).toBe(before);
  });

  it('answers 403 read_only to each of the three writes with the read key and changes nothing', async () => {
    const t = await startSim();
    const { lead, review, action } = writeTargets(t);
    const before = JSON.stringify(t.sim.shops.main);
    const messagesBefore = lead.messages.length;
    const actionsBefore = await (await t.fetch('/actions?limit=100', { token: 'read' })).json();
    const leadBefore = await (await t.fetch(`/leads/${lead.id}?limit=100`, { token: 'read' })).json();
    await fetch(`${t.origin}/_sim/requests`, { method: 'DELETE' });

    for (const { path, init } of writeRequests(t)) {
      await expectError(await t.fetch(path, { ...init, token: 'read' }), 403, 'read_only');
    }

    expect(await t.requests()).toEqual([
      {
        method: 'POST',
        path: `/v1/contacts/${lead.contactId}/messages`,
        query: '',
        status: 403,
        token: 'read',
        idempotencyKey: null,
        userAgent: 'node',
        body: { body: 'Running 10 minutes late, sorry!' },
      },
      {
        method: 'POST',
        path: `/v1/reviews/${review.id}/draft`,
        query: '',
        status: 403,
        token: 'read',
        idempotencyKey: null,
        userAgent: 'node',
      },
      {
        method: 'POST',
        path: `/v1/actions/${action.id}/decide`,
        query: '',
        status: 403,
        token: 'read',
        idempotencyKey: null,
        userAgent: 'node',
        body: { status: 'approved' },
      },
    ]);
    // Nothing changed: no message appended, no action created or decided, no review touched.
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
    expect(lead.messages).toHaveLength(messagesBefore);
    expect(action.status).toBe('pending_approval');
    expect(review.repliedAt).toBeNull();
    expect(await (await t.fetch('/actions?limit=100', { token: 'read' })).json()).toEqual(actionsBefore);
    expect(await (await t.fetch(`/leads/${lead.id}?limit=100`, { token: 'read' })).json()).toEqual(
      leadBefore,
    );
  });

  it('the read key can call every read endpoint', async () => {
    const t = await startSim();
    const lead = firstOf(t.sim.shops.main.leads, 'lead');
    for (const path of readPaths(lead.id)) {
      const res = await t.fetch(path, { token: 'read' });
      expect(res.status, path).toBe(200);
      expect(Object.keys((await res.json()) as Json)).toEqual(['data']);
    }
  });

  it('serves /openapi.json and /v1/openapi.json with status 200 without a token', async () => {
    const t = await startSim();
    for (const url of [`${t.origin}/openapi.json`, `${t.origin}/v1/openapi.json`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const doc = (await res.json()) as { openapi: string; info: { title: string; version: string } };
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toBe('v1');
      expect(doc.info.title.length).toBeGreaterThan(0);
    }
  });

  it('answers 404 not_found for an unknown path under /v1 after auth, and 401 without a token', async () => {
    const t = await startSim();
    for (const path of ['/nope', '/leads', '/me/extra', '/reviews/x/publish']) {
      await expectError(await t.fetch(path), 404, 'not_found');
      await expectError(await t.fetch(path, { token: null }), 401, 'unauthorized');
      await expectError(await t.fetch(path, { token: 'no_subscription' }), 403, 'no_subscription');
    }
  });
});
