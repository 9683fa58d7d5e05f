import { describe, expect, it, vi } from 'vitest';
import { draftReplyFor } from '../../src/sim/drafts.js';
import { applyLiveEvent, type LiveEvent } from '../../src/sim/live.js';
import { createRandom } from '../../src/sim/random.js';
import { seedWorld } from '../../src/sim/seed.js';
import { createSimulator } from '../../src/sim/simulator.js';
import { createWorld, OPEN_LEAD_STATUSES, type SimReview, type SimShop } from '../../src/sim/world.js';

const START = Date.UTC(2025, 5, 10, 15, 30);
const STEP = 4_000;

function runLive(seed: number, count: number) {
  const world = createWorld();
  const rng = createRandom(seed);
  const shops = seedWorld(world, rng, START);
  const otherBefore = JSON.stringify(shops.other);
  const events: LiveEvent[] = [];
  for (let i = 1; i <= count; i++) events.push(applyLiveEvent(world, shops.main, rng, START + i * STEP));
  return { world, shops, events, otherBefore, end: START + count * STEP };
}

function expectIntegrity(shop: SimShop, end: number): void {
  const contacts = new Map(shop.contacts.map((contact) => [contact.id, contact]));
  const leads = new Map(shop.leads.map((lead) => [lead.id, lead]));
  const reviews = new Map(shop.reviews.map((review) => [review.id, review]));
  expect(new Set(shop.contacts.map((contact) => contact.phone)).size).toBe(shop.contacts.length);
  for (const lead of shop.leads) {
    const contact = contacts.get(lead.contactId);
    expect(contact, `lead ${lead.id} contact`).toBeDefined();
    let previous = lead.createdAt;
    for (const message of lead.messages) {
      expect(message.occurredAt).toBeGreaterThanOrEqual(previous);
      expect(message.occurredAt).toBeLessThanOrEqual(end);
      expect(contact?.lastContactAt ?? 0).toBeGreaterThanOrEqual(message.occurredAt);
      previous = message.occurredAt;
    }
  }
  const pendingTargets: string[] = [];
  for (const action of shop.actions) {
    const { target } = action;
    if (target.type === 'review_reply') {
      expect(reviews.has(target.reviewId), `action ${action.id} review`).toBe(true);
      if (action.status === 'pending_approval') pendingTargets.push(target.reviewId);
    } else {
      expect(leads.get(target.leadId)?.contactId, `action ${action.id} lead`).toBe(target.contactId);
      if (action.status === 'pending_approval') pendingTargets.push(target.leadId);
    }
  }
  expect(new Set(pendingTargets).size).toBe(pendingTargets.length);
  const activityTimes = shop.activity.map((item) => item.createdAt);
  expect(activityTimes).toEqual([...activityTimes].sort((a, b) => a - b));
  expect(Math.max(...activityTimes)).toBeLessThanOrEqual(end);
}

describe('applyLiveEvent', () => {
  it('produces every kind of event over 200 calls and keeps the shop consistent', () => {
    const { shops, events, end } = runLive(11, 200);
    const kinds = new Set(events.map((event) => event.kind));
    expect(kinds).toEqual(new Set(['inbound_text', 'missed_call', 'review', 'action', 'dashboard_reply']));
    const inbound = events.filter((event) => event.kind === 'inbound_text').length;
    for (const kind of ['missed_call', 'review', 'action'] as const) {
      expect(inbound).toBeGreaterThan(events.filter((event) => event.kind === kind).length);
    }
    for (const event of events) expect(event.summary.length).toBeGreaterThan(0);
    expectIntegrity(shops.main, end);
  });

  it('keeps ids unique across the world and leaves other shops untouched', () => {
    const { world, shops, otherBefore } = runLive(5, 200);
    const ids = [...world.shops.values()].flatMap((shop) => [
      shop.id,
      ...shop.contacts.map((contact) => contact.id),
      ...shop.leads.flatMap((lead) => [lead.id, ...lead.messages.map((message) => message.id)]),
      ...shop.reviews.map((review) => review.id),
      ...shop.actions.map((action) => action.id),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(JSON.stringify(shops.other)).toBe(otherBefore);
  });

  it('is deterministic for a seed', () => {
    const a = runLive(3, 60);
    const b = runLive(3, 60);
    expect(a.events).toEqual(b.events);
    expect(JSON.stringify(a.shops.main)).toBe(JSON.stringify(b.shops.main));
  });

  it('stamps each event with now and records it in the right place', () => {
    const world = createWorld();
    const rng = createRandom(21);
    const { main } = seedWorld(world, rng, START);
    for (let i = 1; i <= 120; i++) {
      const now = START + i * STEP;
      const before = {
        leads: main.leads.length,
        reviews: main.reviews.length,
        actions: main.actions.length,
        messages: main.leads.reduce((sum, lead) => sum + lead.messages.length, 0),
        activity: main.activity.length,
      };
      const event = applyLiveEvent(world, main, rng, now);
      if (event.kind === 'inbound_text') {
        const latest = main.leads.flatMap((lead) => lead.messages).filter((m) => m.occurredAt === now);
        expect(latest).toHaveLength(1);
        expect(latest[0]?.direction).toBe('inbound');
        const lead = main.leads.find((l) => l.messages.some((m) => m.id === latest[0]?.id));
        expect(OPEN_LEAD_STATUSES.has(lead?.status ?? '')).toBe(true);
        expect(main.contacts.find((c) => c.id === lead?.contactId)?.lastContactAt).toBe(now);
        expect(main.activity.at(-1)).toMatchObject({ kind: 'sms_inbound', createdAt: now });
      } else if (event.kind === 'missed_call') {
        expect(main.leads).toHaveLength(before.leads + 1);
        expect(main.leads.at(-1)).toMatchObject({ status: 'new', source: 'missed_call', createdAt: now });
        expect(main.activity.slice(-2).map((item) => item.kind)).toEqual(['missed_call', 'lead_created']);
      } else if (event.kind === 'review') {
        expect(main.reviews).toHaveLength(before.reviews + 1);
        expect(main.reviews.at(-1)).toMatchObject({ createdAtGoogle: now, repliedAt: null, reply: null });
        expect(main.activity.at(-1)).toMatchObject({ kind: 'review_received', createdAt: now });
      } else if (event.kind === 'dashboard_reply') {
        // An answer to a waiting customer: the newest text of their thread is now the shop's, and the hints moved.
        const latest = main.leads.flatMap((lead) => lead.messages).filter((m) => m.occurredAt === now);
        expect(latest).toHaveLength(1);
        expect(latest[0]?.direction).toBe('outbound');
        const lead = main.leads.find((l) => l.messages.some((m) => m.id === latest[0]?.id));
        expect(lead?.messages.at(-2)?.direction).toBe('inbound');
        expect(main.contacts.find((c) => c.id === lead?.contactId)?.lastContactAt).toBe(now);
        expect(main.activity.at(-1)).toMatchObject({ kind: 'text_sent', createdAt: now });
      } else {
        expect(main.actions).toHaveLength(before.actions + 1);
        expect(main.actions.at(-1)).toMatchObject({ status: 'pending_approval', generatedAt: now });
        expect(main.activity).toHaveLength(before.activity);
      }
      if (event.kind === 'review' || event.kind === 'action') {
        expect(main.leads.reduce((sum, lead) => sum + lead.messages.length, 0)).toBe(before.messages);
      }
    }
    expectIntegrity(main, START + 120 * STEP);
  });

  it('does not receive texts in a shop whose texting is not live', () => {
    const world = createWorld();
    const rng = createRandom(4);
    const { noNumber } = seedWorld(world, rng, START);
    for (let i = 1; i <= 50; i++) {
      const event = applyLiveEvent(world, noNumber, rng, START + i * STEP);
      expect(event.kind).not.toBe('inbound_text');
    }
    expect(noNumber.leads.every((lead) => lead.messages.length === 0)).toBe(true);
    expectIntegrity(noNumber, START + 50 * STEP);
  });
});

describe('draftReplyFor', () => {
  const review = (
    id: string,
    rating: number,
    reviewerName = 'Karen Wu',
    text = 'Great service!',
  ): SimReview => ({
    id,
    reviewerName,
    rating,
    text,
    createdAtGoogle: START,
    repliedAt: null,
    reply: null,
  });

  it('flags ratings of 2 or less as negative', () => {
    for (const rating of [1, 2])
      expect(draftReplyFor(review('rev_1', rating), 'Shop', 'Maria').isNegative).toBe(true);
    for (const rating of [3, 4, 5]) {
      expect(draftReplyFor(review('rev_1', rating), 'Shop', 'Maria').isNegative).toBe(false);
    }
  });

  it('is deterministic and varies the template by review id', () => {
    const first = draftReplyFor(review('rev_a', 5), 'Rivera Plumbing', 'Maria');
    expect(draftReplyFor(review('rev_a', 5), 'Rivera Plumbing', 'Maria')).toEqual(first);
    const replies = new Set(
      Array.from(
        { length: 20 },
        (_, i) => draftReplyFor(review(`rev_${i}`, 5), 'Rivera Plumbing', 'Maria').reply,
      ),
    );
    expect(replies.size).toBeGreaterThan(1);
  });

  it('addresses the reviewer by first name and signs for the shop', () => {
    const { reply } = draftReplyFor(review('rev_x', 4, 'Karen Wu'), 'Rivera Plumbing', 'Maria');
    expect(reply).toContain('Karen');
    expect(reply).not.toContain('Wu');
    expect(reply).toContain('Maria');
  });

  it('apologises and invites a call on negative reviews', () => {
    for (let i = 0; i < 10; i++) {
      const { reply } = draftReplyFor(
        review(`rev_neg${i}`, 1, 'Sam Lee', 'Terrible.'),
        'Rivera Plumbing',
        'Maria',
      );
      expect(reply).toMatch(/sorry|apologi[sz]e/i);
      expect(reply).toMatch(/call/i);
    }
  });

  it('never quotes the review text', () => {
    const texts = [
      'Waited all day for a window that never happened. Nobody called.',
      'Thank you so much',
      'Thanks for choosing Rivera Plumbing!',
      "I'm truly sorry we let you down",
    ];
    for (const text of texts) {
      for (const rating of [1, 3, 5]) {
        for (let i = 0; i < 8; i++) {
          const { reply } = draftReplyFor(
            review(`rev_${i}`, rating, 'Dana', text),
            'Rivera Plumbing',
            'Maria',
          );
          expect(reply).not.toContain(text);
        }
      }
    }
  });

  it('strips control and bidi characters from the reviewer name', () => {
    const { reply } = draftReplyFor(review('rev_h', 5, '\u001b[31mEvil\u202e\u0007 Name'), 'Shop', 'Maria');
    expect(reply).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });
});

describe('live mode over days', () => {
  it('keeps only the newest 1,000 activity items of the demo shop', async () => {
    const { createSimulator } = await import('../../src/sim/simulator.js');
    const sim = createSimulator();
    for (let i = 0; i < 1_200; i += 1) sim.tick();
    const activity = sim.shops.main.activity;
    expect(activity.length).toBe(1_000);
    const times = activity.map((a) => a.createdAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await sim.close();
  });
});

describe('the live mode of a running simulator', () => {
  it('waits 0.5 to 1.5 times the interval between events, never on a beat, the same waits for a seed', async () => {
    const waitsOf = async (seed: number) => {
      vi.useFakeTimers();
      const timeouts = vi.spyOn(globalThis, 'setTimeout');
      try {
        const sim = createSimulator({ seed, live: true, liveIntervalMs: 1_000 });
        vi.advanceTimersByTime(120_000);
        const waits = timeouts.mock.calls.map(([, ms]) => ms ?? 0);
        await sim.close();
        return waits;
      } finally {
        timeouts.mockRestore();
        vi.useRealTimers();
      }
    };
    const waits = await waitsOf(7);
    expect(waits.length).toBeGreaterThan(80);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(500);
      expect(wait).toBeLessThan(1_500);
    }
    expect(new Set(waits.map((wait) => Math.round(wait / 50))).size).toBeGreaterThan(10);
    const mean = waits.reduce((sum, wait) => sum + wait, 0) / waits.length;
    expect(mean).toBeGreaterThan(900);
    expect(mean).toBeLessThan(1_100);
    expect(await waitsOf(7)).toEqual(waits);
  });
});
