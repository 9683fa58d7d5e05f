/**
 * The simulator's writes: what sending a text, drafting a reply and approving
 * an action do to a shop. HTTP concerns (auth, validation, envelopes) live in
 * app.ts; these functions assume a valid, authorised request.
 */
import { draftReplyFor } from './drafts.js';
import { contactOf, isOpen, isTextingLive, needsCallback, newestFirst } from './views.js';
import {
  newId,
  type SimAction,
  type SimContact,
  type SimLead,
  type SimReview,
  type SimShop,
  type World,
} from './world.js';

export interface OperationContext {
  world: World;
  now: number;
  /** Random hex for new ids. */
  nextIdPart: () => string;
}

/**
 * The thread a text to this contact lands in: the newest open lead, else the
 * newest lead. A contact with no lead at all gets one (source "sms"), because
 * the API only shows messages inside a lead (an assumption, see README).
 */
function threadFor(ctx: OperationContext, shop: SimShop, contact: SimContact): SimLead {
  const leads = newestFirst(
    shop.leads.filter((l) => l.contactId === contact.id),
    (l) => l.createdAt,
  );
  const existing = leads.find(isOpen) ?? leads[0];
  if (existing) return existing;
  const lead: SimLead = {
    id: newId(ctx.world, ctx.nextIdPart, 'lead'),
    contactId: contact.id,
    status: 'contacted',
    urgency: 'flexible',
    jobType: 'general inquiry',
    source: 'sms',
    createdAt: ctx.now,
    messages: [],
  };
  shop.leads.push(lead);
  return lead;
}

/**
 * Appends an outbound text to the contact's thread and spends a credit. The
 * text answers every missed call of the contact still waiting for a reply,
 * not only the one of the lead it is filed under: the customer got their
 * answer, so none of their calls is a callback any more, and each such lead
 * moves from new to contacted (an assumption about the service, see README).
 */
export function deliverText(
  ctx: OperationContext,
  shop: SimShop,
  contact: SimContact,
  body: string,
  lead: SimLead = threadFor(ctx, shop, contact),
): SimLead {
  const answered = shop.leads.filter((other) => other.contactId === contact.id && needsCallback(other));
  lead.messages.push({
    id: newId(ctx.world, ctx.nextIdPart, 'msg'),
    direction: 'outbound',
    body,
    occurredAt: ctx.now,
  });
  for (const call of answered) {
    call.answeredAt = ctx.now;
    if (call.status === 'new') call.status = 'contacted';
  }
  if (lead.status === 'new') lead.status = 'contacted';
  contact.lastContactAt = ctx.now;
  shop.credits.used += 1;
  shop.activity.push({ kind: 'text_sent', summary: `Text sent to ${contact.name}`, createdAt: ctx.now });
  return lead;
}

/**
 * A text from the customer arrives in a lead's thread (an opt-out word, a
 * reply while staff are writing): what a test or the demo needs when chance
 * would not bring it.
 */
export function receiveText(ctx: OperationContext, shop: SimShop, lead: SimLead, body: string): void {
  const contact = shop.contacts.find((candidate) => candidate.id === lead.contactId);
  lead.messages.push({
    id: newId(ctx.world, ctx.nextIdPart, 'msg'),
    direction: 'inbound',
    body,
    occurredAt: ctx.now,
  });
  if (contact) contact.lastContactAt = ctx.now;
  shop.activity.push({
    kind: 'sms_inbound',
    summary: `Text from ${contact?.name ?? 'a customer'}`,
    createdAt: ctx.now,
  });
}

/**
 * Drafts a reply and queues it for approval as a review_reply action. One
 * pending action per review: drafting again replaces its text instead of
 * queueing a duplicate. The review itself is untouched (replied_at stays).
 */
export function draftReply(ctx: OperationContext, shop: SimShop, review: SimReview) {
  const draft = draftReplyFor(review, shop.identity.businessName, shop.identity.firstName);
  const pending = shop.actions.find(
    (a) =>
      a.status === 'pending_approval' && a.target.type === 'review_reply' && a.target.reviewId === review.id,
  );
  if (pending && pending.target.type === 'review_reply') {
    pending.target.reply = draft.reply;
    pending.generatedAt = ctx.now;
  } else {
    shop.actions.push({
      id: newId(ctx.world, ctx.nextIdPart, 'act'),
      kind: 'review_reply',
      status: 'pending_approval',
      generatedAt: ctx.now,
      target: { type: 'review_reply', reviewId: review.id, reply: draft.reply },
    });
  }
  return draft;
}

/**
 * Approves a pending action: it becomes published and takes effect. A
 * review_reply publishes its reply (the review gets replied_at); a
 * follow_up_text sends its held text, but only while texting is live.
 */
export function approveAction(ctx: OperationContext, shop: SimShop, action: SimAction): void {
  action.status = 'published';
  const target = action.target;
  if (target.type === 'review_reply') {
    const review = shop.reviews.find((r) => r.id === target.reviewId);
    if (review) {
      review.reply = target.reply;
      review.repliedAt = ctx.now;
    }
    shop.activity.push({
      kind: 'action_published',
      summary: `Reply published to ${review?.reviewerName ?? 'a review'}`,
      createdAt: ctx.now,
    });
    return;
  }
  const lead = shop.leads.find((l) => l.id === target.leadId);
  const contact =
    shop.contacts.find((c) => c.id === target.contactId) ?? (lead ? contactOf(shop, lead) : undefined);
  shop.activity.push({
    kind: 'action_published',
    summary: `Follow-up approved for ${contact?.name ?? 'a contact'}`,
    createdAt: ctx.now,
  });
  if (contact && isTextingLive(shop)) deliverText(ctx, shop, contact, target.body, lead);
}
