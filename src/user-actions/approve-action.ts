/** Approving a pending action, after staff answered y to the confirmation. */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { failureOf } from '../poller/store-writes.js';
import { type ActionContext, enterReadOnlyFromServer, notify, pausedMessage } from './context.js';

export async function approveAction(context: ActionContext, actionId: string): Promise<void> {
  const { store, client } = context;
  if (store.getState().decisions[actionId]?.state === 'approving') return;
  const paused = pausedMessage(context);
  if (paused) return notify(context, `Not approved yet: ${paused}`, 'warning');
  const setDecision = (decision: ReturnType<typeof store.getState>['decisions'][string]) =>
    store.setState((state) => ({ decisions: { ...state.decisions, [actionId]: decision } }));
  setDecision({ state: 'approving', at: context.now() });
  try {
    const result = await client.decideAction(actionId, 'approved');
    setDecision({ state: 'done', result, at: context.now() });
    notify(context, `Approved: the action is now ${String(result.status).replaceAll('_', ' ')}.`, 'success');
  } catch (error) {
    setDecision({ state: 'failed', error: failureOf(error, context.now()), at: context.now() });
    if (error instanceof ApiError && error.code === 'read_only' && !error.local)
      enterReadOnlyFromServer(context);
    notify(
      context,
      `Not approved: ${error instanceof ApiError ? explainApiError(error) : String(error)}`,
      'error',
    );
  } finally {
    context.poller.invalidate(
      { kind: 'actions', status: 'pending_approval' },
      { kind: 'actions', status: 'published' },
      { kind: 'today' },
      { kind: 'me' },
    );
  }
}
