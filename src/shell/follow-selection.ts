/**
 * Keeps every pane's selection on its record while the lists change under it
 * (the poller writes new data at any moment): the same record at its new
 * place, or, when it left the list, its nearest neighbour, and a notice that
 * says so when staff can see that pane, or a pane that shows its record (the
 * thread: then naming what it shows now). A change staff made themselves (a
 * filter typed, another status shown: the panes' `choices`) moves the
 * selection quietly.
 */
import type { PaneDescriptor } from '../panes/pane.js';
import type { PaneSet } from '../panes/pane-set.js';
import { REGISTRY } from '../panes/registry.js';
import type { AppState, AppStore, Notice } from '../store/app-store.js';
import { reconcileSelection, selectRow } from '../store/selection.js';
import { selectionOf } from '../store/selectors.js';

/** What staff change themselves: when one of these changed, a list changed because they asked. */
const asked = (state: AppState, panes: PaneSet) => [
  state.search,
  state.focus,
  ...panes.panes.flatMap((pane) => pane.choices?.(state) ?? []),
];

export interface FollowSelectionOptions {
  now?: () => number;
  /** The panes (default: the registry's). */
  panes?: PaneSet;
}

export function followSelections(store: AppStore, options: FollowSelectionOptions = {}): () => void {
  const now = options.now ?? Date.now;
  const panes = options.panes ?? REGISTRY;
  let previous = asked(store.getState(), panes);
  /** The name of each pane's selected record, for saying which one left. */
  const names = new Map<string, { id: string; name: string }>();
  /** Which list each pane showed last (see PaneList.identity). */
  const identities = new Map<string, unknown>(
    panes.panes.map((pane) => [pane.id, pane.list?.identity?.(store.getState())]),
  );
  const showing = panes.panes.filter(
    (pane): pane is PaneDescriptor & Required<Pick<PaneDescriptor, 'shows'>> => Boolean(pane.shows),
  );
  /** The record each pane that shows another's highlighted record showed after the last update. */
  const shownBy = new Map(showing.map((pane) => [pane.id, pane.shows.record(store.getState())]));
  /** What the change that made `state` moved: part of the same update (see Settler). */
  const settle = (state: AppState): Partial<AppState> | undefined => {
    const current = asked(state, panes);
    const quiet =
      current.length !== previous.length || current.some((value, index) => value !== previous[index]);
    previous = current;
    let selection = state.selection;
    let notice: Notice | undefined;
    /** The record a pane on screen showed left its list, which is not on screen: that pane says what it shows now. */
    let moved: { by: PaneDescriptor & Required<Pick<PaneDescriptor, 'shows'>>; gone: string } | undefined;
    for (const pane of panes.panes) {
      if (!pane.list) continue;
      const list = pane.list.of(state);
      const identity = pane.list.identity?.(state);
      const renewed = identity !== identities.get(pane.id);
      identities.set(pane.id, identity);
      const current = renewed
        ? {
            index: list.followsEnd ? Number.MAX_SAFE_INTEGER : 0,
            ...(list.followsEnd ? { atEnd: true } : {}),
          }
        : selectionOf(state, pane.id);
      const top = list.rows[0];
      const staysOnTop =
        pane.list.newestOnTop === true &&
        !renewed &&
        current.index === 0 &&
        top !== undefined &&
        current.id !== list.rowId(top) &&
        !panes.visible(state, pane.id);
      const result = staysOnTop ? { selection: selectRow(list, 0) } : reconcileSelection(list, current);
      const selectedRow = list.rows.find((row) => list.rowId(row) === result.selection.id);
      const before = names.get(pane.id);
      if (selectedRow !== undefined && result.selection.id !== undefined)
        names.set(pane.id, { id: result.selection.id, name: pane.list.rowLabel(selectedRow) });
      if (!renewed && result.selection === selectionOf(state, pane.id)) continue;
      selection = { ...selection, [pane.id]: result.selection };
      const ours = result.left ? pane.list.leftBecauseOfUs?.(state, result.left.id) === true : false;
      if (!result.left || quiet || renewed || ours || list.followsEnd) continue;
      const which = before?.id === result.left.id ? ` (${before.name})` : '';
      const gone = `The ${pane.list.noun} you had selected${which} left`;
      if (panes.visible(state, pane.id)) {
        notice = {
          text: result.left.now
            ? `${gone} this list; now on ${pane.list.rowLabel(result.left.now)}.`
            : `${gone} this list; the list is empty now.`,
          tone: 'warning',
          at: now(),
          // A list that changed of itself: an error on the status line (a text not sent) stays there.
          background: true,
        };
        continue;
      }
      const by = showing.find((each) => each.shows.from(state) === pane.id && panes.visible(state, each.id));
      if (by) moved = { by, gone: `${gone} the ${pane.title} list` };
    }
    if (moved && !notice) {
      notice = {
        text: `${moved.gone}; ${moved.by.shows.nowShowing({ ...state, selection })}.`,
        tone: 'warning',
        at: now(),
        background: true,
      };
    }
    // The pane staff work in may keep the record their own doing took off its list (the thread: a callback
    // answered): a reply is no reason to show them another customer's thread.
    for (const pane of showing) {
      const shown = shownBy.get(pane.id);
      const next = pane.shows.record({ ...state, selection });
      shownBy.set(pane.id, next);
      if (shown === undefined || next === shown || quiet || state.focus !== pane.id) continue;
      const kept = pane.shows.keep?.(state, shown);
      if (!kept) continue;
      shownBy.set(pane.id, shown);
      return { selection, ...kept };
    }
    return selection !== state.selection ? { selection, ...(notice ? { notice } : {}) } : undefined;
  };
  const stop = store.settleWith(settle);
  const first = settle(store.getState());
  if (first) store.setState(first);
  return stop;
}
