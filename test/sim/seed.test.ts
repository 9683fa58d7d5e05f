import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRandom } from '../../src/sim/random.js';
import { type SeededShops, seedWorld } from '../../src/sim/seed.js';
import { createWorld, OPEN_LEAD_STATUSES, type SimShop, type World } from '../../src/sim/world.js';

const NOW = Date.UTC(2025, 5, 10, 15, 30);
const DAY = 24 * 60 * 60 * 1000;

function seeded(seed = 7, now = NOW): { world: World; shops: SeededShops } {
  const world = createWorld();
  return { world, shops: seedWorld(world, createRandom(seed), now) };
}

function allShops(shops: SeededShops): SimShop[] {
  return Object.values(shops);
}

function snapshot(world: World): string {
  return JSON.stringify({ shops: [...world.shops.entries()], ids: [...world.usedIds] });
}

function idsOf(shop: SimShop): string[] {
  return [
    shop.id,
    ...shop.contacts.map((contact) => contact.id),
    ...shop.leads.flatMap((lead) => [lead.id, ...lead.messages.map((message) => message.id)]),
    ...shop.reviews.map((review) => review.id),
    ...shop.actions.map((action) => action.id),
  ];
}

function latestConsent(shop: SimShop, phone: string) {
  return shop.consents.filter((consent) => consent.phone === phone).at(-1);
}

function hasOutbound(lead: SimShop['leads'][number]): boolean {
  return lead.messages.some((message) => message.direction === 'outbound');
}

function callbacks(shop: SimShop) {
  return shop.leads.filter(
    (lead) => OPEN_LEAD_STATUSES.has(lead.status) && lead.source === 'missed_call' && !hasOutbound(lead),
  );
}

/** Every time in a shop, with a label for failure messages. */
function timesOf(shop: SimShop): [string, number][] {
  const out: [string, number][] = [];
  const add = (label: string, value: number | null) => {
    if (value !== null) out.push([label, value]);
  };
  add('forwardingVerifiedAt', shop.texting.forwardingVerifiedAt);
  for (const contact of shop.contacts) add(`contact ${contact.id}`, contact.lastContactAt);
  for (const lead of shop.leads) {
    add(`lead ${lead.id}`, lead.createdAt);
    for (const message of lead.messages) add(`message ${message.id}`, message.occurredAt);
  }
  for (const review of shop.reviews) {
    add(`review ${review.id}`, review.createdAtGoogle);
    add(`review reply ${review.id}`, review.repliedAt);
  }
  for (const action of shop.actions) add(`action ${action.id}`, action.generatedAt);
  for (const item of shop.activity) add(`activity ${item.summary}`, item.createdAt);
  for (const consent of shop.consents) add(`consent ${consent.phone}`, consent.recordedAt);
  return out;
}

function expectIntegrity(shop: SimShop): void {
  const contacts = new Map(shop.contacts.map((contact) => [contact.id, contact]));
  const leads = new Map(shop.leads.map((lead) => [lead.id, lead]));
  const reviews = new Map(shop.reviews.map((review) => [review.id, review]));
  expect(new Set(shop.contacts.map((contact) => contact.phone)).size).toBe(shop.contacts.length);
  for (const contact of shop.contacts) {
    expect(contact.phone).toMatch(/^\+1\d{10}$/);
    const messages = shop.leads
      .filter((lead) => lead.contactId === contact.id)
      .flatMap((lead) => lead.messages.map((message) => message.occurredAt));
    if (messages.length > 0) expect(contact.lastContactAt).toBeGreaterThanOrEqual(Math.max(...messages));
  }
  for (const lead of shop.leads) {
    expect(contacts.has(lead.contactId), `lead ${lead.id} contact`).toBe(true);
    let previous = lead.createdAt;
    for (const message of lead.messages) {
      expect(message.occurredAt).toBeGreaterThan(lead.createdAt);
      expect(message.occurredAt).toBeGreaterThanOrEqual(previous);
      previous = message.occurredAt;
    }
  }
  for (const action of shop.actions) {
    const { target } = action;
    expect(action.kind).toBe(target.type);
    if (target.type === 'review_reply') {
      const review = reviews.get(target.reviewId);
      expect(review, `action ${action.id} review`).toBeDefined();
      expect(action.generatedAt).toBeGreaterThanOrEqual(review?.createdAtGoogle ?? Number.NaN);
      if (action.status === 'pending_approval') expect(review?.repliedAt).toBeNull();
      if (action.status === 'published') expect(review?.reply).toBe(target.reply);
    } else {
      const lead = leads.get(target.leadId);
      expect(lead, `action ${action.id} lead`).toBeDefined();
      expect(contacts.has(target.contactId)).toBe(true);
      expect(lead?.contactId).toBe(target.contactId);
      expect(target.body.length).toBeGreaterThan(0);
    }
  }
  for (const review of shop.reviews) {
    expect(review.rating).toBeGreaterThanOrEqual(1);
    expect(review.rating).toBeLessThanOrEqual(5);
    if (review.repliedAt === null) expect(review.reply).toBeNull();
    else {
      expect(review.repliedAt).toBeGreaterThan(review.createdAtGoogle);
      expect(review.reply).toBeTruthy();
    }
  }
  const phones = new Set(shop.contacts.map((contact) => contact.phone));
  for (const consent of shop.consents) expect(phones.has(consent.phone)).toBe(true);
  const byTime = <T>(items: T[], at: (item: T) => number) =>
    items.map(at).every((t, i, all) => i === 0 || t >= (all[i - 1] ?? t));
  expect(byTime(shop.consents, (consent) => consent.recordedAt)).toBe(true);
  expect(byTime(shop.activity, (item) => item.createdAt)).toBe(true);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('seedWorld', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(snapshot(seeded(7).world)).toBe(snapshot(seeded(7).world));
    expect(snapshot(seeded(8).world)).not.toBe(snapshot(seeded(7).world));
  });

  it('uses neither Math.random nor the clock', () => {
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random used');
    });
    vi.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('Date.now used');
    });
    expect(() => seeded(3)).not.toThrow();
  });

  it('adds the five shops to the world, keyed by id, without tokens', () => {
    const { world, shops } = seeded();
    expect(world.shops.size).toBe(5);
    for (const shop of allShops(shops)) expect(world.shops.get(shop.id)).toBe(shop);
    expect(world.tokens.size).toBe(0);
  });

  it('hands out ids unique across the whole world, with the right prefixes', () => {
    const { world, shops } = seeded();
    const ids = allShops(shops).flatMap(idsOf);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(world.usedIds.has(id)).toBe(true);
      expect(id).toMatch(/^(shop|ct|lead|msg|rev|act)_[0-9a-f]{10}$/);
    }
  });

  it('keeps every shop internally consistent with all times at or before now', () => {
    for (const seed of [1, 2, 7, 42, 1234]) {
      const { shops } = seeded(seed);
      for (const shop of allShops(shops)) {
        expectIntegrity(shop);
        for (const [label, at] of timesOf(shop)) expect(at, label).toBeLessThanOrEqual(NOW);
      }
    }
  });

  it('gives the main shop a realistic amount of data', () => {
    const { main } = seeded().shops;
    expect(main.contacts.length).toBeGreaterThanOrEqual(25);
    expect(main.contacts.length).toBeLessThanOrEqual(35);
    expect(main.leads.length).toBeGreaterThanOrEqual(35);
    expect(main.leads.length).toBeLessThanOrEqual(45);
    expect(main.reviews.length).toBeGreaterThanOrEqual(20);
    expect(main.reviews.length).toBeLessThanOrEqual(30);
    expect(main.activity.length).toBeGreaterThanOrEqual(15);
    expect(main.activity.length).toBeLessThanOrEqual(25);
    for (const lead of main.leads) expect(lead.messages.length).toBeLessThanOrEqual(8);
    const open = main.leads.filter((lead) => OPEN_LEAD_STATUSES.has(lead.status));
    expect(open.length).toBeGreaterThan(main.leads.length / 2);
    expect(main.leads.some((lead) => lead.status === 'won')).toBe(true);
    expect(main.leads.some((lead) => lead.status === 'lost')).toBe(true);
    const sameDay = main.leads.filter((lead) => lead.urgency === 'same_day').length / main.leads.length;
    expect(sameDay).toBeGreaterThanOrEqual(0.15);
    expect(sameDay).toBeLessThanOrEqual(0.4);
    expect(main.leads.filter((lead) => lead.createdAt >= NOW - DAY).length).toBeGreaterThanOrEqual(3);
    expect(main.leads.every((lead) => lead.createdAt >= NOW - 32 * DAY)).toBe(true);
    const leadsPerContact = new Map<string, number>();
    for (const lead of main.leads)
      leadsPerContact.set(lead.contactId, (leadsPerContact.get(lead.contactId) ?? 0) + 1);
    expect([...leadsPerContact.values()].some((count) => count >= 2)).toBe(true);
    const withoutLeads = main.contacts.filter(
      (contact) => !main.leads.some((l) => l.contactId === contact.id),
    );
    expect(withoutLeads.length).toBeGreaterThanOrEqual(1);
    expect(main.contacts.some((contact) => contact.email === null)).toBe(true);
  });

  it('has at least five open missed-call leads with no outbound message', () => {
    for (const seed of [1, 7, 99])
      expect(callbacks(seeded(seed).shops.main).length).toBeGreaterThanOrEqual(5);
  });

  it('has contacts without consent, opted-out contacts and changed consent', () => {
    const { main } = seeded().shops;
    const latest = main.contacts.map((contact) => latestConsent(main, contact.phone));
    expect(latest.filter((consent) => consent === undefined).length).toBeGreaterThanOrEqual(2);
    expect(latest.filter((consent) => consent?.smsInitial === false).length).toBeGreaterThanOrEqual(2);
    expect(latest.filter((consent) => consent?.smsInitial === true).length).toBeGreaterThan(
      main.contacts.length / 2,
    );
    const changed = main.contacts.filter((contact) => {
      const records = main.consents.filter((consent) => consent.phone === contact.phone);
      return records.length >= 2 && records.at(-1)?.smsInitial !== records.at(-2)?.smsInitial;
    });
    expect(changed.length).toBeGreaterThanOrEqual(1);
  });

  it('records opt-in consent before the first outbound text', () => {
    const { main } = seeded().shops;
    for (const contact of main.contacts) {
      const outbound = main.leads
        .filter((lead) => lead.contactId === contact.id)
        .flatMap((lead) => lead.messages.filter((message) => message.direction === 'outbound'));
      const optIn = main.consents.find((consent) => consent.phone === contact.phone && consent.smsInitial);
      if (optIn && outbound.length > 0) {
        expect(optIn.recordedAt).toBeLessThan(Math.min(...outbound.map((message) => message.occurredAt)));
      }
    }
  });

  it('has unreplied, replied and negative reviews', () => {
    const { main } = seeded().shops;
    const unreplied = main.reviews.filter((review) => review.repliedAt === null);
    expect(unreplied.length).toBeGreaterThanOrEqual(Math.floor(main.reviews.length / 4));
    expect(unreplied.length).toBeLessThanOrEqual(Math.ceil(main.reviews.length / 2));
    expect(main.reviews.filter((review) => review.rating <= 2).length).toBeGreaterThanOrEqual(2);
    expect(main.reviews.filter((review) => review.rating >= 4).length).toBeGreaterThan(
      main.reviews.length / 2,
    );
    expect(main.reviews.every((review) => review.createdAtGoogle >= NOW - 90 * DAY)).toBe(true);
  });

  it('has pending and decided actions of both kinds', () => {
    const { main } = seeded().shops;
    const byStatus = (status: string) => main.actions.filter((action) => action.status === status);
    expect(byStatus('pending_approval').length).toBeGreaterThanOrEqual(3);
    expect(byStatus('pending_approval').length).toBeLessThanOrEqual(5);
    expect(byStatus('published').length).toBeGreaterThanOrEqual(3);
    expect(byStatus('declined').length).toBeGreaterThanOrEqual(1);
    expect(byStatus('failed').length).toBe(1);
    const pendingKinds = new Set(byStatus('pending_approval').map((action) => action.kind));
    expect(pendingKinds).toEqual(new Set(['review_reply', 'follow_up_text']));
    for (const action of byStatus('published').filter((a) => a.target.type === 'review_reply')) {
      const target = action.target;
      const review = main.reviews.find((r) => target.type === 'review_reply' && r.id === target.reviewId);
      expect(review?.repliedAt).not.toBeNull();
    }
  });

  it('summarises recent activity of every kind, newest last', () => {
    const { main } = seeded().shops;
    const kinds = new Set(main.activity.map((item) => item.kind));
    for (const kind of [
      'sms_inbound',
      'missed_call',
      'review_received',
      'text_sent',
      'action_published',
      'lead_created',
    ]) {
      expect(kinds.has(kind), kind).toBe(true);
    }
    const names = main.contacts.map((contact) => contact.name);
    for (const item of main.activity.filter((a) => a.kind === 'sms_inbound')) {
      expect(names.some((name) => item.summary.startsWith(`New text from ${name}: `))).toBe(true);
    }
  });

  it('includes untrusted-text and edge-case samples in the main shop', () => {
    const { main } = seeded().shops;
    const messages = main.leads.flatMap((lead) => lead.messages);
    const hostile = messages.filter((m) => m.body.includes('\u001b[') && m.body.includes('\u202e'));
    expect(hostile).toHaveLength(1);
    expect(hostile[0]?.direction).toBe('inbound');
    expect(main.contacts.filter((c) => /\p{Cc}/u.test(c.name))).toHaveLength(1);
    const long = messages.filter(
      (m) => m.direction === 'inbound' && m.body.length >= 300 && m.body.length <= 600,
    );
    expect(long.length).toBeGreaterThanOrEqual(2);
    expect(main.contacts.some((c) => c.name === 'José Núñez' || c.name === 'Zoë Ng')).toBe(true);
    expect(messages.some((m) => /\p{Extended_Pictographic}/u.test(m.body))).toBe(true);
    expect(messages.some((m) => /[À-ÿ]/.test(m.body))).toBe(true);
  });

  it('configures the main shop as a paying, texting shop', () => {
    const { main } = seeded().shops;
    expect(main.apiPlan).toBe(true);
    expect(main.identity.businessName).toBeTruthy();
    expect(main.subscription.status).toBe('active');
    expect(main.subscription.plan).toBeTruthy();
    expect(main.subscription.currentPeriodEnd).toBeGreaterThanOrEqual(NOW + 13 * DAY);
    expect(main.subscription.currentPeriodEnd).toBeLessThanOrEqual(NOW + 29 * DAY);
    expect(main.paymentMethod?.last4).toMatch(/^\d{4}$/);
    expect(main.texting).toMatchObject({ status: 'active', campaignApproved: true });
    expect(main.texting.number).toMatch(/^\+1\d{3}55501\d\d$/);
    expect(main.texting.forwardingVerifiedAt).toBeLessThan(NOW);
    expect(main.googleConnected).toBe(true);
    expect(main.credits.included).toBe(500);
    expect(main.credits.used).toBeLessThanOrEqual(main.credits.included);
  });

  it('seeds the special shops for isolation and error cases', () => {
    const { shops } = seeded();
    const { main, other, noSubscription, noNumber, textingInactive } = shops;
    expect(other.identity.businessName).not.toBe(main.identity.businessName);
    expect(other.contacts.length).toBeGreaterThanOrEqual(3);
    expect(other.contacts.length).toBeLessThan(main.contacts.length);
    expect(other.leads.length).toBeGreaterThanOrEqual(3);
    expect(other.reviews.length).toBeGreaterThanOrEqual(2);
    expect(other.actions.length).toBeGreaterThanOrEqual(1);
    expect(noSubscription.apiPlan).toBe(false);
    expect(noSubscription.subscription.status).toBe('canceled');
    expect(noNumber.apiPlan).toBe(true);
    expect(noNumber.texting).toEqual({
      number: null,
      status: 'none',
      campaignApproved: false,
      forwardingVerifiedAt: null,
    });
    expect(noNumber.contacts.length).toBeGreaterThan(0);
    expect(noNumber.leads.length).toBeGreaterThan(0);
    expect(textingInactive.apiPlan).toBe(true);
    expect(textingInactive.texting.number).toMatch(/^\+1\d{10}$/);
    expect(textingInactive.texting.status).toBe('pending');
    expect(textingInactive.texting.campaignApproved).toBe(false);
    expect(textingInactive.contacts.length).toBeGreaterThan(0);
    const numbers = allShops(shops)
      .map((shop) => shop.texting.number)
      .filter((n) => n !== null);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
