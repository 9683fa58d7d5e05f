/**
 * Every resource of the shop API v1, as zod schemas. Types for the whole
 * program come from here (z.infer), and so do the OpenAPI components.
 *
 * Objects are "loose": fields the reference does not list are kept, so a newer
 * server never breaks this client. Field types are firm: a number where a
 * string is documented is a contract violation.
 *
 * Nullability beyond what the reference marks is an assumption (see
 * docs/api-assumptions.md): consent_latest, forwarding_verified_at and payment_method
 * plausibly have no value for a shop that has not set them up.
 */
import * as z from 'zod';
import { id, openEnum, phoneNumber, timestamp } from './primitives.js';

export const ActionStatusValues = ['pending_approval', 'published', 'declined', 'failed'] as const;
export const ActionStatus = openEnum(ActionStatusValues);

export const Identity = z.looseObject({
  email: z.string(),
  first_name: z.string(),
  business_name: z.string(),
});

export const ShopOverview = z
  .looseObject({
    identity: Identity,
    gaps: z.array(z.unknown()).meta({ description: 'contents not shown by the reference' }),
    billing_pulse: z.looseObject({ status: openEnum(['active']), current_period_end: timestamp.nullable() }),
    texting_pulse: z.looseObject({
      texting_status: openEnum(['active']),
      texting_number: phoneNumber.nullable(),
    }),
    google_pulse: z.looseObject({ connected: z.boolean() }),
    inbox_pulse: z.looseObject({ open_leads: z.int(), needs_callback: z.int() }),
    reviews_pulse: z.looseObject({ unreplied: z.int() }),
    credits_pulse: z.looseObject({ used: z.int(), included: z.int(), remaining: z.int() }),
    pending_actions: z.int(),
    links: z.looseObject({ today: z.string(), inbox: z.string() }),
  })
  .meta({ id: 'ShopOverview' });

export const Action = z
  .looseObject({
    id,
    kind: openEnum(['review_reply']),
    status: ActionStatus,
    generated_at: timestamp,
  })
  .meta({ id: 'Action' });

export const ActivityItem = z
  .looseObject({
    kind: openEnum(['sms_inbound']),
    summary: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'ActivityItem' });

export const Today = z
  .looseObject({ pending_actions: z.array(Action), activity: z.array(ActivityItem) })
  .meta({ id: 'Today' });

export const Billing = z
  .looseObject({
    subscription: z.looseObject({
      status: openEnum(['active']),
      plan: z.string(),
      current_period_end: timestamp.nullable(),
    }),
    payment_method: z
      .looseObject({
        brand: z.string().meta({ description: 'card brand' }),
        last4: z.string().meta({ description: 'last four digits only' }),
      })
      .nullable(),
  })
  .meta({ id: 'Billing' });

export const TextingSetup = z
  .looseObject({
    texting_number: phoneNumber.nullable(),
    texting_status: openEnum(['active']),
    campaign_approved: z.boolean(),
    forwarding_verified_at: timestamp.nullable(),
  })
  .meta({ id: 'TextingSetup' });

export const LeadStatus = openEnum(['new']);
export const Urgency = openEnum(['same_day']);

export const InboxLead = z
  .looseObject({
    id,
    status: LeadStatus,
    urgency: Urgency,
    contact_name: z.string(),
    caller_phone: phoneNumber,
    job_type: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'InboxLead' });

export const InboundPreview = z
  .looseObject({ occurred_at: timestamp, body_preview: z.string() })
  .meta({ id: 'InboundPreview' });

export const InboxFilterValues = ['open', 'callbacks'] as const;

export const Inbox = z
  .looseObject({
    filter: openEnum(InboxFilterValues),
    open_leads: z.array(InboxLead),
    latest_inbound: z.array(InboundPreview),
  })
  .meta({ id: 'Inbox' });

export const ContactStage = openEnum(['lead']);

export const Contact = z
  .looseObject({
    id,
    name: z.string(),
    phone: phoneNumber,
    email: z.string().nullable(),
    stage: ContactStage,
    last_contact_at: timestamp.nullable(),
  })
  .meta({ id: 'Contact' });

export const ContactList = z.looseObject({ items: z.array(Contact) }).meta({ id: 'ContactList' });

export const Lead = z
  .looseObject({
    id,
    status: LeadStatus,
    urgency: Urgency,
    contact_id: id,
    source: openEnum(['missed_call']),
    created_at: timestamp,
  })
  .meta({ id: 'Lead' });

/** The contact inside GET /leads/{id}: email and last_contact_at are list-only. */
export const LeadContact = z
  .looseObject({
    id,
    name: z.string(),
    phone: phoneNumber,
    stage: ContactStage,
  })
  .meta({ id: 'LeadContact' });

export const MessageDirection = openEnum(['outbound', 'inbound']);

export const Message = z
  .looseObject({
    id,
    direction: MessageDirection,
    body: z.string().meta({ description: 'truncated by the service' }),
    occurred_at: timestamp,
  })
  .meta({ id: 'Message' });

export const ConsentRecord = z
  .looseObject({ phone: phoneNumber, sms_initial: z.boolean(), recorded_at: timestamp })
  .meta({ id: 'ConsentRecord' });

export const LeadDetail = z
  .looseObject({
    lead: Lead,
    contact: LeadContact,
    messages: z.array(Message),
    consent_latest: ConsentRecord.nullable(),
  })
  .meta({ id: 'LeadDetail' });

export const SendResult = z
  .looseObject({ sent: z.boolean(), replayed: z.boolean().optional() })
  .meta({ id: 'SendResult' });

export const Review = z
  .looseObject({
    id,
    reviewer_name: z.string(),
    rating: z.int(),
    review_text: z.string(),
    created_at_google: timestamp,
    replied_at: timestamp.nullable().meta({ description: 'null: no reply yet' }),
  })
  .meta({ id: 'Review' });

export const ReviewList = z
  .looseObject({ items: z.array(Review), unreplied_in_page: z.int() })
  .meta({ id: 'ReviewList' });

export const ReplyDraft = z
  .looseObject({ reply: z.string(), is_negative: z.boolean(), review_id: id })
  .meta({ id: 'ReplyDraft' });

export const ActionList = z.looseObject({ items: z.array(Action) }).meta({ id: 'ActionList' });

export const DecisionResult = z.looseObject({ status: ActionStatus }).meta({ id: 'DecisionResult' });

export type ShopOverview = z.infer<typeof ShopOverview>;
export type Action = z.infer<typeof Action>;
export type ActivityItem = z.infer<typeof ActivityItem>;
export type Today = z.infer<typeof Today>;
export type Billing = z.infer<typeof Billing>;
export type TextingSetup = z.infer<typeof TextingSetup>;
export type InboxLead = z.infer<typeof InboxLead>;
export type InboundPreview = z.infer<typeof InboundPreview>;
export type Inbox = z.infer<typeof Inbox>;
export type InboxFilter = (typeof InboxFilterValues)[number];
export type Contact = z.infer<typeof Contact>;
export type ContactList = z.infer<typeof ContactList>;
export type Lead = z.infer<typeof Lead>;
export type LeadContact = z.infer<typeof LeadContact>;
export type Message = z.infer<typeof Message>;
export type ConsentRecord = z.infer<typeof ConsentRecord>;
export type LeadDetail = z.infer<typeof LeadDetail>;
export type SendResult = z.infer<typeof SendResult>;
export type Review = z.infer<typeof Review>;
export type ReviewList = z.infer<typeof ReviewList>;
export type ReplyDraft = z.infer<typeof ReplyDraft>;
export type ActionList = z.infer<typeof ActionList>;
export type ActionStatusValue = (typeof ActionStatusValues)[number];
export type DecisionResult = z.infer<typeof DecisionResult>;
