/**
 * Request validation in the simulator, over raw HTTP: `limit`, `filter` and
 * `status` query parameters, send and decide bodies, and the two texting
 * errors. Every 422 invalid names the offending field in `issues`.
 */
import { describe, expect, it } from 'vitest';
import type { SimShop } from '../../src/sim/world.js';
import { startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;
type Issue = { field: string; message: string };

async function expectError(res: Response, status: number, code: string): Promise<Json> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as Json;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect((body.error as string).trim().length).toBeGreaterThan(0);
  expect('data' in body).toBe(false);
  return body;
}

/** 422 invalid whose issues name exactly these fields. */
async function expectInvalid(res: Response, fields: string[]): Promise<Issue[]> {
  const body = await expectError(res, 422, 'invalid');
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'issues']);
  const issues = body.issues as Issue[];
  expect(Array.isArray(issues)).toBe(true);
  expect([...new Set(issues.map((i) => i.field))].sort()).toEqual([...fields].sort());
  for (const issue of issues)
    expect(typeof issue.message === 'string' && issue.message.length > 0).toBe(true);
  return issues;
}

function pick<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`seed has no ${what}`);
  return item;
}

/** The lead with the most messages, so that `limit` on GET /leads/{id} has something to cut. */
function longestThread(shop: SimShop) {
  return pick(
    [...shop.leads].sort((a, b) => b.messages.length - a.messages.length),
    'lead',
  );
}

/** Each list endpoint, with the arrays in its `data` that `limit` bounds and how many records exist. */
function listEndpoints(t: TestSim) {
  const shop = t.sim.shops.main;
  const lead = longestThread(shop);
  const open = shop.leads.filter((l) => ['new', 'contacted', 'scheduled'].includes(l.status));
  return [
    {
      path: '/today',
      totals: {
        pending_actions: shop.actions.filter((a) => a.status === 'pending_approval').length,
        activity: shop.activity.length,
      },
    },
    {
      path: '/inbox',
      totals: {
        open_leads: open.length,
        latest_inbound: open.flatMap((l) => l.messages.filter((m) => m.direction === 'inbound')).length,
      },
    },
    { path: '/contacts', totals: { items: shop.contacts.length } },
    { path: `/leads/${lead.id}`, totals: { messages: lead.messages.length } },
    { path: '/reviews', totals: { items: shop.reviews.length } },
    { path: '/actions', totals: { items: shop.actions.length } },
  ];
}

const json = { 'content-type': 'application/json' };

/** A main-shop contact whose thread is a single lead, so a send lands in a known place. */
function contactWithOneLead(shop: SimShop) {
  const contact = pick(
    shop.contacts.filter((c) => shop.leads.filter((l) => l.contactId === c.id).length === 1),
    'contact with one lead',
  );
  const lead = shop.leads.find((l) => l.contactId === contact.id);
  if (!lead) throw new Error('unreachable');
  return { contact, lead };
}

describe('sim rules: query validation', () => {
  const badLimits = ['0', '101', '1.5', 'abc', '-1', ''];

  it.each(['/today', '/inbox', '/contacts', '/leads/{id}', '/reviews', '/actions'])(
    'GET %s answers 422 invalid naming `limit` for limit=0, 101, 1.5, abc, -1 and empty',
    async (template) => {
      const t = await startSim();
      const path = template.replace('{id}', longestThread(t.sim.shops.main).id);
      for (const limit of badLimits) {
        await expectInvalid(await t.fetch(`${path}?limit=${encodeURIComponent(limit)}`), ['limit']);
      }
      expect((await t.requests()).map((r) => r.status)).toEqual(badLimits.map(() => 422));
    },
  );

  it('limit=1 and limit=100 are accepted and bound every list; the default is 25', async () => {
    const t = await startSim();
    let sawMoreThan25 = false;
    for (const { path, totals } of listEndpoints(t)) {
      for (const limit of [1, 100, undefined]) {
        const res = await t.fetch(limit === undefined ? path : `${path}?limit=${limit}`);
        expect(res.status, `${path} limit=${limit}`).toBe(200);
        const data = ((await res.json()) as { data: Record<string, unknown[]> }).data;
        for (const [field, total] of Object.entries(totals)) {
          const bound = limit ?? 25;
          expect(data[field]?.length, `${path}?limit=${limit} ${field}`).toBe(Math.min(total, bound));
          if (limit === undefined && total > 25) sawMoreThan25 = true;
        }
      }
    }
    // The default was really exercised: some list has more than 25 records.
    expect(sawMoreThan25).toBe(true);
  });

  it('GET /inbox answers 422 naming `filter` for anything but open or callbacks', async () => {
    const t = await startSim();
    for (const filter of ['closed', 'OPEN', 'Callbacks', 'all', '', 'open,callbacks']) {
      await expectInvalid(await t.fetch(`/inbox?filter=${encodeURIComponent(filter)}`), ['filter']);
    }
    for (const filter of ['open', 'callbacks']) {
      const res = await t.fetch(`/inbox?filter=${filter}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { filter: string } }).data.filter).toBe(filter);
    }
    await expectInvalid(await t.fetch('/inbox?filter=nope&limit=0'), ['filter', 'limit']);
  });

  it('GET /actions answers 422 naming `status` for anything but the four statuses', async () => {
    const t = await startSim();
    for (const status of ['approved', 'pending', 'PUBLISHED', '', 'declined ', 'all']) {
      await expectInvalid(await t.fetch(`/actions?status=${encodeURIComponent(status)}`), ['status']);
    }
    for (const status of ['pending_approval', 'published', 'declined', 'failed']) {
      const res = await t.fetch(`/actions?status=${status}&limit=100`);
      expect(res.status).toBe(200);
      const items = ((await res.json()) as { data: { items: { status: string }[] } }).data.items;
      const expected = t.sim.shops.main.actions.filter((a) => a.status === status).length;
      expect(expected).toBeGreaterThan(0);
      expect(items.map((i) => i.status)).toEqual(Array(expected).fill(status));
    }
  });
});

describe('sim rules: body validation', () => {
  it('POST /contacts/{id}/messages answers 422 naming `body` for a missing, empty, blank, non-string or too long text', async () => {
    const t = await startSim();
    const { contact } = contactWithOneLead(t.sim.shops.main);
    const before = JSON.stringify(t.sim.shops.main);
    const bodies: unknown[] = [
      {},
      { text: 'hello' },
      { body: '' },
      { body: '   ' },
      { body: '\n\t ' },
      { body: 42 },
      { body: null },
      { body: true },
      { body: ['hello'] },
      { body: 'x'.repeat(1601) },
    ];
    for (const body of bodies) {
      const res = await t.fetch(`/contacts/${contact.id}/messages`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
      await expectInvalid(res, ['body']);
    }
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
  });

  it('POST /contacts/{id}/messages answers 422 invalid for malformed JSON, a JSON array, a JSON string or no body', async () => {
    const t = await startSim();
    const { contact } = contactWithOneLead(t.sim.shops.main);
    const before = JSON.stringify(t.sim.shops.main);
    for (const raw of ['{"body": "hi"', '{body: "hi"}', '[{"body":"hi"}]', '["hi"]', '"hi"', 'null', '']) {
      const res = await t.fetch(`/contacts/${contact.id}/messages`, {
        method: 'POST',
        headers: json,
        body: raw,
      });
      const body = await expectError(res, 422, 'invalid');
      const issues = body.issues as Issue[];
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.every((i) => typeof i.field === 'string' && i.field.length > 0)).toBe(true);
    }
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
  });

  it('a text of exactly 1600 characters is accepted and sent whole', async () => {
    const t = await startSim();
    const { contact, lead } = contactWithOneLead(t.sim.shops.main);
    const text = `${'Details of your estimate. '.repeat(61)}${'z'.repeat(14)}`;
    expect(text).toHaveLength(1600);
    const res = await t.fetch(`/contacts/${contact.id}/messages`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ body: text }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { sent: true } });
    expect(lead.messages.at(-1)).toMatchObject({ direction: 'outbound', body: text });
  });

  it('POST /actions/{id}/decide answers 422 naming `status` for a status other than approved or none', async () => {
    const t = await startSim();
    const action = pick(
      t.sim.shops.main.actions.filter((a) => a.status === 'pending_approval'),
      'pending action',
    );
    const before = JSON.stringify(t.sim.shops.main);
    for (const body of [
      {},
      { status: 'declined' },
      { status: 'rejected' },
      { status: 'APPROVED' },
      { status: 'published' },
      { status: '' },
      { status: true },
      { status: null },
      { decision: 'approved' },
    ]) {
      const res = await t.fetch(`/actions/${action.id}/decide`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
      await expectInvalid(res, ['status']);
    }
    expect(action.status).toBe('pending_approval');
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
  });

  it('POST /actions/{id}/decide answers 422 invalid for malformed JSON or an array', async () => {
    const t = await startSim();
    const action = pick(
      t.sim.shops.main.actions.filter((a) => a.status === 'pending_approval'),
      'pending action',
    );
    for (const raw of ['{"status":', '[{"status":"approved"}]', '']) {
      const res = await t.fetch(`/actions/${action.id}/decide`, { method: 'POST', headers: json, body: raw });
      await expectError(res, 422, 'invalid');
    }
    expect(action.status).toBe('pending_approval');
  });
});

describe('sim rules: texting errors', () => {
  it('answers 422 no_number to a send from a shop with no texting number, and sends nothing', async () => {
    const t = await startSim();
    const shop = t.sim.shops.noNumber;
    const contact = pick(shop.contacts, 'contact of the no-number shop');
    const before = JSON.stringify(shop);
    const res = await t.fetch(`/contacts/${contact.id}/messages`, {
      token: 'no_number',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ body: 'Hello from the shop' }),
    });
    const body = await expectError(res, 422, 'no_number');
    expect(body.issues).toBeUndefined();
    expect(JSON.stringify(shop)).toBe(before);
  });

  it('answers 422 texting_inactive to a send while carrier registration is unfinished, and sends nothing', async () => {
    const t = await startSim();
    const shop = t.sim.shops.textingInactive;
    const contact = pick(shop.contacts, 'contact of the texting-inactive shop');
    const before = JSON.stringify(shop);
    const res = await t.fetch(`/contacts/${contact.id}/messages`, {
      token: 'texting_inactive',
      method: 'POST',
      headers: json,
      body: JSON.stringify({ body: 'Hello from the shop' }),
    });
    const body = await expectError(res, 422, 'texting_inactive');
    expect(body.issues).toBeUndefined();
    expect(JSON.stringify(shop)).toBe(before);
  });
});
