/**
 * "New" marks belong to their items: a lead, review or action loses its ●
 * when staff select it in a pane on screen; a lead also when its thread is
 * on screen, and an inbound text when the thread it belongs to is. Leaving a
 * pane clears nothing. On a read-only screen (a wallboard nobody works at)
 * marks fade after a while instead (default 30 minutes; "new_marks_fade_minutes"
 * in config.json).
 */
import type { AppState, AppStore } from '../store/app-store.js';
import { fadeSeen, inboundId, markItemsSeen, type SeenKind, type SeenState } from '../store/seen.js';
import { openLead, selectedAction, selectedLead, selectedReview, threadLeadId } from '../store/selectors.js';
import { visible } from './follow-selection.js';

export const DEFAULT_NEW_MARKS_FADE_MS = 30 * 60_000;

/** The ids staff have in front of them now, per kind of mark. */
function inSight(state: AppState): Array<[SeenKind, string[]]> {
  const found: Array<[SeenKind, string[]]> = [];
  const lead = visible(state, 'inbox') ? selectedLead(state) : undefined;
  const review = visible(state, 'reviews') ? selectedReview(state) : undefined;
  const action = visible(state, 'actions') ? selectedAction(state) : undefined;
  const threadShown = visible(state, 'thread') ? threadLeadId(state) : undefined;
  found.push(['leads', [lead?.id, threadShown].filter((id): id is string => id !== undefined)]);
  if (review) found.push(['reviews', [review.id]]);
  if (action) found.push(['actions', [action.id]]);
  // An inbound text is seen once the thread it belongs to is on screen (matched by its time and text).
  const detail = threadShown ? openLead(state) : undefined;
  if (detail && state.seen.fresh.inbound.size > 0) {
    const ids = (state.inbox.open.data?.latest_inbound ?? [])
      .filter((preview) =>
        detail.messages.some(
          (message) =>
            String(message.direction) === 'inbound' &&
            message.occurred_at === preview.occurred_at &&
            message.body.startsWith(preview.body_preview.replace(/…$/, '')),
        ),
      )
      .map(inboundId);
    found.push(['inbound', ids]);
  }
  return found;
}

export interface NewMarksOptions {
  /** Marks on a read-only screen fade after this long. */
  fadeMs?: number;
  now?: () => number;
}

export function followNewMarks(store: AppStore, options: NewMarksOptions = {}): () => void {
  const now = options.now ?? Date.now;
  const fadeMs = options.fadeMs ?? DEFAULT_NEW_MARKS_FADE_MS;
  const update = (state: AppState) => {
    let seen: SeenState = state.seen;
    for (const [kind, ids] of inSight(state)) seen = markItemsSeen(seen, kind, ids);
    if (seen !== state.seen) store.setState({ seen });
  };
  update(store.getState());
  const stop = store.subscribe(update);
  // Checked a few times per fade period (at least once a minute), only while read-only.
  const fade = setInterval(
    () => {
      const state = store.getState();
      if (!state.readOnly) return;
      const seen = fadeSeen(state.seen, fadeMs, now());
      if (seen !== state.seen) store.setState({ seen });
    },
    Math.max(50, Math.min(60_000, Math.floor(fadeMs / 4))),
  );
  fade.unref?.();
  return () => {
    stop();
    clearInterval(fade);
  };
}
