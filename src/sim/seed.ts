/**
 * The simulator's demo data: one realistic plumbing/HVAC shop plus four small
 * shops that exercise cross-shop isolation and the no_subscription, no_number
 * and texting_inactive errors. Deterministic for a given seed and `now`.
 */
import {
  ADDRESS_REPLIES,
  ANSWERS,
  BOOKINGS,
  bag,
  CONFIRMS,
  DAY,
  DAYS,
  FIRST_REPLIES,
  fill,
  firstNameOf,
  followUpBody,
  freshPhone,
  HOSTILE_CONTACT_NAME,
  HOSTILE_MESSAGE,
  inboundSummary,
  JOB_TYPES,
  LONG_MESSAGES,
  LOST_ACKS,
  LOST_REASONS,
  lastOf,
  leadCreatedSummary,
  MAIN_CONTACT_NAMES,
  MINUTE,
  MISSED_CALL_OPENERS,
  makeContact,
  NEW_LEAD_NUDGES,
  PRICES,
  phonesOf,
  preview,
  QUESTIONS,
  RATING_WEIGHTS,
  REVIEWER_NAMES,
  reviewSummary,
  reviewText,
  SLOT_OFFERS,
  SMALL_SHOP_CONTACT_NAMES,
  SMS_OPENERS,
  STREETS,
  shuffle,
  THANKS,
  WEB_FORM_OPENERS,
  WINDOWS,
  WRAP_UPS,
} from './demo-content.js';
import { draftReplyFor } from './drafts.js';
import type { Random } from './random.js';
import {
  newId,
  OPEN_LEAD_STATUSES,
  type SimAction,
  type SimActivity,
  type SimConsent,
  type SimContact,
  type SimLead,
  type SimMessage,
  type SimReview,
  type SimShop,
  type World,
} from './world.js';

export interface SeededShops {
  main: SimShop;
  other: SimShop;
  noSubscription: SimShop;
  noNumber: SimShop;
  textingInactive: SimShop;
}

// ---------------------------------------------------------------------------
// Shop population
// ---------------------------------------------------------------------------

type ActionWish =
  | 'pending_review'
  | 'pending_follow'
  | 'published_review'
  | 'published_follow'
  | 'declined_review'
  | 'declined_follow'
  | 'failed_follow';

type ActivityKind =
  | 'sms_inbound'
  | 'missed_call'
  | 'lead_created'
  | 'text_sent'
  | 'review_received'
  | 'action_published';

interface ShopSizes {
  names: readonly string[];
  areaCodes: readonly string[];
  contacts: number;
  /** Contacts without any lead (old customers); the first `neverContacted` of them have lastContactAt null. */
  leadless: number;
  neverContacted: number;
  leads: number;
  /** Open missed-call leads with no outbound message. */
  callbacks: number;
  /** false when the shop has never been able to text: threads stay empty. */
  texting: boolean;
  reviews: number;
  actions: readonly ActionWish[];
  activity: Readonly<Record<ActivityKind, number>>;
  /** Long, hostile and other edge-case texts (main shop only). */
  untrustedSamples: boolean;
}

interface LeadPlan {
  status: string;
  urgency: string;
  jobType: string;
  source: string;
  createdAt: number;
  /** Body of the first inbound message, replacing the template. */
  opener?: string;
}

type Step = readonly ['inbound' | 'outbound', readonly string[]];

function planLeads(rng: Random, now: number, sizes: ShopSizes): LeadPlan[] {
  const regular = sizes.leads - sizes.callbacks;
  const statuses = bag(rng, regular, [
    ['new', 10],
    ['contacted', 30],
    ['scheduled', 25],
    ['won', 20],
    ['lost', 15],
  ] as const);
  const sources = bag(rng, regular, [
    ['missed_call', 55],
    ['web_form', 25],
    ['sms', 20],
  ] as const);
  const urgencies = bag(rng, sizes.leads, [
    ['same_day', 25],
    ['this_week', 45],
    ['flexible', 30],
  ] as const);
  const recent = Math.max(2, Math.round(sizes.leads * 0.2));
  return Array.from({ length: sizes.leads }, (_, i) => {
    const callback = i < sizes.callbacks;
    const isRecent = i < recent;
    const createdAt = isRecent
      ? now - rng.int(15, 23 * 60) * MINUTE
      : now - rng.int(1, 30) * DAY - rng.int(0, 23 * 60) * MINUTE;
    let status = callback ? 'new' : (statuses[i - sizes.callbacks] ?? 'contacted');
    if (isRecent && !OPEN_LEAD_STATUSES.has(status)) status = 'contacted';
    const source = callback ? 'missed_call' : (sources[i - sizes.callbacks] ?? 'sms');
    return {
      status,
      urgency: urgencies[i] ?? 'this_week',
      jobType: rng.pick(JOB_TYPES),
      source: sizes.texting || source !== 'sms' ? source : 'missed_call',
      createdAt,
    };
  });
}

/**
 * Main shop only: the contact with a hostile caller-ID name gets the hostile
 * spam text, and two leads get long messages so truncation shows.
 */
function addUntrustedSamples(
  plans: LeadPlan[],
  contacts: SimContact[],
  sizes: ShopSizes,
): SimContact | undefined {
  const base = sizes.callbacks;
  const [waterHeater, airConditioner] = LONG_MESSAGES;
  const overrides: Partial<LeadPlan>[] = [
    { status: 'new', source: 'sms', urgency: 'flexible', opener: HOSTILE_MESSAGE },
    {
      status: 'contacted',
      source: 'missed_call',
      urgency: 'same_day',
      jobType: waterHeater.jobType,
      opener: waterHeater.body,
    },
    {
      status: 'new',
      source: 'sms',
      urgency: 'same_day',
      jobType: airConditioner.jobType,
      opener: airConditioner.body,
    },
  ];
  overrides.forEach((override, offset) => {
    const plan = plans[base + offset];
    if (plan) Object.assign(plan, override);
  });
  const hostile = contacts[base];
  if (hostile) {
    hostile.name = HOSTILE_CONTACT_NAME;
    hostile.email = null;
  }
  return hostile;
}

function openersFor(source: string): readonly string[] {
  if (source === 'missed_call') return MISSED_CALL_OPENERS;
  if (source === 'web_form') return WEB_FORM_OPENERS;
  return SMS_OPENERS;
}

function threadSteps(rng: Random, plan: LeadPlan): Step[] {
  const opener: Step = ['inbound', plan.opener ? [plan.opener] : openersFor(plan.source)];
  const firstReply: Step = ['outbound', FIRST_REPLIES];
  const question: Step[] = rng.chance(0.5)
    ? [
        ['inbound', QUESTIONS],
        ['outbound', ANSWERS],
      ]
    : [];
  const booking: Step[] = [
    ['inbound', ADDRESS_REPLIES],
    ['outbound', SLOT_OFFERS],
    ['inbound', CONFIRMS],
  ];
  switch (plan.status) {
    case 'new': {
      const count = plan.opener ? 1 : plan.source === 'missed_call' ? rng.int(0, 2) : rng.int(1, 2);
      const nudge: Step = ['inbound', NEW_LEAD_NUDGES];
      return [opener, nudge].slice(0, count);
    }
    case 'contacted':
      return [opener, firstReply, ...question];
    case 'scheduled':
      return [opener, firstReply, ...booking, ...(rng.chance(0.6) ? [['outbound', BOOKINGS] as Step] : [])];
    case 'won':
      return [
        opener,
        firstReply,
        ...booking,
        ['outbound', BOOKINGS],
        ['inbound', THANKS],
        ...(rng.chance(0.5) ? [['outbound', WRAP_UPS] as Step] : []),
      ];
    default:
      return [
        opener,
        firstReply,
        ...question,
        ['inbound', LOST_REASONS],
        ...(rng.chance(0.5) ? [['outbound', LOST_ACKS] as Step] : []),
      ];
  }
}

/** Message times after `createdAt`, oldest first, squeezed to end before `now`. */
function messageTimes(rng: Random, count: number, createdAt: number, now: number): number[] {
  const gaps = Array.from({ length: count }, () => rng.int(2, 8 * 60) * MINUTE);
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  const room = (now - createdAt) * 0.95;
  const scale = total > room ? room / total : 1;
  let at = createdAt;
  return gaps.map((gap) => {
    at += Math.max(1, Math.floor(gap * scale));
    return Math.min(at, now);
  });
}

function buildThread(
  world: World,
  rng: Random,
  now: number,
  shop: SimShop,
  contact: SimContact,
  plan: LeadPlan,
): SimMessage[] {
  const vars = {
    first: firstNameOf(contact.name),
    owner: shop.identity.firstName,
    shop: shop.identity.businessName,
    job: plan.jobType,
    day: rng.pick(DAYS),
    window: rng.pick(WINDOWS),
    street: rng.pick(STREETS),
    price: rng.pick(PRICES),
  };
  const steps = threadSteps(rng, plan);
  const times = messageTimes(rng, steps.length, plan.createdAt, now);
  return steps.map(([direction, pool], index) => ({
    id: newId(world, () => rng.hex(10), 'msg'),
    direction,
    body: fill(rng.pick(pool), vars),
    occurredAt: times[index] ?? now,
  }));
}

function buildContacts(
  world: World,
  rng: Random,
  now: number,
  shop: SimShop,
  sizes: ShopSizes,
): SimContact[] {
  const names = shuffle(rng, sizes.names).slice(0, sizes.contacts);
  const taken = phonesOf(shop);
  return names.map((name) => {
    const phone = freshPhone(rng, sizes.areaCodes, taken);
    taken.add(phone);
    return makeContact(world, rng, name, phone, rng.chance(0.8), now);
  });
}

function buildLeads(world: World, rng: Random, now: number, shop: SimShop, sizes: ShopSizes): SimLead[] {
  const plans = planLeads(rng, now, sizes);
  const withLeads = sizes.contacts - sizes.leadless;
  const hostileContact = sizes.untrustedSamples
    ? addUntrustedSamples(plans, shop.contacts, sizes)
    : undefined;
  const repeatCustomers = shuffle(
    rng,
    shop.contacts.slice(0, withLeads).filter((contact) => contact !== hostileContact),
  );
  return plans
    .map((plan, index) => {
      const contact =
        index < withLeads
          ? shop.contacts[index]
          : repeatCustomers[(index - withLeads) % repeatCustomers.length];
      if (!contact) throw new RangeError('seed sizes leave a lead without a contact');
      return {
        id: newId(world, () => rng.hex(10), 'lead'),
        contactId: contact.id,
        status: plan.status,
        urgency: plan.urgency,
        jobType: plan.jobType,
        source: plan.source,
        createdAt: plan.createdAt,
        messages: sizes.texting ? buildThread(world, rng, now, shop, contact, plan) : [],
      };
    })
    .sort((a, b) => a.createdAt - b.createdAt);
}

function leadsOf(shop: SimShop, contactId: string): SimLead[] {
  return shop.leads.filter((lead) => lead.contactId === contactId);
}

function finishContacts(rng: Random, now: number, shop: SimShop, sizes: ShopSizes): void {
  const firstLeadless = sizes.contacts - sizes.leadless;
  shop.contacts.forEach((contact, index) => {
    const leads = leadsOf(shop, contact.id);
    if (leads.length === 0) {
      const never = index - firstLeadless < sizes.neverContacted;
      contact.lastContactAt = never
        ? now - rng.int(1, 20) * DAY - rng.int(0, 600) * MINUTE
        : now - rng.int(35, 60) * DAY - rng.int(0, 600) * MINUTE;
      contact.stage = never ? 'lead' : 'customer';
      return;
    }
    const times = leads.flatMap((lead) => [
      lead.createdAt,
      ...lead.messages.map((message) => message.occurredAt),
    ]);
    contact.lastContactAt = Math.max(...times);
    contact.stage = leads.some((lead) => lead.status === 'won') || rng.chance(0.15) ? 'customer' : 'lead';
  });
}

function buildConsents(rng: Random, now: number, shop: SimShop): SimConsent[] {
  const n = shop.contacts.length;
  const order = shuffle(rng, shop.contacts);
  const none = Math.max(1, Math.round(n * 0.1));
  const optedOut = Math.max(1, Math.round(n * 0.1));
  const reOptedIn = Math.round(n * 0.06);
  const records: SimConsent[] = [];
  order.forEach((contact, position) => {
    if (position < none) return;
    const leads = leadsOf(shop, contact.id);
    const messages = leads.flatMap((lead) => lead.messages);
    const firstTouch =
      leads.length > 0
        ? Math.min(...leads.map((lead) => lead.createdAt))
        : (contact.lastContactAt ?? now - 20 * DAY);
    const before = firstTouch - rng.int(1, 240) * MINUTE;
    const record = (smsInitial: boolean, recordedAt: number) =>
      records.push({ phone: contact.phone, smsInitial, recordedAt: Math.min(recordedAt, now) });
    if (position < none + optedOut) {
      const hasOutbound = messages.some((message) => message.direction === 'outbound');
      if (hasOutbound) {
        // Opted in, was texted, then replied STOP after the last message.
        const lastMessage = Math.max(...messages.map((message) => message.occurredAt));
        record(true, before);
        record(false, lastMessage + rng.int(1, 90) * MINUTE);
      } else {
        record(false, before);
      }
    } else if (position < none + optedOut + reOptedIn) {
      record(false, firstTouch - rng.int(10, 60) * DAY);
      record(true, before);
    } else {
      record(true, before);
    }
  });
  return records.sort((a, b) => a.recordedAt - b.recordedAt);
}

function buildReviews(world: World, rng: Random, now: number, shop: SimShop, sizes: ShopSizes): SimReview[] {
  const ratings = bag(rng, sizes.reviews, RATING_WEIGHTS);
  const names = shuffle(rng, REVIEWER_NAMES);
  const reviews: SimReview[] = ratings
    .map((rating, index) => ({
      id: newId(world, () => rng.hex(10), 'rev'),
      reviewerName: names[index % names.length] ?? 'Google user',
      rating,
      text: reviewText(rng, rating),
      createdAtGoogle: now - rng.int(2 * 60, 90 * 24 * 60) * MINUTE,
      repliedAt: null as number | null,
      reply: null as string | null,
    }))
    .sort((a, b) => a.createdAtGoogle - b.createdAtGoogle);
  const unreplied = pickUnreplied(rng, reviews, Math.round(sizes.reviews / 3));
  for (const review of reviews) {
    if (unreplied.has(review)) continue;
    review.reply = draftReplyFor(review, shop.identity.businessName, shop.identity.firstName).reply;
    review.repliedAt = Math.min(now - MINUTE, review.createdAtGoogle + rng.int(60, 72 * 60) * MINUTE);
  }
  return reviews;
}

/** The two newest reviews, one negative review if any, then random others. */
function pickUnreplied(rng: Random, reviews: readonly SimReview[], count: number): Set<SimReview> {
  const newest = reviews.slice(-2).reverse();
  const older = shuffle(rng, reviews.slice(0, -2));
  const negative = older.find((review) => review.rating <= 2);
  const rest = older.filter((review) => review !== negative);
  return new Set([...newest, ...(negative ? [negative] : []), ...rest].slice(0, count));
}

// ---------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------

interface ActionContext {
  world: World;
  rng: Random;
  now: number;
  shop: SimShop;
  usedTargets: Set<string>;
}

function reviewAction(ctx: ActionContext, wish: ActionWish): SimAction | null {
  const { rng, shop, now } = ctx;
  const wantReplied = wish !== 'pending_review';
  const candidates = [...shop.reviews]
    .reverse()
    .filter((review) => (review.repliedAt !== null) === wantReplied && !ctx.usedTargets.has(review.id));
  const review = candidates[0];
  if (!review) return null;
  ctx.usedTargets.add(review.id);
  const drafted = draftReplyFor(review, shop.identity.businessName, shop.identity.firstName).reply;
  const status =
    wish === 'pending_review' ? 'pending_approval' : wish === 'published_review' ? 'published' : 'declined';
  const latest = review.repliedAt ?? now;
  const generatedAt = Math.max(review.createdAtGoogle, latest - rng.int(10, 180) * MINUTE);
  return {
    id: newId(ctx.world, () => rng.hex(10), 'act'),
    kind: 'review_reply',
    status,
    generatedAt,
    target: {
      type: 'review_reply',
      reviewId: review.id,
      reply: status === 'published' ? (review.reply ?? drafted) : drafted,
    },
  };
}

function followUpLeads(ctx: ActionContext, wish: ActionWish): SimLead[] {
  const { shop } = ctx;
  const free = [...shop.leads].reverse().filter((lead) => !ctx.usedTargets.has(lead.id));
  const hasOutbound = (lead: SimLead) => lead.messages.some((message) => message.direction === 'outbound');
  if (wish === 'pending_follow') {
    const open = free.filter((lead) => OPEN_LEAD_STATUSES.has(lead.status));
    const engaged = open.filter((lead) => lead.status !== 'new');
    return engaged.length > 0 ? engaged : open;
  }
  if (wish === 'published_follow') return free.filter(hasOutbound);
  if (wish === 'declined_follow') return free.filter((lead) => lead.status === 'lost');
  const optedOut = new Set(
    latestConsents(shop)
      .filter((c) => !c.smsInitial)
      .map((c) => c.phone),
  );
  const phoneOf = (lead: SimLead) =>
    shop.contacts.find((contact) => contact.id === lead.contactId)?.phone ?? '';
  // A failed follow-up: a text the agent tried to send to a lead that had been texted before.
  const texted = free.filter(hasOutbound);
  const blocked = texted.filter((lead) => optedOut.has(phoneOf(lead)));
  return blocked.length > 0 ? blocked : texted;
}

function followUpAction(ctx: ActionContext, wish: ActionWish): SimAction | null {
  const { rng, shop, now } = ctx;
  const lead = followUpLeads(ctx, wish)[0];
  const contact = shop.contacts.find((candidate) => candidate.id === lead?.contactId);
  if (!lead || !contact) return null;
  ctx.usedTargets.add(lead.id);
  const sent = [...lead.messages].reverse().find((message) => message.direction === 'outbound');
  const published = wish === 'published_follow' && sent;
  const body = published ? sent.body : followUpBody(rng, shop, contact, lead);
  const latest = published ? sent.occurredAt : (lastOf(lead.messages)?.occurredAt ?? lead.createdAt);
  const generatedAt = published
    ? Math.max(lead.createdAt, latest - rng.int(2, 30) * MINUTE)
    : latest + Math.floor(Math.min(now - latest, DAY) * (rng.int(20, 90) / 100));
  const statusByWish: Record<string, SimAction['status']> = {
    pending_follow: 'pending_approval',
    published_follow: 'published',
    declined_follow: 'declined',
    failed_follow: 'failed',
  };
  return {
    id: newId(ctx.world, () => rng.hex(10), 'act'),
    kind: 'follow_up_text',
    status: statusByWish[wish] ?? 'declined',
    generatedAt,
    target: { type: 'follow_up_text', contactId: contact.id, leadId: lead.id, body },
  };
}

function buildActions(world: World, rng: Random, now: number, shop: SimShop, sizes: ShopSizes): SimAction[] {
  const ctx: ActionContext = { world, rng, now, shop, usedTargets: new Set() };
  return sizes.actions
    .map((wish) => (wish.endsWith('_review') ? reviewAction(ctx, wish) : followUpAction(ctx, wish)))
    .filter((action): action is SimAction => action !== null)
    .sort((a, b) => a.generatedAt - b.generatedAt);
}

function latestConsents(shop: SimShop): SimConsent[] {
  const latest = new Map<string, SimConsent>();
  for (const consent of shop.consents) latest.set(consent.phone, consent);
  return [...latest.values()];
}

// ---------------------------------------------------------------------------
// Activity
// ---------------------------------------------------------------------------

function candidateActivity(shop: SimShop): Record<ActivityKind, SimActivity[]> {
  const byKind: Record<ActivityKind, SimActivity[]> = {
    missed_call: [],
    lead_created: [],
    sms_inbound: [],
    text_sent: [],
    review_received: [],
    action_published: [],
  };
  const add = (kind: ActivityKind, summary: string, createdAt: number) =>
    byKind[kind].push({ kind, summary, createdAt });
  const contacts = new Map(shop.contacts.map((contact) => [contact.id, contact]));
  for (const lead of shop.leads) {
    const contact = contacts.get(lead.contactId);
    if (!contact) continue;
    if (lead.source === 'missed_call')
      add('missed_call', `Missed call from ${contact.name} (${contact.phone})`, lead.createdAt);
    add('lead_created', leadCreatedSummary(lead, contact), lead.createdAt);
    for (const message of lead.messages) {
      if (message.direction === 'inbound')
        add('sms_inbound', inboundSummary(contact, message.body), message.occurredAt);
      else add('text_sent', `Text sent to ${contact.name}: ${preview(message.body)}`, message.occurredAt);
    }
  }
  for (const review of shop.reviews) add('review_received', reviewSummary(review), review.createdAtGoogle);
  for (const action of shop.actions) {
    if (action.status !== 'published') continue;
    const published = publishedActivity(shop, action);
    if (published) add('action_published', published.summary, published.createdAt);
  }
  return byKind;
}

function publishedActivity(shop: SimShop, action: SimAction): { summary: string; createdAt: number } | null {
  const { target } = action;
  if (target.type === 'review_reply') {
    const review = shop.reviews.find((candidate) => candidate.id === target.reviewId);
    if (!review?.repliedAt) return null;
    return {
      summary: `Published reply to ${review.reviewerName}'s ${review.rating}★ review`,
      createdAt: review.repliedAt,
    };
  }
  const contact = shop.contacts.find((candidate) => candidate.id === target.contactId);
  const lead = shop.leads.find((candidate) => candidate.id === target.leadId);
  const sent = lead?.messages.find(
    (message) => message.direction === 'outbound' && message.body === target.body,
  );
  if (!contact || !sent) return null;
  return { summary: `Sent follow-up text to ${contact.name}`, createdAt: sent.occurredAt };
}

/** The latest few events of each kind, merged, newest last. */
function buildActivity(shop: SimShop, sizes: ShopSizes): SimActivity[] {
  const byKind = candidateActivity(shop);
  const picked = (Object.keys(byKind) as ActivityKind[]).flatMap((kind) => {
    const items = [...byKind[kind]].sort((a, b) => a.createdAt - b.createdAt);
    return items.slice(Math.max(0, items.length - sizes.activity[kind]));
  });
  return picked.sort((a, b) => a.createdAt - b.createdAt);
}

// ---------------------------------------------------------------------------
// Shops
// ---------------------------------------------------------------------------

function populate(world: World, rng: Random, now: number, shop: SimShop, sizes: ShopSizes): SimShop {
  shop.contacts = buildContacts(world, rng, now, shop, sizes);
  shop.leads = buildLeads(world, rng, now, shop, sizes);
  finishContacts(rng, now, shop, sizes);
  shop.consents = buildConsents(rng, now, shop);
  shop.reviews = buildReviews(world, rng, now, shop, sizes);
  shop.actions = buildActions(world, rng, now, shop, sizes);
  shop.activity = buildActivity(shop, sizes);
  world.shops.set(shop.id, shop);
  return shop;
}

function emptyShop(
  world: World,
  rng: Random,
  fields: Omit<SimShop, 'id' | 'contacts' | 'leads' | 'reviews' | 'actions' | 'activity' | 'consents'>,
): SimShop {
  return {
    id: newId(world, () => rng.hex(10), 'shop'),
    ...fields,
    contacts: [],
    leads: [],
    reviews: [],
    actions: [],
    activity: [],
    consents: [],
  };
}

const SMALL_ACTIVITY: Readonly<Record<ActivityKind, number>> = {
  sms_inbound: 2,
  missed_call: 1,
  lead_created: 1,
  text_sent: 1,
  review_received: 1,
  action_published: 1,
};

function smallSizes(areaCodes: readonly string[], overrides: Partial<ShopSizes> = {}): ShopSizes {
  return {
    names: SMALL_SHOP_CONTACT_NAMES,
    areaCodes,
    contacts: 4,
    leadless: 0,
    neverContacted: 0,
    leads: 4,
    callbacks: 1,
    texting: true,
    reviews: 2,
    actions: [],
    activity: SMALL_ACTIVITY,
    untrustedSamples: false,
    ...overrides,
  };
}

function seedMain(world: World, rng: Random, now: number): SimShop {
  const shop = emptyShop(world, rng, {
    identity: {
      email: 'maria@riveraplumbing.example',
      firstName: 'Maria',
      businessName: 'Rivera Plumbing & Heating',
    },
    apiPlan: true,
    subscription: { status: 'active', plan: 'Pro', currentPeriodEnd: now + rng.int(14, 28) * DAY },
    paymentMethod: { brand: 'visa', last4: '4242' },
    texting: {
      number: '+15035550100',
      status: 'active',
      campaignApproved: true,
      forwardingVerifiedAt: now - rng.int(40, 200) * DAY,
    },
    googleConnected: true,
    credits: { used: rng.int(180, 340), included: 500 },
    gaps: ['google_business_profile_incomplete', 'after_hours_greeting_missing'],
  });
  return populate(world, rng, now, shop, {
    names: MAIN_CONTACT_NAMES,
    areaCodes: ['503', '971'],
    contacts: 32,
    leadless: 4,
    neverContacted: 2,
    leads: 40,
    callbacks: 6,
    texting: true,
    reviews: 25,
    actions: [
      'pending_review',
      'pending_review',
      'pending_follow',
      'pending_follow',
      'published_review',
      'published_review',
      'published_review',
      'published_follow',
      'published_follow',
      'declined_review',
      'declined_follow',
      'failed_follow',
    ],
    activity: {
      sms_inbound: 6,
      missed_call: 3,
      lead_created: 3,
      text_sent: 4,
      review_received: 2,
      action_published: 2,
    },
    untrustedSamples: true,
  });
}

function seedOther(world: World, rng: Random, now: number): SimShop {
  const shop = emptyShop(world, rng, {
    identity: {
      email: 'dave@northsoundhvac.example',
      firstName: 'Dave',
      businessName: 'North Sound Heating & Air',
    },
    apiPlan: true,
    subscription: { status: 'active', plan: 'Starter', currentPeriodEnd: now + rng.int(5, 25) * DAY },
    paymentMethod: { brand: 'mastercard', last4: '4444' },
    texting: {
      number: '+12065550100',
      status: 'active',
      campaignApproved: true,
      forwardingVerifiedAt: now - rng.int(30, 120) * DAY,
    },
    googleConnected: true,
    credits: { used: rng.int(20, 90), included: 200 },
    gaps: [],
  });
  return populate(
    world,
    rng,
    now,
    shop,
    smallSizes(['206', '425'], {
      contacts: 5,
      leadless: 1,
      leads: 5,
      reviews: 3,
      actions: ['pending_review', 'published_review'],
    }),
  );
}

function seedNoSubscription(world: World, rng: Random, now: number): SimShop {
  const shop = emptyShop(world, rng, {
    identity: {
      email: 'linda@cascadedrain.example',
      firstName: 'Linda',
      businessName: 'Cascade Drain & Sewer',
    },
    apiPlan: false,
    subscription: { status: 'canceled', plan: 'Pro', currentPeriodEnd: now - rng.int(5, 40) * DAY },
    paymentMethod: { brand: 'amex', last4: '0005' },
    texting: {
      number: '+13605550100',
      status: 'active',
      campaignApproved: true,
      forwardingVerifiedAt: now - rng.int(100, 300) * DAY,
    },
    googleConnected: false,
    credits: { used: 0, included: 0 },
    gaps: ['subscription_canceled'],
  });
  return populate(world, rng, now, shop, smallSizes(['360'], { contacts: 3, leads: 3 }));
}

function seedNoNumber(world: World, rng: Random, now: number): SimShop {
  const shop = emptyShop(world, rng, {
    identity: {
      email: 'sam@brightwaterplumbing.example',
      firstName: 'Sam',
      businessName: 'Brightwater Plumbing',
    },
    apiPlan: true,
    subscription: { status: 'active', plan: 'Starter', currentPeriodEnd: now + rng.int(5, 25) * DAY },
    paymentMethod: { brand: 'visa', last4: '1881' },
    texting: { number: null, status: 'none', campaignApproved: false, forwardingVerifiedAt: null },
    googleConnected: true,
    credits: { used: 0, included: 200 },
    gaps: ['texting_number_missing'],
  });
  return populate(
    world,
    rng,
    now,
    shop,
    smallSizes(['458'], { texting: false, actions: ['pending_follow'] }),
  );
}

function seedTextingInactive(world: World, rng: Random, now: number): SimShop {
  const shop = emptyShop(world, rng, {
    identity: { email: 'tony@valleycomfort.example', firstName: 'Tony', businessName: 'Valley Comfort HVAC' },
    apiPlan: true,
    subscription: { status: 'active', plan: 'Pro', currentPeriodEnd: now + rng.int(5, 25) * DAY },
    paymentMethod: { brand: 'discover', last4: '1117' },
    texting: {
      number: '+15415550100',
      status: 'pending',
      campaignApproved: false,
      forwardingVerifiedAt: null,
    },
    googleConnected: false,
    credits: { used: 0, included: 500 },
    gaps: ['carrier_registration_pending'],
  });
  return populate(
    world,
    rng,
    now,
    shop,
    smallSizes(['541'], { texting: false, actions: ['pending_follow'] }),
  );
}

export function seedWorld(world: World, rng: Random, now: number): SeededShops {
  return {
    main: seedMain(world, rng, now),
    other: seedOther(world, rng, now),
    noSubscription: seedNoSubscription(world, rng, now),
    noNumber: seedNoNumber(world, rng, now),
    textingInactive: seedTextingInactive(world, rng, now),
  };
}
