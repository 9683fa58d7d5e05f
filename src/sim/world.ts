/**
 * The simulator's own data model: every shop it serves, with the full records
 * behind the API's views. Times are epoch milliseconds here and become ISO 8601
 * UTC strings only in responses (see views.ts).
 */

export type TokenName =
  | 'write'
  | 'read'
  | 'other_shop'
  | 'no_subscription'
  | 'no_number'
  | 'texting_inactive';

export const TOKEN_NAMES: readonly TokenName[] = [
  'write',
  'read',
  'other_shop',
  'no_subscription',
  'no_number',
  'texting_inactive',
];

export interface SimToken {
  /** Name in the `tokens` object the simulator prints, and in /_sim/requests. */
  name: TokenName | `${TokenName}:rotated`;
  value: string;
  shopId: string;
  mode: 'read' | 'write';
  revoked: boolean;
}

export interface SimContact {
  id: string;
  name: string;
  /** E.164, e.g. +15035550123 */
  phone: string;
  email: string | null;
  /** Observed: lead; the simulator also uses customer. */
  stage: string;
  /** The reference gives no null here: a contact never texted shows when it was added. */
  lastContactAt: number;
}

export interface SimMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  /** The full text; responses truncate it (MESSAGE_BODY_TRUNCATE). */
  body: string;
  occurredAt: number;
}

export interface SimLead {
  id: string;
  contactId: string;
  /** new, contacted, scheduled (open) or won, lost (closed). */
  status: string;
  /** same_day, this_week, flexible */
  urgency: string;
  jobType: string;
  /** missed_call, web_form, sms */
  source: string;
  createdAt: number;
  /**
   * When a text to the contact answered this missed call. A text answers every missed call of its
   * contact, also one of a lead it was not filed under (an assumption about the service, see README).
   */
  answeredAt?: number;
  /** Oldest first. */
  messages: SimMessage[];
}

export interface SimConsent {
  phone: string;
  smsInitial: boolean;
  recordedAt: number;
}

export interface SimReview {
  id: string;
  reviewerName: string;
  rating: number;
  text: string;
  createdAtGoogle: number;
  repliedAt: number | null;
  /** The published reply, once an approved review_reply action has published it. */
  reply: string | null;
}

/** What an action does when approved. */
export type SimActionTarget =
  | { type: 'review_reply'; reviewId: string; reply: string }
  | { type: 'follow_up_text'; contactId: string; leadId: string; body: string };

export interface SimAction {
  id: string;
  /** review_reply or follow_up_text */
  kind: string;
  status: 'pending_approval' | 'published' | 'declined' | 'failed';
  generatedAt: number;
  target: SimActionTarget;
}

export interface SimActivity {
  /** sms_inbound, missed_call, review_received, text_sent, action_published, lead_created */
  kind: string;
  summary: string;
  createdAt: number;
}

export interface SimShop {
  id: string;
  identity: { email: string; firstName: string; businessName: string };
  /** false for a shop whose plan cannot use the API: every call gets 403 no_subscription. */
  apiPlan: boolean;
  subscription: { status: string; plan: string; currentPeriodEnd: number | null };
  paymentMethod: { brand: string; last4: string } | null;
  texting: {
    number: string | null;
    /** active, pending (carrier registration unfinished) or none */
    status: string;
    campaignApproved: boolean;
    forwardingVerifiedAt: number | null;
  };
  googleConnected: boolean;
  credits: { used: number; included: number };
  /** GET /me `gaps`: contents not shown by the reference; the simulator sends short strings. */
  gaps: string[];
  contacts: SimContact[];
  leads: SimLead[];
  reviews: SimReview[];
  actions: SimAction[];
  /** Newest last. */
  activity: SimActivity[];
  /** Consent history, newest last; the latest record for a phone is what the API shows. */
  consents: SimConsent[];
}

export interface World {
  shops: Map<string, SimShop>;
  tokens: Map<string, SimToken>;
  /** Ids already handed out, across all shops: ids are unique service-wide. */
  usedIds: Set<string>;
}

export function createWorld(): World {
  return { shops: new Map(), tokens: new Map(), usedIds: new Set() };
}

/** Statuses of a lead that count as open in GET /inbox?filter=open. */
export const OPEN_LEAD_STATUSES: ReadonlySet<string> = new Set(['new', 'contacted', 'scheduled']);

/** A new id, unique across every shop of the world, e.g. `lead_3f9a0c21b7`. */
export function newId(world: World, next: () => string, prefix: string): string {
  for (;;) {
    const candidate = `${prefix}_${next()}`;
    if (!world.usedIds.has(candidate)) {
      world.usedIds.add(candidate);
      return candidate;
    }
  }
}
