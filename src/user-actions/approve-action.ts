/**
 * Approving a pending action, after staff answered y to the confirmation.
 * When the answer is lost (no answer, a 5xx, an answer of unknown shape),
 * the service may have acted anyway: the action lists are read again, and
 * staff are told what the service says, never a guess.
 */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { failureOf } from '../poller/store-writes.js';
import type { AppState } from '../store/app-store.js';
import { sanitize } from '../text/sanitize.js';
import { type ActionContext, enterReadOnlyFromServer, notify, pausedMessage } from './context.js';
import { outcomeUnknown } from './outcome.js';

/** Whether the action is a review reply, as far as the lists read or a draft made here tell. */
function repliesToReview(state: AppState, actionId: string): boolean {
  if (state.draftedReplies[actionId]) return true;
  return Object.values(state.actions).some((list) =>
    list.data?.items.some((action) => action.id === actionId && String(action.kind) === 'review_reply'),
  );
}

/** Where the service lists the action now, read after an answer was lost. */
async function listedStatus(
  context: ActionContext,
  actionId: string,
): Promise<'published' | 'pending' | undefined> {
  const { client } = context;
  const [published, pending] = await Promise.all([
    client.getActions({ status: 'published', limit: 100 }),
    client.getActions({ status: 'pending_approval', limit: 100 }),
  ]);
  if (published.items.some((action) => action.id === actionId)) return 'published';
  if (pending.items.some((action) => action.id === actionId)) return 'pending';
  return undefined;
}

/**
 * Approves one action. Every outcome is said with the action it concerns (`label`, "review reply act_12",
 * else its id) and what the service answered, so the message log keeps each decision whole.
 */
export async function approveAction(
  context: ActionContext,
  actionId: string,
  label = `action ${actionId}`,
): Promise<void> {
  const { store, client } = context;
  if (store.getState().decisions[actionId]?.state === 'approving') return;
  const paused = pausedMessage(context);
  if (paused) return notify(context, `Not approved yet: ${label}; ${paused}`, 'warning');
  const setDecision = (decision: ReturnType<typeof store.getState>['decisions'][string]) =>
    store.setState((state) => ({ decisions: { ...state.decisions, [actionId]: decision } }));
  setDecision({ state: 'approving', at: context.now() });
  try {
    const result = await client.decideAction(actionId, 'approved');
    context.keyMode?.accepted();
    setDecision({ state: 'done', result, at: context.now() });
    notify(
      context,
      `Approved: ${label}; the shop answered ${String(result.status).replaceAll('_', ' ')}.`,
      'success',
    );
  } catch (error) {
    const reason = error instanceof ApiError ? explainApiError(error) : String(error);
    if (outcomeUnknown(error)) {
      // The service may have published it before the answer was lost: ask it.
      let listed: Awaited<ReturnType<typeof listedStatus>> | 'unreadable';
      try {
        listed = await listedStatus(context, actionId);
      } catch {
        listed = 'unreadable';
      }
      if (listed === 'published') {
        setDecision({ state: 'done', result: { status: 'published' }, at: context.now() });
        notify(
          context,
          `Approved: ${label}; the answer was lost, but the shop now lists the action as published.`,
          'success',
        );
        return;
      }
      setDecision({ state: 'failed', error: failureOf(error, context.now()), at: context.now() });
      notify(
        context,
        listed === 'pending'
          ? `Not approved: ${label}; ${reason} The shop lists it as still awaiting approval.`
          : `Not known whether ${label} was approved: ${reason} The shop could not be asked again; check Actions before approving again.`,
        'error',
      );
      return;
    }
    setDecision({ state: 'failed', error: failureOf(error, context.now()), at: context.now() });
    if (error instanceof ApiError && error.code === 'read_only' && !error.local)
      enterReadOnlyFromServer(context);
    const answered =
      error instanceof ApiError && !error.local && error.status
        ? ` (the shop answered HTTP ${error.status} ${sanitize(error.code, { singleLine: true })})`
        : '';
    notify(context, `Not approved: ${label}; ${reason}${answered}`, 'error');
  } finally {
    context.poller.invalidate(
      { kind: 'actions', status: 'pending_approval' },
      { kind: 'actions', status: 'published' },
      { kind: 'today' },
      { kind: 'me' },
      // A published reply changes its review (replied_at): read it at once, not at the next turn.
      ...(repliesToReview(store.getState(), actionId) ? [{ kind: 'reviews' as const }] : []),
    );
  }
}
