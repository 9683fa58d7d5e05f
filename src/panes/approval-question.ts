/**
 * The question that approves an action (the same from Actions and from
 * Reviews): everything the inbox knows of the action when it is asked, as
 * labelled paragraphs the shell shows whole. The reference gives an action
 * only its id, kind, status and time; what a review_reply publishes is known
 * only when this inbox asked for the draft and saw which action holds it.
 */
import type { Action } from '../contract/resources.js';
import type { ApprovalFact, AppState, ConfirmApprove, DraftedReply } from '../store/app-store.js';
import { ago, block, dateTime, enumLabel, oneLine, stars } from '../ui-kit/format.js';

const KNOWN_FIELDS = new Set(['id', 'kind', 'status', 'generated_at']);

/** Fields the service sent beyond the reference's four: all there is to tell what an action concerns. */
export const extraFields = (action: Action) =>
  Object.entries(action).filter(([key]) => !KNOWN_FIELDS.has(key));

/** A field's value as text: a string as it is, anything else as JSON. */
export const fieldText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The pending action holding the reply drafted here for this review, if this inbox saw it made. */
export const draftedReplyOf = (state: AppState, reviewId: string): DraftedReply | undefined =>
  Object.values(state.draftedReplies).find((drafted) => drafted.reviewId === reviewId);

/** What the review and its drafted reply say, when the action is bound to a draft made here. */
function draftFacts(state: AppState, drafted: DraftedReply): ApprovalFact[] {
  const review = state.reviews.data?.items.find((item) => item.id === drafted.reviewId);
  const draft = state.drafts[drafted.reviewId]?.draft;
  const facts: ApprovalFact[] = [];
  if (review) {
    facts.push({
      label: 'Review',
      text: `${oneLine(review.reviewer_name)} · ${stars(review.rating)} (${review.rating} of 5) · ${dateTime(review.created_at_google)}${review.replied_at ? ` · already replied ${dateTime(review.replied_at)}` : ' · not replied'}`,
    });
    facts.push({ label: 'They wrote', text: block(review.review_text) || '(no text)' });
  } else {
    facts.push({
      label: 'Review',
      text: `${oneLine(drafted.reviewer) || 'a reviewer'} (review ${oneLine(drafted.reviewId)}; no longer in the list read, so its text is not shown)`,
      tone: 'unknown',
    });
  }
  facts.push({
    label: 'Publishes',
    text: `the reply drafted here at ${dateTime(new Date(drafted.at).toISOString())}${draft?.is_negative ? ' (the shop flags it negative: read it first)' : ''}:\n${block(drafted.reply)}`,
    tone: 'publishes',
  });
  return facts;
}

/** Everything the inbox knows of an action, for the question that approves it. */
export function approvalFacts(
  state: AppState,
  action: Pick<Action, 'id' | 'kind' | 'generated_at'> & Partial<Action>,
  now: number,
): ApprovalFact[] {
  const since = ago(action.generated_at, now);
  const facts: ApprovalFact[] = [
    { label: 'Kind', text: `${enumLabel(action.kind)} (${oneLine(action.kind)})` },
    { label: 'Action', text: oneLine(action.id) },
    {
      label: 'Generated',
      text: since ? `${dateTime(action.generated_at)} (${since})` : dateTime(action.generated_at),
    },
  ];
  if (action.status !== undefined) facts.push({ label: 'Status', text: enumLabel(action.status) });
  for (const [key, value] of extraFields(action as Action))
    facts.push({ label: oneLine(key), text: block(fieldText(value)) });
  const drafted = state.draftedReplies[action.id];
  if (drafted) return [...facts, ...draftFacts(state, drafted)];
  if (String(action.kind) === 'review_reply') {
    const unbound = Object.values(state.drafts).some((draft) => draft.state === 'done');
    facts.push({
      label: 'Publishes',
      text: `a reply to a review. Which review, and what the reply says, cannot be shown: the API does not tell, and this inbox ${unbound ? 'could not tell which action holds the draft it asked for' : 'did not ask for this draft'}. Read it in the shop's dashboard before approving.`,
      tone: 'unknown',
    });
  } else {
    facts.push({
      label: 'Does',
      text: "what it does is not shown: the API gives an action only its kind, id, status and time. Approving may send a held text. Check it in the shop's dashboard if unsure.",
      tone: 'unknown',
    });
  }
  return facts;
}

/** The y/n question that approves this action, bound to it and to what is known of it now. */
export function approvePrompt(
  state: AppState,
  action: Pick<Action, 'id' | 'kind' | 'generated_at'> & Partial<Action>,
  now: number,
): ConfirmApprove {
  return {
    kind: 'confirm-approve',
    actionId: action.id,
    label: `${enumLabel(action.kind)} ${oneLine(action.id)}`,
    facts: approvalFacts(state, action, now),
    scroll: 0,
  };
}
