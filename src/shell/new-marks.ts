/**
 * "New" marks belong to their items: each pane on screen says which items
 * staff have in front of it (its descriptor's `seen`: by default the record
 * selected in its list), and their marks go. Leaving a pane clears nothing.
 * A conversation a pane has open (the Thread's) is read: its unread mark goes.
 * On a read-only screen (a wallboard nobody works at) marks fade after a
 * while instead (default 30 minutes; "new_marks_fade_minutes" in config.json).
 */
import type { PaneDescriptor } from '../panes/pane.js';
import type { PaneSet } from '../panes/pane-set.js';
import { REGISTRY } from '../panes/registry.js';
import type { AppState, AppStore } from '../store/app-store.js';
import { type ConversationMarks, markRead, withStart } from '../store/conversation-marks.js';
import { fadeSeen, markItemsSeen, type SeenKind, type SeenState } from '../store/seen.js';
import { selectedIndexIn } from '../store/selection.js';
import { selectionOf } from '../store/selectors.js';
import { newestInboundAt } from '../store/waiting.js';

export const DEFAULT_NEW_MARKS_FADE_MS = 30 * 60_000;

/** The record selected in a pane's list, as a mark of the pane's first kind. */
function selectedInSight(pane: PaneDescriptor, state: AppState): Array<[SeenKind, string[]]> {
  const kind = pane.seen?.kinds[0];
  const list = pane.list?.of(state);
  if (!kind || !list) return [];
  const row = list.rows[selectedIndexIn(list, selectionOf(state, pane.id))];
  return [[kind, row === undefined ? [] : [list.rowId(row)]]];
}

/** The ids staff have in front of them now, per kind of mark: those of every pane on screen. */
export function marksInSight(
  state: AppState,
  panes: PaneSet = REGISTRY,
): Array<readonly [SeenKind, readonly string[]]> {
  return panes
    .panesOnScreen(state)
    .flatMap((pane) => (pane.seen?.inSight ? pane.seen.inSight(state) : selectedInSight(pane, state)));
}

/** The conversations open on screen, read through their newest inbound text: the marks, updated (or the same object). */
export function readInSight(state: AppState, panes: PaneSet = REGISTRY): ConversationMarks {
  const inbox = state.inbox.open.data;
  let marks = inbox ? withStart(state.conversations, inbox.latest_inbound) : state.conversations;
  for (const pane of panes.panesOnScreen(state)) {
    for (const leadId of pane.seen?.opened?.(state) ?? []) {
      const detail = state.leads[leadId]?.data;
      const newest = detail ? newestInboundAt(detail) : undefined;
      if (newest !== undefined) marks = markRead(marks, leadId, newest);
    }
  }
  return marks;
}

export interface NewMarksOptions {
  /** Marks on a read-only screen fade after this long. */
  fadeMs?: number;
  now?: () => number;
  /** The panes (default: the registry's). */
  panes?: PaneSet;
}

export function followNewMarks(store: AppStore, options: NewMarksOptions = {}): () => void {
  const now = options.now ?? Date.now;
  const fadeMs = options.fadeMs ?? DEFAULT_NEW_MARKS_FADE_MS;
  const update = (state: AppState) => {
    let seen: SeenState = state.seen;
    for (const [kind, ids] of marksInSight(state, options.panes)) seen = markItemsSeen(seen, kind, ids);
    const conversations = readInSight(state, options.panes);
    if (seen !== state.seen || conversations !== state.conversations) store.setState({ seen, conversations });
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
