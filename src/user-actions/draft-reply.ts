/** Asking the service for a reply draft to a review. A draft is never published by this call. */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { failureOf } from '../poller/store-writes.js';
import { type ActionContext, enterReadOnlyFromServer, notify, pausedMessage } from './context.js';

export async function draftReply(context: ActionContext, reviewId: string): Promise<void> {
  const { store, client } = context;
  if (store.getState().drafts[reviewId]?.state === 'drafting') return;
  const paused = pausedMessage(context);
  if (paused) return notify(context, `No draft yet: ${paused}`, 'warning');
  const previous = store.getState().drafts[reviewId]?.draft;
  const setDraft = (draft: ReturnType<typeof store.getState>['drafts'][string]) =>
    store.setState((state) => ({ drafts: { ...state.drafts, [reviewId]: draft } }));
  setDraft({ state: 'drafting', ...(previous ? { draft: previous } : {}), at: context.now() });
  try {
    const draft = await client.draftReply(reviewId);
    setDraft({ state: 'done', draft, at: context.now() });
    notify(context, 'Draft ready: it is not published.', 'success');
  } catch (error) {
    setDraft({
      state: 'failed',
      ...(previous ? { draft: previous } : {}),
      error: failureOf(error, context.now()),
      at: context.now(),
    });
    if (error instanceof ApiError && error.code === 'read_only' && !error.local)
      enterReadOnlyFromServer(context);
    notify(
      context,
      `No draft: ${error instanceof ApiError ? explainApiError(error) : String(error)}`,
      'error',
    );
  }
}
