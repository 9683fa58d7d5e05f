/**
 * Keeps every pane's selection on its record while the lists change under it
 * (the poller writes new data at any moment): the same record at its new
 * place, or, when it left the list, its nearest neighbour, and a notice that
 * says so when staff can see that pane, or the thread that shows its record
 * (then naming whose thread it is now). A change staff made themselves (a
 * filter typed, another status shown) moves the selection quietly.
 */
import { PANES, panesOnScreen } from '../panes/registry.js';
import type { AppState, AppStore, Notice } from '../store/app-store.js';
import { reconcileSelection } from '../store/selection.js';
import {
  contactRows,
  inboxRows,
  repliedFromHere,
  selectionOf,
  threadLeadId,
  threadSubject,
} from '../store/selectors.js';
import { recipientLabel } from '../text/recipient.js';

/** What staff change themselves: when one of these changed, a list changed because they asked. */
const asked = (state: AppState) => [
  state.search,
  state.inboxFilter,
  state.actionsFilter,
  state.inboxOrder,
  state.reviewOrder,
  state.unrepliedOnly,
  state.contacts.query,
  // A search is answered later: the answer to the new query is still a change staff asked for.
  state.contacts.loadedQuery,
  state.threadFrom,
  state.focus,
];

/** The pane is on screen: focused, or beside the focused one. */
export const visible = (state: AppState, pane: string) =>
  panesOnScreen(state).some((each) => each.id === pane);

/** Whether the list a thread follows still holds this lead (Contacts: a contact whose lead it is). */
function listed(state: AppState, list: 'inbox' | 'contacts', leadId: string): boolean {
  if (list === 'inbox') return inboxRows(state).some((lead) => lead.id === leadId);
  const contactId = state.leads[leadId]?.data?.contact.id;
  return contactId !== undefined && contactRows(state).some((contact) => contact.id === contactId);
}

export function followSelections(store: AppStore, now: () => number = Date.now): () => void {
  let previous = asked(store.getState());
  /** The name of each pane's selected record, for saying which one left. */
  const names = new Map<string, { id: string; name: string }>();
  /** Which list each pane showed last (see PaneList.identity). */
  const identities = new Map<string, unknown>(
    PANES.map((pane) => [pane.id, pane.list?.identity?.(store.getState())]),
  );
  /** The lead the Thread pane showed after the last update. */
  let shownThread = threadLeadId(store.getState());
  const update = (state: AppState) => {
    const current = asked(state);
    const quiet = current.some((value, index) => value !== previous[index]);
    previous = current;
    let selection = state.selection;
    let notice: Notice | undefined;
    /** The record the thread on screen showed left its list, which is not on screen: say whose thread it is now. */
    let threadMoved: string | undefined;
    for (const pane of PANES) {
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
      const result = reconcileSelection(list, current);
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
      if (visible(state, pane.id)) {
        notice = {
          text: result.left.now
            ? `${gone} this list; now on ${pane.list.rowLabel(result.left.now)}.`
            : `${gone} this list; the list is empty now.`,
          tone: 'warning',
          at: now(),
        };
      } else if (state.threadFrom.list === pane.id && visible(state, 'thread')) {
        threadMoved = `${gone} the ${pane.title} list`;
      }
    }
    if (threadMoved && !notice) {
      const subject = threadSubject({ ...state, selection });
      notice = {
        text:
          subject.kind === 'lead' && subject.name !== undefined && subject.phone !== undefined
            ? `${threadMoved}; the thread shows ${recipientLabel({ name: subject.name, phone: subject.phone })} now.`
            : `${threadMoved}; ${subject.kind === 'none' ? subject.why : 'the thread shows the lead now highlighted there'}.`,
        tone: 'warning',
        at: now(),
      };
    }
    // The thread staff work in keeps the lead their own reply took off its list (a callback answered):
    // a reply is no reason to show them another customer's thread.
    const shown = shownThread;
    const next = threadLeadId({ ...state, selection });
    shownThread = next;
    if (
      shown !== undefined &&
      next !== shown &&
      !quiet &&
      state.focus === 'thread' &&
      state.threadFrom.list !== 'lead' &&
      repliedFromHere(state, shown) &&
      !listed(state, state.threadFrom.list, shown)
    ) {
      shownThread = shown;
      store.setState({ selection, threadFrom: { list: 'lead', leadId: shown } });
      return;
    }
    if (selection !== state.selection) store.setState({ selection, ...(notice ? { notice } : {}) });
  };
  update(store.getState());
  return store.subscribe(update);
}
