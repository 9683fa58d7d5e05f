/**
 * Asking the service for a reply draft to a review. A draft is never
 * published by this call. When the answer is lost, the pending actions are
 * read again: a reply draft awaiting approval that was not there before says
 * the service made it.
 */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { failureOf } from '../poller/store-writes.js';
import { type ActionContext, enterReadOnlyFromServer, notify, pausedMessage } from './context.js';
import { outcomeUnknown } from './outcome.js';

/** The pending review_reply actions the service lists now. */
async function pendingReplyDrafts(context: ActionContext): Promise<Set<string>> {
  const pending = await context.client.getActions({ status: 'pending_approval', limit: 100 });
  return new Set(
    pending.items.filter((action) => String(action.kind) === 'review_reply').map((action) => action.id),
  );
}

/**
 * The pending review_reply action holding the draft just made: the one that appeared since `before`, or,
 * when drafting again replaced the text of an action drafted here before, that one. Undefined when it
 * cannot be told (several appeared: another terminal drafted too; the shop could not be asked).
 */
async function bindDraft(
  context: ActionContext,
  reviewId: string,
  before: Set<string>,
): Promise<string | undefined> {
  let after: Set<string>;
  try {
    after = await pendingReplyDrafts(context);
  } catch {
    return undefined;
  }
  const appeared = [...after].filter((id) => !before.has(id));
  if (appeared.length === 1) return appeared[0];
  if (appeared.length > 0) return undefined;
  const earlier = Object.values(context.store.getState().draftedReplies).find(
    (drafted) => drafted.reviewId === reviewId && after.has(drafted.actionId),
  );
  return earlier?.actionId;
}

export async function draftReply(context: ActionContext, reviewId: string): Promise<void> {
  const { store, client } = context;
  if (store.getState().drafts[reviewId]?.state === 'drafting') return;
  const paused = pausedMessage(context);
  if (paused) return notify(context, `No draft yet: ${paused}`, 'warning');
  const previous = store.getState().drafts[reviewId]?.draft;
  const setDraft = (draft: ReturnType<typeof store.getState>['drafts'][string]) =>
    store.setState((state) => ({ drafts: { ...state.drafts, [reviewId]: draft } }));
  setDraft({ state: 'drafting', ...(previous ? { draft: previous } : {}), at: context.now() });
  // What was pending before asking: the action that appears after it is the one holding this draft
  // (the reference links an action to nothing; asking the shop just before is the only way to tell).
  let askedBefore: Set<string> | undefined;
  try {
    askedBefore = await pendingReplyDrafts(context);
  } catch {
    askedBefore = undefined;
  }
  const knownBefore =
    askedBefore ??
    new Set((store.getState().actions.pending_approval.data?.items ?? []).map((action) => action.id));
  try {
    const draft = await client.draftReply(reviewId);
    context.keyMode?.accepted();
    setDraft({ state: 'done', draft, at: context.now() });
    const actionId = askedBefore ? await bindDraft(context, reviewId, askedBefore) : undefined;
    if (actionId) {
      const review = store.getState().reviews.data?.items.find((item) => item.id === reviewId);
      store.setState((state) => ({
        draftedReplies: {
          ...state.draftedReplies,
          [actionId]: {
            actionId,
            reviewId,
            reviewer: review?.reviewer_name ?? '',
            reply: draft.reply,
            at: context.now(),
          },
        },
      }));
      context.poller.invalidate({ kind: 'actions', status: 'pending_approval' });
    }
    notify(
      context,
      actionId
        ? `Draft ready: it is not published; it awaits approval as action ${actionId} (a approves it).`
        : 'Draft ready: it is not published. Which pending action holds it could not be told: approve it in Actions.',
      'success',
    );
  } catch (error) {
    setDraft({
      state: 'failed',
      ...(previous ? { draft: previous } : {}),
      error: failureOf(error, context.now()),
      at: context.now(),
    });
    const reason = error instanceof ApiError ? explainApiError(error) : String(error);
    if (outcomeUnknown(error)) {
      let appeared: string[] | undefined;
      try {
        appeared = [...(await pendingReplyDrafts(context))].filter((id) => !knownBefore.has(id));
      } catch {
        appeared = undefined;
      }
      notify(
        context,
        appeared === undefined
          ? `The draft's answer was lost (${reason}) and the shop could not be asked again: check Actions for a reply awaiting approval before asking again.`
          : appeared.length > 0
            ? `The draft's answer was lost, but a reply draft now awaits approval in Actions (${appeared.join(', ')}): the shop made it.`
            : `No draft: ${reason} The shop lists no new reply draft awaiting approval.`,
        appeared && appeared.length > 0 ? 'warning' : 'error',
      );
      context.poller.invalidate({ kind: 'actions', status: 'pending_approval' });
      return;
    }
    if (error instanceof ApiError && error.code === 'read_only' && !error.local)
      enterReadOnlyFromServer(context);
    notify(context, `No draft: ${reason}`, 'error');
  }
}
