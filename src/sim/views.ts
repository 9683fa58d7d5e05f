/**
 * How the simulator's records look through the API: the exact shapes of the
 * reference, built from a SimShop. Only documented fields are sent, so the
 * client is exercised against what the real service promises, no more.
 */
import type {
  Action,
  ActivityItem,
  Billing,
  ConsentRecord,
  Contact,
  InboundPreview,
  InboxLead,
  LeadDetail,
  Review,
  ShopOverview,
  TextingSetup,
} from '../contract/resources.js';
import type { Hints } from './hints.js';
import { OPEN_LEAD_STATUSES, type SimAction, type SimContact, type SimLead, type SimShop } from './world.js';

/**
 * Where returned message bodies are cut. The reference says they are truncated
 * but not where ("not shown"); 280 characters is the simulator's choice.
 */
export const MESSAGE_BODY_TRUNCATE = 280;
/** Length of `body_preview` in GET /inbox (also not shown; an assumption). */
export const PREVIEW_LENGTH = 100;

export const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export const isOpen = (lead: SimLead): boolean => OPEN_LEAD_STATUSES.has(lead.status);

/**
 * A missed-call lead nobody has texted back: what GET /inbox?filter=callbacks lists and /me's
 * needs_callback counts. A text to the contact, whichever lead it was filed under, answers it.
 */
export const needsCallback = (lead: SimLead): boolean =>
  isOpen(lead) &&
  lead.source === 'missed_call' &&
  lead.answeredAt === undefined &&
  !lead.messages.some((m) => m.direction === 'outbound');

export const isTextingLive = (shop: SimShop): boolean =>
  shop.texting.number !== null && shop.texting.status === 'active';

export const newestFirst = <T>(items: readonly T[], at: (item: T) => number): T[] =>
  [...items].sort((a, b) => at(b) - at(a));

export function contactOf(shop: SimShop, lead: SimLead): SimContact {
  const contact = shop.contacts.find((c) => c.id === lead.contactId);
  if (!contact) throw new Error(`lead ${lead.id} has no contact in shop ${shop.id}`);
  return contact;
}

export function overviewView(shop: SimShop, links: { today: string; inbox: string }): ShopOverview {
  return {
    identity: {
      email: shop.identity.email,
      first_name: shop.identity.firstName,
      business_name: shop.identity.businessName,
    },
    gaps: [...shop.gaps],
    billing_pulse: {
      status: shop.subscription.status,
      current_period_end: isoOrNull(shop.subscription.currentPeriodEnd),
    },
    texting_pulse: { texting_status: shop.texting.status, texting_number: shop.texting.number },
    google_pulse: { connected: shop.googleConnected },
    inbox_pulse: {
      open_leads: shop.leads.filter(isOpen).length,
      needs_callback: shop.leads.filter(needsCallback).length,
    },
    reviews_pulse: { unreplied: shop.reviews.filter((r) => r.repliedAt === null).length },
    credits_pulse: {
      used: shop.credits.used,
      included: shop.credits.included,
      remaining: Math.max(0, shop.credits.included - shop.credits.used),
    },
    pending_actions: shop.actions.filter((a) => a.status === 'pending_approval').length,
    links,
  };
}

export function actionView(action: SimAction): Action {
  return { id: action.id, kind: action.kind, status: action.status, generated_at: iso(action.generatedAt) };
}

export function activityView(shop: SimShop, limit: number, hints: Hints): ActivityItem[] {
  return newestFirst(shop.activity, (a) => a.createdAt)
    .slice(0, limit)
    .map((a) => ({ kind: a.kind, summary: hints.summary(a), created_at: iso(a.createdAt) }));
}

export function billingView(shop: SimShop): Billing {
  return {
    subscription: {
      status: shop.subscription.status,
      plan: shop.subscription.plan,
      current_period_end: isoOrNull(shop.subscription.currentPeriodEnd),
    },
    payment_method: shop.paymentMethod
      ? { brand: shop.paymentMethod.brand, last4: shop.paymentMethod.last4.slice(-4) }
      : null,
  };
}

export function textingView(shop: SimShop): TextingSetup {
  return {
    texting_number: shop.texting.number,
    texting_status: shop.texting.status,
    campaign_approved: shop.texting.campaignApproved,
    forwarding_verified_at: isoOrNull(shop.texting.forwardingVerifiedAt),
  };
}

export function inboxLeadView(shop: SimShop, lead: SimLead): InboxLead {
  const contact = contactOf(shop, lead);
  return {
    id: lead.id,
    status: lead.status,
    urgency: lead.urgency,
    contact_name: contact.name,
    caller_phone: contact.phone,
    job_type: lead.jobType,
    created_at: iso(lead.createdAt),
  };
}

/** The newest inbound messages of the given leads, newest first. */
export function latestInboundView(leads: readonly SimLead[], limit: number): InboundPreview[] {
  const inbound = leads.flatMap((lead) => lead.messages.filter((m) => m.direction === 'inbound'));
  return newestFirst(inbound, (m) => m.occurredAt)
    .slice(0, limit)
    .map((m) => ({ occurred_at: iso(m.occurredAt), body_preview: truncate(m.body, PREVIEW_LENGTH) }));
}

export function contactView(contact: SimContact, hints: Hints): Contact {
  return {
    id: contact.id,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    stage: contact.stage,
    last_contact_at: iso(hints.contactTime(contact)),
  };
}

export function latestConsent(shop: SimShop, phone: string): ConsentRecord | null {
  const records = shop.consents.filter((c) => c.phone === phone);
  const latest = records.reduce<(typeof records)[number] | undefined>(
    (best, c) => (!best || c.recordedAt >= best.recordedAt ? c : best),
    undefined,
  );
  return latest
    ? { phone: latest.phone, sms_initial: latest.smsInitial, recorded_at: iso(latest.recordedAt) }
    : null;
}

/** GET /leads/{id}: the newest `limit` messages, shown oldest to newest. */
export function leadDetailView(shop: SimShop, lead: SimLead, limit: number): LeadDetail {
  const contact = contactOf(shop, lead);
  const messages = [...lead.messages].sort((a, b) => a.occurredAt - b.occurredAt).slice(-limit);
  return {
    lead: {
      id: lead.id,
      status: lead.status,
      urgency: lead.urgency,
      contact_id: contact.id,
      source: lead.source,
      created_at: iso(lead.createdAt),
    },
    contact: { id: contact.id, name: contact.name, phone: contact.phone, stage: contact.stage },
    messages: messages.map((m) => ({
      id: m.id,
      direction: m.direction,
      body: truncate(m.body, MESSAGE_BODY_TRUNCATE),
      occurred_at: iso(m.occurredAt),
    })),
    consent_latest: latestConsent(shop, contact.phone),
  };
}

export function reviewView(review: SimShop['reviews'][number]): Review {
  return {
    id: review.id,
    reviewer_name: review.reviewerName,
    rating: review.rating,
    review_text: review.text,
    created_at_google: iso(review.createdAtGoogle),
    replied_at: review.repliedAt === null ? null : iso(review.repliedAt),
  };
}

/** Name and phone search of GET /contacts: accents and case ignored; digits match the phone. */
export function matchesContactQuery(contact: SimContact, q: string): boolean {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const needle = fold(q.trim());
  if (needle === '') return true;
  if (fold(contact.name).includes(needle)) return true;
  const digits = needle.replace(/\D/g, '');
  return (
    /^[\d\s()+.-]+$/.test(needle) && digits.length > 0 && contact.phone.replace(/\D/g, '').includes(digits)
  );
}
