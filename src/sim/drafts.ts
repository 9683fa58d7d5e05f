/**
 * Review reply drafts, as POST /reviews/{id}/draft and the simulated agent write
 * them. Deterministic: the template depends only on the rating and a hash of the
 * review id. The review text is untrusted customer data and is never quoted.
 */
import { fill } from './demo-content.js';
import type { SimReview } from './world.js';

/** Placeholders: {first} reviewer's first name, {business}, {owner}. */
const POSITIVE_TEMPLATES = [
  "Thank you so much, {first}! We're thrilled the job went smoothly, and we'll pass your kind words on to the crew. — {owner}, {business}",
  "{first}, thanks for taking the time to leave a review! It was a pleasure helping you, and we're here whenever you need us. — {owner} at {business}",
  'We really appreciate this, {first}. Reviews like yours mean a lot to a small shop like ours. Thanks for choosing {business}! — {owner}',
  "Thanks a ton, {first}! Glad we could get everything working again. Don't hesitate to reach out if anything comes up. — {owner}, {business}",
] as const;

const MIXED_TEMPLATES = [
  "Thanks for the honest feedback, {first}. We're glad the work got done, and we'd love to hear how we could have made it a better experience. Give us a call anytime. — {owner}, {business}",
  "{first}, thank you for the review. We're always working to improve, and your feedback helps. If anything still isn't right, please call us and we'll take care of it. — {owner} at {business}",
] as const;

const NEGATIVE_TEMPLATES = [
  "{first}, I'm truly sorry we let you down. That isn't the experience we want for anyone. Please give us a call at the shop and ask for me — I'd like to make this right. — {owner}, {business}",
  'Hi {first}, I apologize for the trouble with your visit. We take this seriously and want to hear the details. Please call us directly so we can fix it. — {owner}, owner of {business}',
  "{first}, thank you for letting us know, and I'm sorry. We fell short here. Please call the shop when you have a moment; I'd like to talk it through and make it right. — {owner}, {business}",
] as const;

const FALLBACK_POSITIVE = 'Thank you for the review! We appreciate your business.';
const FALLBACK_NEGATIVE = "We're sorry about your experience. Please call the shop so we can make it right.";

/** Shortest review text that is checked for accidental verbatim reuse. */
const MIN_CHECKED_TEXT = 8;

/** A small, stable string hash (FNV-1a, 32 bit). */
function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The reviewer's first name, stripped of control and format characters (bidi overrides). */
function greetingName(reviewerName: string): string {
  const cleaned = reviewerName.replace(/[\p{Cc}\p{Cf}]/gu, ' ').trim();
  const first = cleaned.split(/\s+/)[0] ?? '';
  return first.length > 0 ? first.slice(0, 40) : 'there';
}

function templatesFor(rating: number): readonly string[] {
  if (rating <= 2) return NEGATIVE_TEMPLATES;
  if (rating === 3) return MIXED_TEMPLATES;
  return POSITIVE_TEMPLATES;
}

export function draftReplyFor(
  review: SimReview,
  businessName: string,
  ownerFirstName: string,
): { reply: string; isNegative: boolean } {
  const isNegative = review.rating <= 2;
  const templates = templatesFor(review.rating);
  const text = review.text.trim();
  const quotes = (reply: string) => text.length >= MIN_CHECKED_TEXT && reply.includes(text);
  const start = hashString(review.id) % templates.length;
  // The reviewer's name goes first; the generic greeting only if a name somehow echoes the text.
  for (const first of [greetingName(review.reviewerName), 'there']) {
    const vars = { first, business: businessName, owner: ownerFirstName };
    for (let offset = 0; offset < templates.length; offset++) {
      const reply = fill(templates[(start + offset) % templates.length] ?? '', vars);
      if (!quotes(reply)) return { reply, isNegative };
    }
  }
  return { reply: isNegative ? FALLBACK_NEGATIVE : FALLBACK_POSITIVE, isNegative };
}
