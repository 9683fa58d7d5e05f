/**
 * Shop isolation in the simulator, over raw HTTP: another shop's records are
 * indistinguishable from records that do not exist, lists never leak across
 * shops, and ids are unique across the whole world.
 */
import { describe, expect, it } from 'vitest';
import type { SimShop } from '../../src/sim/world.js';
import { startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;
type Token = 'write' | 'other_shop';

/** An id of the given kind that no shop has. */
function missingId(t: TestSim, prefix: string): string {
  const id = `${prefix}_0000000000`;
  expect(t.sim.world.usedIds.has(id)).toBe(false);
  return id;
}

function only<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`seed has no ${what}`);
  return item;
}

const json = { 'content-type': 'application/json' };

/** The four id-addressed calls, for an id of the right kind. */
const calls = {
  lead: (id: string) => ({ path: `/leads/${id}`, init: {} }),
  contact: (id: string) => ({
    path: `/contacts/${id}/messages`,
    init: {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ body: 'Are you still available Tuesday?' }),
    },
  }),
  review: (id: string) => ({ path: `/reviews/${id}/draft`, init: { method: 'POST' } }),
  action: (id: string) => ({
    path: `/actions/${id}/decide`,
    init: { method: 'POST', headers: json, body: JSON.stringify({ status: 'approved' }) },
  }),
} as const;

type Kind = keyof typeof calls;
const PREFIX: Record<Kind, string> = { lead: 'lead', contact: 'ct', review: 'rev', action: 'act' };

/** Ids of the target shop for each kind; a pending action so that a leak would publish it. */
function targetIds(shop: SimShop): Record<Kind, string> {
  return {
    lead: only(shop.leads, 'lead').id,
    contact: only(shop.contacts, 'contact').id,
    review: only(shop.reviews, 'review').id,
    action: only(
      shop.actions.filter((a) => a.status === 'pending_approval'),
      'pending action',
    ).id,
  };
}

async function raw(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function expectHiddenLikeMissing(t: TestSim, token: Token, victim: SimShop) {
  const before = JSON.stringify(victim);
  const ids = targetIds(victim);
  for (const kind of Object.keys(calls) as Kind[]) {
    expect(ids[kind].startsWith(`${PREFIX[kind]}_`)).toBe(true);
    const foreign = calls[kind](ids[kind]);
    const missing = calls[kind](missingId(t, PREFIX[kind]));
    const a = await raw(await t.fetch(foreign.path, { ...foreign.init, token }));
    const b = await raw(await t.fetch(missing.path, { ...missing.init, token }));
    expect(a.status, kind).toBe(404);
    const body = JSON.parse(a.text) as Json;
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.code).toBe('not_found');
    expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
    expect(a.text).not.toContain(ids[kind]);
    expect(a, `${kind}: another shop's record answers exactly like a missing one`).toEqual(b);
  }
  // The victim shop is untouched: no text sent, no action created or published.
  expect(JSON.stringify(victim)).toBe(before);
}

describe('sim rules: shop isolation', () => {
  it("answers the other shop's lead, contact, review and action ids exactly like nonexistent ids", async () => {
    const t = await startSim();
    await expectHiddenLikeMissing(t, 'write', t.sim.shops.other);
  });

  it("answers the main shop's ids to the other shop's key exactly like nonexistent ids", async () => {
    const t = await startSim();
    await expectHiddenLikeMissing(t, 'other_shop', t.sim.shops.main);
  });

  it("the same ids work for their own shop's key (the 404s were about ownership)", async () => {
    const t = await startSim();
    const ids = targetIds(t.sim.shops.other);
    for (const kind of Object.keys(calls) as Kind[]) {
      const call = calls[kind](ids[kind]);
      const res = await t.fetch(call.path, { ...call.init, token: 'other_shop' });
      expect(res.status, kind).toBe(200);
    }
  });

  it("lists of one shop contain exactly that shop's records, never another shop's", async () => {
    const t = await startSim();
    const shops: Record<Token, SimShop> = { write: t.sim.shops.main, other_shop: t.sim.shops.other };
    const seen: Record<Token, Set<string>> = { write: new Set(), other_shop: new Set() };
    for (const token of ['write', 'other_shop'] as const) {
      const shop = shops[token];
      const get = async (path: string) => {
        const res = await t.fetch(path, { token });
        expect(res.status, path).toBe(200);
        return ((await res.json()) as { data: Json }).data;
      };
      const ids = (items: unknown) => (items as { id: string }[]).map((item) => item.id);
      const sorted = (values: string[]) => [...values].sort();

      const contacts = ids((await get('/contacts?limit=100')).items);
      expect(sorted(contacts)).toEqual(sorted(shop.contacts.map((c) => c.id)));
      const reviews = ids((await get('/reviews?limit=100')).items);
      expect(sorted(reviews)).toEqual(sorted(shop.reviews.map((r) => r.id)));
      const actions = ids((await get('/actions?limit=100')).items);
      expect(sorted(actions)).toEqual(sorted(shop.actions.map((a) => a.id)));
      const pending = ids((await get('/today?limit=100')).pending_actions);
      expect(sorted(pending)).toEqual(
        sorted(shop.actions.filter((a) => a.status === 'pending_approval').map((a) => a.id)),
      );
      const open = ids((await get('/inbox?limit=100')).open_leads);
      const callbacks = ids((await get('/inbox?filter=callbacks&limit=100')).open_leads);
      const leadIds = new Set(shop.leads.map((l) => l.id));
      expect(open.length).toBeGreaterThan(0);
      expect([...open, ...callbacks].every((id) => leadIds.has(id))).toBe(true);
      const messageIds = new Set(shop.leads.flatMap((l) => l.messages.map((m) => m.id)));
      for (const leadId of open.slice(0, 5)) {
        const detail = await get(`/leads/${leadId}?limit=100`);
        const messages = ids(detail.messages);
        expect(messages.every((id) => messageIds.has(id))).toBe(true);
        const contact = detail.contact as { id: string };
        expect(shop.contacts.some((c) => c.id === contact.id)).toBe(true);
      }
      for (const id of [...contacts, ...reviews, ...actions, ...pending, ...open, ...callbacks])
        seen[token].add(id);
    }
    expect(seen.write.size).toBeGreaterThan(0);
    expect(seen.other_shop.size).toBeGreaterThan(0);
    expect([...seen.write].filter((id) => seen.other_shop.has(id))).toEqual([]);
  });

  it('every id in the world is unique across shops, also after writes add new ones', async () => {
    const t = await startSim();
    const collect = () =>
      Object.values(t.sim.shops).flatMap((shop: SimShop) => [
        shop.id,
        ...shop.contacts.map((c) => c.id),
        ...shop.leads.flatMap((l) => [l.id, ...l.messages.map((m) => m.id)]),
        ...shop.reviews.map((r) => r.id),
        ...shop.actions.map((a) => a.id),
      ]);
    const check = () => {
      const all = collect();
      expect(all.length).toBeGreaterThan(100);
      const duplicates = all.filter((id, i) => all.indexOf(id) !== i);
      expect(duplicates).toEqual([]);
      expect(all.filter((id) => !t.sim.world.usedIds.has(id))).toEqual([]);
      return all.length;
    };
    expect(t.sim.world.shops.size).toBe(5);
    const before = check();

    // A send (new message id) in each shop, a draft (new action id), and a send to a contact with no lead.
    const main = t.sim.shops.main;
    const other = t.sim.shops.other;
    const leadless = only(
      main.contacts.filter((c) => !main.leads.some((l) => l.contactId === c.id)),
      'contact without a lead',
    );
    const review = only(
      main.reviews.filter(
        (r) =>
          !main.actions.some(
            (a) =>
              a.status === 'pending_approval' &&
              a.target.type === 'review_reply' &&
              a.target.reviewId === r.id,
          ),
      ),
      'review without a pending action',
    );
    const send = (token: Token, contactId: string) =>
      t.fetch(`/contacts/${contactId}/messages`, {
        token,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ body: 'Checking in about your appointment.' }),
      });
    expect((await send('write', only(main.contacts, 'contact').id)).status).toBe(200);
    expect((await send('write', leadless.id)).status).toBe(200);
    expect((await send('other_shop', only(other.contacts, 'contact').id)).status).toBe(200);
    expect((await t.fetch(`/reviews/${review.id}/draft`, { method: 'POST' })).status).toBe(200);
    // 3 messages, 1 lead for the leadless contact, 1 action.
    expect(check()).toBe(before + 5);
  });
});
