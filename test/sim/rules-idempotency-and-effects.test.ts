/**
 * What the simulator's writes do, over raw HTTP: idempotent sends within 24 h
 * (per shop), where a sent text lands, what approving an action publishes or
 * sends, and what a review draft queues (and does not change).
 */
import { describe, expect, it } from 'vitest';
import type { SimAction, SimShop } from '../../src/sim/world.js';
import { manualClock, startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;
type Message = { id: string; direction: string; body: string; occurred_at: string };
type Token = 'write' | 'other_shop' | 'no_number' | 'texting_inactive';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const iso = (ms: number) => new Date(ms).toISOString();

function pick<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`seed has no ${what}`);
  return item;
}

/** A contact whose only lead is open: the thread a text to them must land in. */
function contactWithOneOpenLead(shop: SimShop) {
  const lead = pick(
    shop.leads.filter(
      (l) =>
        ['new', 'contacted', 'scheduled'].includes(l.status) &&
        shop.leads.filter((other) => other.contactId === l.contactId).length === 1,
    ),
    'contact with exactly one open lead',
  );
  return { contactId: lead.contactId, leadId: lead.id };
}

async function send(t: TestSim, contactId: string, body: string, key?: string, token: Token = 'write') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  const res = await t.fetch(`/contacts/${contactId}/messages`, {
    token,
    method: 'POST',
    headers,
    body: JSON.stringify({ body }),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

async function getData<T>(t: TestSim, path: string, token: Token = 'write'): Promise<T> {
  const res = await t.fetch(path, { token });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

const thread = (t: TestSim, leadId: string, token: Token = 'write') =>
  getData<{ messages: Message[] }>(t, `/leads/${leadId}?limit=100`, token).then((d) => d.messages);

const outbound = (messages: Message[]) => messages.filter((m) => m.direction === 'outbound');

async function decide(t: TestSim, actionId: string, token: Token = 'write') {
  const res = await t.fetch(`/actions/${actionId}/decide`, {
    token,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'approved' }),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

function pendingOf(shop: SimShop, kind: SimAction['target']['type']): SimAction {
  return pick(
    shop.actions.filter((a) => a.status === 'pending_approval' && a.target.type === kind),
    `pending ${kind} action`,
  );
}

describe('sim rules: idempotent sends', () => {
  it('a repeated Idempotency-Key answers {sent, replayed} and sends only one text', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const { contactId, leadId } = contactWithOneOpenLead(t.sim.shops.main);
    const before = outbound(await thread(t, leadId)).length;
    const creditsBefore = (await getData<{ credits_pulse: { used: number } }>(t, '/me')).credits_pulse.used;

    const first = await send(t, contactId, 'The part came in, we can install Thursday.', 'key-thursday-1');
    expect(first).toEqual({ status: 200, json: { data: { sent: true } } });
    clock.advance(5 * SECOND);
    const second = await send(t, contactId, 'The part came in, we can install Thursday.', 'key-thursday-1');
    expect(second).toEqual({ status: 200, json: { data: { sent: true, replayed: true } } });

    const after = outbound(await thread(t, leadId));
    expect(after).toHaveLength(before + 1);
    expect(after.filter((m) => m.body === 'The part came in, we can install Thursday.')).toHaveLength(1);
    expect((await getData<{ credits_pulse: { used: number } }>(t, '/me')).credits_pulse.used).toBe(
      creditsBefore + 1,
    );
  });

  it('the key is remembered for 24 hours: replayed at 24 h - 1 s, sent again at 24 h + 1 s', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const { contactId, leadId } = contactWithOneOpenLead(t.sim.shops.main);
    const before = outbound(await thread(t, leadId)).length;
    const text = 'Reminder: annual furnace check due.';

    expect((await send(t, contactId, text, 'reminder-42')).json).toEqual({ data: { sent: true } });
    clock.advance(DAY - SECOND);
    expect((await send(t, contactId, text, 'reminder-42')).json).toEqual({
      data: { sent: true, replayed: true },
    });
    expect(outbound(await thread(t, leadId))).toHaveLength(before + 1);

    clock.advance(2 * SECOND); // 24 h + 1 s after the first send
    expect(await send(t, contactId, text, 'reminder-42')).toEqual({
      status: 200,
      json: { data: { sent: true } },
    });
    const after = outbound(await thread(t, leadId));
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)).toMatchObject({ body: text, occurred_at: iso(clock.now()) });
    // The new send starts a new 24 h window.
    expect((await send(t, contactId, text, 'reminder-42')).json).toEqual({
      data: { sent: true, replayed: true },
    });
    expect(outbound(await thread(t, leadId))).toHaveLength(before + 2);
  });

  it('different keys, and no key at all, send every time', async () => {
    const t = await startSim();
    const { contactId, leadId } = contactWithOneOpenLead(t.sim.shops.main);
    const before = outbound(await thread(t, leadId)).length;
    expect((await send(t, contactId, 'Same words', 'key-a')).json).toEqual({ data: { sent: true } });
    expect((await send(t, contactId, 'Same words', 'key-b')).json).toEqual({ data: { sent: true } });
    expect((await send(t, contactId, 'Same words')).json).toEqual({ data: { sent: true } });
    expect((await send(t, contactId, 'Same words')).json).toEqual({ data: { sent: true } });
    expect(outbound(await thread(t, leadId)).filter((m) => m.body === 'Same words')).toHaveLength(4);
    expect(outbound(await thread(t, leadId))).toHaveLength(before + 4);
  });

  it("keys are per shop: the other shop's use of the same key sends its own text", async () => {
    const t = await startSim();
    const main = contactWithOneOpenLead(t.sim.shops.main);
    const other = contactWithOneOpenLead(t.sim.shops.other);
    const otherBefore = outbound(await thread(t, other.leadId, 'other_shop')).length;

    expect((await send(t, main.contactId, 'From main', 'shared-key-1')).json).toEqual({
      data: { sent: true },
    });
    expect((await send(t, other.contactId, 'From other', 'shared-key-1', 'other_shop')).json).toEqual({
      data: { sent: true },
    });
    const otherAfter = outbound(await thread(t, other.leadId, 'other_shop'));
    expect(otherAfter).toHaveLength(otherBefore + 1);
    expect(otherAfter.at(-1)?.body).toBe('From other');
    // Each shop replays only its own key.
    expect((await send(t, main.contactId, 'From main', 'shared-key-1')).json).toEqual({
      data: { sent: true, replayed: true },
    });
    expect((await send(t, other.contactId, 'From other', 'shared-key-1', 'other_shop')).json).toEqual({
      data: { sent: true, replayed: true },
    });
  });

  it("a sent text is the newest message, outbound, of the contact's lead thread", async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const { contactId, leadId } = contactWithOneOpenLead(t.sim.shops.main);
    const before = await thread(t, leadId);
    clock.advance(90 * SECOND);
    const text = 'Hi! Tech is 15 minutes away — see you soon.';
    expect((await send(t, contactId, text)).json).toEqual({ data: { sent: true } });
    const after = await thread(t, leadId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(0, -1)).toEqual(before);
    const newest = after.at(-1);
    expect(newest).toEqual({
      id: newest?.id,
      direction: 'outbound',
      body: text,
      occurred_at: iso(clock.now()),
    });
    expect(before.map((m) => m.id)).not.toContain(newest?.id);
  });
});

describe('sim rules: a text answers every missed call of its contact', () => {
  type InboxData = {
    open_leads: { id: string; status: string }[];
  };
  const callbackIds = async (t: TestSim) =>
    (await getData<InboxData>(t, '/inbox?filter=callbacks&limit=100')).open_leads.map((lead) => lead.id);
  const needsCallback = async (t: TestSim) =>
    (await getData<{ inbox_pulse: { needs_callback: number } }>(t, '/me')).inbox_pulse.needs_callback;

  it('clears each callback of the contact, whichever lead the text is filed under, and no one else’s', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const shop = t.sim.shops.main;
    const [older, other] = (await callbackIds(t))
      .map((id) => shop.leads.find((lead) => lead.id === id))
      .filter((lead) => lead !== undefined);
    if (!older || !other || older.contactId === other.contactId) throw new Error('seed has no two callers');
    clock.advance(60 * SECOND);
    // The same customer calls again: a second missed call, a newer lead.
    const newer = t.sim.missedCall(older.contactId);
    const before = await callbackIds(t);
    expect(before).toEqual(expect.arrayContaining([older.id, newer, other.id]));
    expect(await needsCallback(t)).toBe(before.length);

    clock.advance(60 * SECOND);
    expect((await send(t, older.contactId, 'Sorry we missed you — calling back in 5 min.')).status).toBe(200);

    // Filed under the newest open lead only, as the reference's POST takes a contact, not a lead.
    expect(outbound(await thread(t, newer)).at(-1)?.body).toBe(
      'Sorry we missed you — calling back in 5 min.',
    );
    expect(outbound(await thread(t, older.id))).toEqual([]);
    // Yet both of the contact's calls are answered; the other caller still waits.
    const after = await callbackIds(t);
    expect(after).toEqual(before.filter((id) => id !== older.id && id !== newer));
    expect(after).toContain(other.id);
    expect(await needsCallback(t)).toBe(after.length);
    const open = (await getData<InboxData>(t, '/inbox?filter=open&limit=100')).open_leads;
    expect(
      open.filter((lead) => lead.id === older.id || lead.id === newer).map((lead) => lead.status),
    ).toEqual(['contacted', 'contacted']);

    // A text answers the calls made before it, not the next one.
    clock.advance(60 * SECOND);
    const again = t.sim.missedCall(older.contactId);
    expect(await callbackIds(t)).toContain(again);
    expect(await needsCallback(t)).toBe(after.length + 1);
  });

  it('an approved follow-up text answers the contact’s missed calls too', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const action = pendingOf(t.sim.shops.main, 'follow_up_text');
    if (action.target.type !== 'follow_up_text') throw new Error('unreachable');
    clock.advance(60 * SECOND);
    const call = t.sim.missedCall(action.target.contactId);
    expect(await callbackIds(t)).toContain(call);
    expect((await decide(t, action.id)).status).toBe(200);
    expect(await callbackIds(t)).not.toContain(call);
  });
});

describe('sim rules: approving actions', () => {
  it('approving a pending review_reply publishes it and sets the review replied_at', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const action = pendingOf(t.sim.shops.main, 'review_reply');
    if (action.target.type !== 'review_reply') throw new Error('unreachable');
    const reviewId = action.target.reviewId;
    type Reviews = { items: { id: string; replied_at: string | null }[]; unreplied_in_page: number };
    const reviewsBefore = await getData<Reviews>(t, '/reviews?limit=100');
    expect(reviewsBefore.items.find((r) => r.id === reviewId)?.replied_at).toBeNull();

    clock.advance(10 * 60 * SECOND);
    expect(await decide(t, action.id)).toEqual({ status: 200, json: { data: { status: 'published' } } });

    const published = await getData<{ items: { id: string; status: string }[] }>(
      t,
      '/actions?status=published&limit=100',
    );
    expect(published.items.find((a) => a.id === action.id)).toMatchObject({
      id: action.id,
      status: 'published',
    });
    const pending = await getData<{ items: { id: string }[] }>(
      t,
      '/actions?status=pending_approval&limit=100',
    );
    expect(pending.items.map((a) => a.id)).not.toContain(action.id);
    const reviewsAfter = await getData<Reviews>(t, '/reviews?limit=100');
    expect(reviewsAfter.items.find((r) => r.id === reviewId)?.replied_at).toBe(iso(clock.now()));
    expect(reviewsAfter.unreplied_in_page).toBe(reviewsBefore.unreplied_in_page - 1);
  });

  it('approving a pending follow_up_text sends its held text to the target lead when texting is live', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const action = pendingOf(t.sim.shops.main, 'follow_up_text');
    if (action.target.type !== 'follow_up_text') throw new Error('unreachable');
    const { leadId, body } = action.target;
    const before = await thread(t, leadId);
    clock.advance(3 * 60 * SECOND);
    expect(await decide(t, action.id)).toEqual({ status: 200, json: { data: { status: 'published' } } });
    const after = await thread(t, leadId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({ direction: 'outbound', body, occurred_at: iso(clock.now()) });
    // Approving again answers published and does not send the text twice.
    expect(await decide(t, action.id)).toEqual({ status: 200, json: { data: { status: 'published' } } });
    expect(await thread(t, leadId)).toHaveLength(before.length + 1);
  });

  it.each([
    ['no_number', 'noNumber'],
    ['texting_inactive', 'textingInactive'],
  ] as const)(
    'with %s, approving a follow_up_text publishes it but sends nothing',
    async (token, shopName) => {
      const t = await startSim();
      const shop = t.sim.shops[shopName];
      const action = pendingOf(shop, 'follow_up_text');
      if (action.target.type !== 'follow_up_text') throw new Error('unreachable');
      const before = await thread(t, action.target.leadId, token);
      expect(await decide(t, action.id, token)).toEqual({
        status: 200,
        json: { data: { status: 'published' } },
      });
      expect(await thread(t, action.target.leadId, token)).toEqual(before);
    },
  );

  it.each(['declined', 'failed'] as const)(
    'approving a %s action answers 422 invalid and changes nothing',
    async (status) => {
      const t = await startSim();
      const action = pick(
        t.sim.shops.main.actions.filter((a) => a.status === status),
        `${status} action`,
      );
      const before = JSON.stringify(t.sim.shops.main);
      const { status: http, json } = await decide(t, action.id);
      expect(http).toBe(422);
      expect(json.code).toBe('invalid');
      expect(typeof json.error === 'string' && json.error.length > 0).toBe(true);
      expect((json.issues as { field: string }[]).map((i) => i.field)).toEqual(['status']);
      expect(action.status).toBe(status);
      expect(JSON.stringify(t.sim.shops.main)).toBe(before);
    },
  );

  it('approving an already published action answers published again and changes nothing', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const action = pick(
      t.sim.shops.main.actions.filter((a) => a.status === 'published' && a.target.type === 'review_reply'),
      'published review_reply action',
    );
    const before = JSON.stringify(t.sim.shops.main);
    clock.advance(60 * 60 * SECOND);
    expect(await decide(t, action.id)).toEqual({ status: 200, json: { data: { status: 'published' } } });
    expect(JSON.stringify(t.sim.shops.main)).toBe(before);
  });
});

describe('sim rules: review drafts', () => {
  type Reviews = { items: { id: string; replied_at: string | null }[] };

  it('POST /reviews/{id}/draft answers the draft, leaves replied_at null and queues one pending action, even twice', async () => {
    const t = await startSim();
    const shop = t.sim.shops.main;
    const review = pick(
      shop.reviews.filter(
        (r) =>
          r.repliedAt === null &&
          r.rating <= 2 &&
          !shop.actions.some((a) => a.target.type === 'review_reply' && a.target.reviewId === r.id),
      ),
      'unreplied negative review with no action',
    );
    const pendingBefore = (
      await getData<{ items: { id: string }[] }>(t, '/actions?status=pending_approval&limit=100')
    ).items;

    for (let i = 0; i < 2; i += 1) {
      const res = await t.fetch(`/reviews/${review.id}/draft`, { method: 'POST' });
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as { data: Json };
      expect(Object.keys(data).sort()).toEqual(['is_negative', 'reply', 'review_id']);
      expect(data.review_id).toBe(review.id);
      expect(data.is_negative).toBe(true);
      expect(typeof data.reply === 'string' && data.reply.trim().length > 20).toBe(true);
    }

    const reviews = await getData<Reviews>(t, '/reviews?limit=100');
    expect(reviews.items.find((r) => r.id === review.id)?.replied_at).toBeNull();
    const pendingAfter = (
      await getData<{ items: { id: string; kind: string }[] }>(
        t,
        '/actions?status=pending_approval&limit=100',
      )
    ).items;
    expect(pendingAfter).toHaveLength(pendingBefore.length + 1);
    const queued = shop.actions.filter(
      (a) =>
        a.status === 'pending_approval' &&
        a.target.type === 'review_reply' &&
        a.target.reviewId === review.id,
    );
    expect(queued).toHaveLength(1);
    expect(pendingAfter.find((a) => a.id === queued[0]?.id)).toMatchObject({ kind: 'review_reply' });
  });

  it('drafting a review that already has a pending reply queues no second action', async () => {
    const t = await startSim();
    const action = pendingOf(t.sim.shops.main, 'review_reply');
    if (action.target.type !== 'review_reply') throw new Error('unreachable');
    const count = t.sim.shops.main.actions.length;
    const res = await t.fetch(`/reviews/${action.target.reviewId}/draft`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(t.sim.shops.main.actions).toHaveLength(count);
  });

  it('drafting a review that was already replied to leaves its replied_at unchanged', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const review = pick(
      t.sim.shops.main.reviews.filter((r) => r.repliedAt !== null),
      'replied review',
    );
    const before = (await getData<Reviews>(t, '/reviews?limit=100')).items.find((r) => r.id === review.id);
    expect(before?.replied_at).toMatch(/Z$/);
    clock.advance(60 * SECOND);
    const res = await t.fetch(`/reviews/${review.id}/draft`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Json }).data.is_negative).toBe(review.rating <= 2);
    const after = (await getData<Reviews>(t, '/reviews?limit=100')).items.find((r) => r.id === review.id);
    expect(after).toEqual(before);
  });

  it('approving the queued draft publishes that reply and only then sets replied_at', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const shop = t.sim.shops.main;
    const review = pick(
      shop.reviews.filter(
        (r) =>
          r.repliedAt === null &&
          !shop.actions.some((a) => a.target.type === 'review_reply' && a.target.reviewId === r.id),
      ),
      'unreplied review with no action',
    );
    const draft = (
      (await (await t.fetch(`/reviews/${review.id}/draft`, { method: 'POST' })).json()) as {
        data: { reply: string };
      }
    ).data;
    const mine = pick(
      shop.actions.filter((a) => a.target.type === 'review_reply' && a.target.reviewId === review.id),
      'queued draft action',
    );
    expect(mine.status).toBe('pending_approval');
    const between = (await getData<Reviews>(t, '/reviews?limit=100')).items.find((r) => r.id === review.id);
    expect(between?.replied_at).toBeNull();
    clock.advance(5 * 60 * SECOND);
    expect(await decide(t, mine.id)).toEqual({ status: 200, json: { data: { status: 'published' } } });
    const after = (await getData<Reviews>(t, '/reviews?limit=100')).items.find((r) => r.id === review.id);
    expect(after?.replied_at).toBe(iso(clock.now()));
    expect(review.reply).toBe(draft.reply);
  });
});
