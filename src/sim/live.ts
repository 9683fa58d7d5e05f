/**
 * Live mode: every few seconds something happens in the shop, the way it would
 * at a real front desk. Each call applies one event to `shop`, stamped `now`.
 */

import {
  fill,
  firstNameOf,
  followUpBody,
  freshPhone,
  inboundSummary,
  JOB_TYPES,
  leadCreatedSummary,
  MAIN_CONTACT_NAMES,
  makeContact,
  phonesOf,
  RATING_WEIGHTS,
  REVIEWER_NAMES,
  reviewSummary,
  reviewText,
  SMALL_SHOP_CONTACT_NAMES,
  weightedPick,
} from './demo-content.js';
import { draftReplyFor } from './drafts.js';
import { deliverText } from './operations.js';
import type { Random } from './random.js';
import { isOpen, isTextingLive } from './views.js';
import { newId, type SimContact, type SimLead, type SimShop, type World } from './world.js';

export { draftReplyFor } from './drafts.js';

export interface LiveEvent {
  kind: 'inbound_text' | 'missed_call' | 'review' | 'action' | 'dashboard_reply';
  summary: string;
}

type Kind = LiveEvent['kind'];

const EVENT_WEIGHTS: readonly (readonly [Kind, number])[] = [
  ['inbound_text', 45],
  ['missed_call', 25],
  ['review', 15],
  ['action', 15],
  ['dashboard_reply', 10],
];

/** Placeholders: {job}. */
const LIVE_INBOUND_TEXTS = [
  'Is tomorrow 9am ok?',
  'Running 10 min late, sorry!',
  'Any update on when you can come out?',
  'Can you send the invoice by email?',
  "It's acting up again 😕",
  'Thanks! See you then 👍',
  'Quick question — do you take card on site?',
  'Is the tech still coming today?',
  'Sent you a photo ({job}), let me know what you think.',
  '¿Pueden venir mañana temprano?',
] as const;

const MISSED_CALL_TEXTS = [
  'Just called about {job}, please call back when you can.',
  'Hi, tried calling — need someone for {job} today if possible.',
] as const;

/** What staff answer from the web dashboard. Placeholders: {first}, {job}. */
const DASHBOARD_REPLIES = [
  'Thanks {first}, we can be there tomorrow between 9 and 11.',
  'Hi {first}, got it. A tech will call you shortly about the {job}.',
  'No problem {first}, see you then!',
  'Yes, we take card on site.',
] as const;

const NEW_CALLER_AREA_CODES = ['503', '971', '360'] as const;

const MISSED_CALL_URGENCY = [
  ['same_day', 60],
  ['this_week', 30],
  ['flexible', 10],
] as const;

function contactOf(shop: SimShop, lead: SimLead): SimContact | undefined {
  return shop.contacts.find((contact) => contact.id === lead.contactId);
}

function openLeads(shop: SimShop): SimLead[] {
  return shop.leads.filter((lead) => isOpen(lead) && contactOf(shop, lead));
}

function inboundText(world: World, shop: SimShop, rng: Random, now: number): LiveEvent | null {
  const leads = openLeads(shop);
  // A shop without a working texting number receives no texts.
  if (leads.length === 0 || !isTextingLive(shop)) return null;
  const lead = rng.pick(leads);
  const contact = contactOf(shop, lead);
  if (!contact) return null;
  const body = fill(rng.pick(LIVE_INBOUND_TEXTS), { job: lead.jobType });
  lead.messages.push({
    id: newId(world, () => rng.hex(10), 'msg'),
    direction: 'inbound',
    body,
    occurredAt: now,
  });
  contact.lastContactAt = now;
  const summary = inboundSummary(contact, body);
  shop.activity.push({ kind: 'sms_inbound', summary, createdAt: now });
  return { kind: 'inbound_text', summary };
}

/**
 * Someone at the shop answered a waiting customer from the web dashboard: a text the inbox did not send,
 * which moves the thread, the contact's last contact, Today's activity and (for a new lead) its status.
 */
function dashboardReply(world: World, shop: SimShop, rng: Random, now: number): LiveEvent | null {
  const waiting = openLeads(shop).filter((lead) => lead.messages.at(-1)?.direction === 'inbound');
  if (waiting.length === 0 || !isTextingLive(shop)) return null;
  const lead = rng.pick(waiting);
  const contact = contactOf(shop, lead);
  if (!contact) return null;
  const body = fill(rng.pick(DASHBOARD_REPLIES), { first: firstNameOf(contact.name), job: lead.jobType });
  deliverText({ world, now, nextIdPart: () => rng.hex(10) }, shop, contact, body, lead);
  return { kind: 'dashboard_reply', summary: `Replied to ${contact.name} from the dashboard` };
}

function callerFor(world: World, shop: SimShop, rng: Random, now: number): SimContact {
  if (shop.contacts.length > 0 && rng.chance(0.6)) return rng.pick(shop.contacts);
  const name = rng.pick([...MAIN_CONTACT_NAMES, ...SMALL_SHOP_CONTACT_NAMES]);
  const phone = freshPhone(rng, NEW_CALLER_AREA_CODES, phonesOf(shop));
  const contact = makeContact(world, rng, name, phone, rng.chance(0.3), now);
  shop.contacts.push(contact);
  return contact;
}

function missedCall(world: World, shop: SimShop, rng: Random, now: number): LiveEvent {
  return missedCallFrom(callerFor(world, shop, rng, now), world, shop, rng, now).event;
}

/** A call from this contact that nobody answered: a new missed-call lead, sometimes with a text. */
export function missedCallFrom(
  contact: SimContact,
  world: World,
  shop: SimShop,
  rng: Random,
  now: number,
): { event: LiveEvent; lead: SimLead } {
  const jobType = rng.pick(JOB_TYPES);
  const lead: SimLead = {
    id: newId(world, () => rng.hex(10), 'lead'),
    contactId: contact.id,
    status: 'new',
    urgency: weightedPick(rng, MISSED_CALL_URGENCY),
    jobType,
    source: 'missed_call',
    createdAt: now,
    messages: [],
  };
  if (isTextingLive(shop) && rng.chance(0.5)) {
    const body = fill(rng.pick(MISSED_CALL_TEXTS), { job: jobType });
    lead.messages.push({
      id: newId(world, () => rng.hex(10), 'msg'),
      direction: 'inbound',
      body,
      occurredAt: now,
    });
  }
  shop.leads.push(lead);
  contact.lastContactAt = now;
  const summary = `Missed call from ${contact.name} (${contact.phone})`;
  shop.activity.push(
    { kind: 'missed_call', summary, createdAt: now },
    { kind: 'lead_created', summary: leadCreatedSummary(lead, contact), createdAt: now },
  );
  return { event: { kind: 'missed_call', summary }, lead };
}

function newReview(world: World, shop: SimShop, rng: Random, now: number): LiveEvent {
  const rating = weightedPick(rng, RATING_WEIGHTS);
  const review = {
    id: newId(world, () => rng.hex(10), 'rev'),
    reviewerName: rng.pick(REVIEWER_NAMES),
    rating,
    text: reviewText(rng, rating),
    createdAtGoogle: now,
    repliedAt: null,
    reply: null,
  };
  shop.reviews.push(review);
  const summary = reviewSummary(review);
  shop.activity.push({ kind: 'review_received', summary, createdAt: now });
  return { kind: 'review', summary };
}

/** Targets (review or lead ids) that already have an action awaiting approval. */
function pendingTargets(shop: SimShop): Set<string> {
  const ids = new Set<string>();
  for (const action of shop.actions) {
    if (action.status !== 'pending_approval') continue;
    ids.add(action.target.type === 'review_reply' ? action.target.reviewId : action.target.leadId);
  }
  return ids;
}

function reviewReplyAction(world: World, shop: SimShop, rng: Random, now: number): LiveEvent | null {
  const pending = pendingTargets(shop);
  const reviews = shop.reviews.filter((review) => review.repliedAt === null && !pending.has(review.id));
  if (reviews.length === 0) return null;
  const review = rng.pick(reviews);
  const { reply } = draftReplyFor(review, shop.identity.businessName, shop.identity.firstName);
  shop.actions.push({
    id: newId(world, () => rng.hex(10), 'act'),
    kind: 'review_reply',
    status: 'pending_approval',
    generatedAt: now,
    target: { type: 'review_reply', reviewId: review.id, reply },
  });
  return {
    kind: 'action',
    summary: `Drafted a reply to ${review.reviewerName}'s ${review.rating}★ review (awaiting approval)`,
  };
}

function followUpAction(world: World, shop: SimShop, rng: Random, now: number): LiveEvent | null {
  const pending = pendingTargets(shop);
  const leads = openLeads(shop).filter((lead) => !pending.has(lead.id));
  if (leads.length === 0) return null;
  const lead = rng.pick(leads);
  const contact = contactOf(shop, lead);
  if (!contact) return null;
  const body = followUpBody(rng, shop, contact, lead);
  shop.actions.push({
    id: newId(world, () => rng.hex(10), 'act'),
    kind: 'follow_up_text',
    status: 'pending_approval',
    generatedAt: now,
    target: { type: 'follow_up_text', contactId: contact.id, leadId: lead.id, body },
  });
  return { kind: 'action', summary: `Drafted a follow-up text to ${contact.name} (awaiting approval)` };
}

function agentAction(world: World, shop: SimShop, rng: Random, now: number): LiveEvent | null {
  const makers = rng.chance(0.5) ? [reviewReplyAction, followUpAction] : [followUpAction, reviewReplyAction];
  for (const make of makers) {
    const event = make(world, shop, rng, now);
    if (event) return event;
  }
  return null;
}

/**
 * One event of the given kind now (tests insert records between key presses);
 * an action or inbound text that cannot happen (nothing to act on, texting
 * not live) is null.
 */
export function applyLiveEventOfKind(
  kind: Kind,
  world: World,
  shop: SimShop,
  rng: Random,
  now: number,
): LiveEvent | null {
  switch (kind) {
    case 'inbound_text':
      return inboundText(world, shop, rng, now);
    case 'missed_call':
      return missedCall(world, shop, rng, now);
    case 'review':
      return newReview(world, shop, rng, now);
    case 'action':
      return agentAction(world, shop, rng, now);
    case 'dashboard_reply':
      return dashboardReply(world, shop, rng, now);
  }
}

/**
 * A call from this person is missed now: a new open lead, and a new contact
 * unless one of this name already has this number (a test's second customer
 * of the same name, another number).
 */
export function missedCallFromCaller(
  caller: { name: string; phone: string },
  world: World,
  shop: SimShop,
  rng: Random,
  now: number,
): LiveEvent {
  const known = shop.contacts.find((contact) => contact.phone === caller.phone);
  if (known && known.name !== caller.name)
    throw new Error(`${caller.phone} is ${known.name}'s number in this shop, not ${caller.name}'s`);
  const contact = known ?? makeContact(world, rng, caller.name, caller.phone, false, now);
  if (!known) shop.contacts.push(contact);
  return missedCallFrom(contact, world, shop, rng, now).event;
}

export function applyLiveEvent(world: World, shop: SimShop, rng: Random, now: number): LiveEvent {
  const kind = weightedPick(rng, EVENT_WEIGHTS);
  const event =
    kind === 'inbound_text'
      ? inboundText(world, shop, rng, now)
      : kind === 'action'
        ? (agentAction(world, shop, rng, now) ?? inboundText(world, shop, rng, now))
        : kind === 'dashboard_reply'
          ? (dashboardReply(world, shop, rng, now) ?? inboundText(world, shop, rng, now))
          : null;
  if (event) return event;
  return kind === 'review' ? newReview(world, shop, rng, now) : missedCall(world, shop, rng, now);
}
