/**
 * What keys (and clicks, and the palette) do to the screen: focus, the
 * selection, the filters, the composer, the questions, the help and the
 * palette. Commands are data that call these; everything here reads the
 * store's current state, never a copy from a render.
 */

import type { Contact, InboxLead } from '../contract/resources.js';
import type { PaneDescriptor } from '../panes/pane.js';
import { PANES, paneById } from '../panes/registry.js';
import type { Slot } from '../poller/refresh-plan.js';
import {
  ACTION_FILTERS,
  type AppState,
  type AppStore,
  type ComposerTarget,
  type Notice,
  type PaneId,
  type Prompt,
  waitingKey,
} from '../store/app-store.js';
import {
  type Cut,
  deleteBackward,
  emptyLine,
  insertText,
  type LineText,
  moveEnd,
} from '../store/line-editor.js';
import { markSeen } from '../store/seen.js';
import {
  noSelection,
  reconcileSelection,
  type Selection,
  selectedIndexIn,
  selectRow,
} from '../store/selection.js';
import {
  leadIdForPhone,
  searchText,
  selectedLead,
  selectionOf,
  targetFromContact,
  targetFromLead,
  unsentCount,
} from '../store/selectors.js';
import { insertableText } from './input/text-filter.js';

export interface ControllerServices {
  poller: { refreshVisible(): void; refreshAll(): void; request(slot: Slot): void };
  sendText(target: ComposerTarget, body: string): void;
  approve(actionId: string): void;
  draft(reviewId: string): void;
  quit(): void;
}

export interface ControllerOptions {
  store: AppStore;
  services: ControllerServices;
  /** Wait after the last key of a contacts search before it is sent. Default 350 ms. */
  searchDebounceMs?: number;
  now?: () => number;
}

export type Controller = ReturnType<typeof createController>;

export function createController(options: ControllerOptions) {
  const { store, services } = options;
  const get = store.getState;
  const set = store.setState;
  const now = options.now ?? Date.now;
  let searchTimer: NodeJS.Timeout | undefined;
  /** The read in which the question on screen was asked: keys read with the one that asked it are not answers. */
  let askedInBatch: number | undefined;
  /** The last text a kill cut (ctrl-u, ctrl-w, ctrl-k, alt-d), for ctrl-y. */
  let killed = '';

  const notify = (text: string, tone: Notice['tone'] = 'info') => set({ notice: { text, tone, at: now() } });

  const pane = (id: PaneId = get().focus): PaneDescriptor => paneById(id);

  // --- panes and the selection ------------------------------------------------

  const focusPane = (id: PaneId) => {
    const state = get();
    if (state.focus === id || !PANES.some((descriptor) => descriptor.id === id)) return;
    const leaving = pane(state.focus);
    set({ focus: id, searching: false, seen: markSeen(state.seen, leaving.seen) });
  };

  const cyclePane = (step: 1 | -1) => {
    const index = PANES.findIndex((descriptor) => descriptor.id === get().focus);
    const next = PANES[(index + step + PANES.length) % PANES.length];
    if (next) focusPane(next.id);
  };

  const listOf = (id: PaneId) => pane(id).list?.of(get());

  const selectedIndex = (id: PaneId = get().focus): number => {
    const list = listOf(id);
    return list ? selectedIndexIn(list, selectionOf(get(), id)) : 0;
  };

  const setSelection = (id: PaneId, selection: Selection) =>
    set((state) => ({ selection: { ...state.selection, [id]: selection } }));

  /** Selects row `index` of a pane's list (clamped to it). */
  const select = (id: PaneId, index: number) => {
    const list = listOf(id);
    if (!list) return;
    setSelection(id, selectRow(list, index));
  };

  /** Moves a pane's selection (the focused pane's unless named). */
  const move = (to: (current: number, length: number) => number, id: PaneId = get().focus) => {
    const list = listOf(id);
    if (!list || list.rows.length === 0) return;
    select(id, to(selectedIndex(id), list.rows.length));
  };

  /** After a filter or search changed what a list shows: keep the record if it still shows, quietly. */
  const keepSelection = (id: PaneId) => {
    const list = listOf(id);
    if (!list) return;
    const { selection } = reconcileSelection(list, selectionOf(get(), id));
    setSelection(id, selection);
  };

  const resetSelection = (id: PaneId) => setSelection(id, noSelection);

  // --- the inbox and the thread ----------------------------------------------

  const openThread = (leadId: string) => {
    set((state) => ({
      openLeadId: leadId,
      selection: { ...state.selection, thread: { index: Number.MAX_SAFE_INTEGER, atEnd: true } },
    }));
    services.poller.request({ kind: 'lead', id: leadId });
    focusPane('thread');
  };

  const toggleInboxFilter = () => {
    set((state) => ({ inboxFilter: state.inboxFilter === 'open' ? 'callbacks' : 'open' }));
    resetSelection('inbox');
  };

  const cycleActionsFilter = (step: 1 | -1 = 1) => {
    const index = ACTION_FILTERS.indexOf(get().actionsFilter);
    set({
      actionsFilter:
        ACTION_FILTERS[(index + step + ACTION_FILTERS.length) % ACTION_FILTERS.length] ?? 'pending_approval',
    });
    resetSelection('actions');
  };

  // --- filters and the contacts search ---------------------------------------

  const applyContactsSearch = () => {
    const text = searchText(get(), 'contacts').trim();
    if (text === get().contacts.query) return;
    set((state) => ({ contacts: { ...state.contacts, query: text } }));
    resetSelection('contacts');
    // Read this query now, even if it was read before (esc back to ""): the list on screen is another query's.
    services.poller.request({ kind: 'contacts', query: text });
  };

  const searchChanged = (id: PaneId) => {
    if (pane(id).filter === 'remote') {
      // Typing a name must not spend the request budget: only the last query is sent.
      if (searchTimer) clearTimeout(searchTimer);
      searchTimer = setTimeout(applyContactsSearch, options.searchDebounceMs ?? 350);
      searchTimer.unref?.();
      return;
    }
    keepSelection(id);
  };

  const editSearch = (edit: (line: LineText) => LineText) => {
    const id = get().focus;
    const before = searchText(get(), id);
    set((state) => ({ search: { ...state.search, [id]: edit(state.search[id] ?? emptyLine) } }));
    if (searchText(get(), id) !== before) searchChanged(id);
  };

  const startSearch = () => {
    if (pane().filter) set({ searching: true });
  };

  const finishSearch = () => {
    set({ searching: false });
    if (pane().filter === 'remote') {
      if (searchTimer) clearTimeout(searchTimer);
      applyContactsSearch();
    }
  };

  const clearSearch = () => {
    editSearch(() => emptyLine);
    set({ searching: false });
  };

  // --- the composer -----------------------------------------------------------

  /** Where the composer's text lives: its contact's, or the lead's while its contact is read. */
  const composedKey = (state: AppState = get()): string | undefined =>
    state.composer?.contactId ??
    (state.composerWaiting ? waitingKey(state.composerWaiting.leadId) : undefined);

  const editComposed = (edit: (line: LineText) => LineText) => {
    const key = composedKey();
    if (key === undefined) return;
    set((state) => ({ composed: { ...state.composed, [key]: edit(state.composed[key] ?? emptyLine) } }));
  };

  /** Moves text typed while a lead was read into its contact's text. */
  const adoptWaitingText = (leadId: string, contactId: string) => {
    set((state) => {
      const waiting = state.composed[waitingKey(leadId)];
      if (!waiting?.text) return {};
      const composed = { ...state.composed };
      delete composed[waitingKey(leadId)];
      composed[contactId] = insertText(moveEnd(composed[contactId] ?? emptyLine), waiting.text);
      return { composed };
    });
  };

  const openComposer = (target: ComposerTarget) => {
    if (get().readOnly) return;
    if (target.leadId) adoptWaitingText(target.leadId, target.contactId);
    set({ composer: target, composerWaiting: undefined, searching: false });
  };

  /** c on an inbox row: the row has no contact id, so the lead is read first; what is typed meanwhile is kept. */
  const composeToLead = (lead: InboxLead) => {
    const state = get();
    const detail = state.leads[lead.id]?.data;
    if (detail) return openComposer(targetFromLead(detail));
    openThread(lead.id);
    set({
      composerWaiting: { leadId: lead.id, name: lead.contact_name, phone: lead.caller_phone },
      composer: undefined,
    });
    // Wait for a read that ends after this key: an error left by an earlier failed read is not the answer.
    const before = get().leads[lead.id];
    const unsubscribe = store.subscribe((next) => {
      const loaded = next.leads[lead.id];
      if (!loaded || loaded === before || loaded.loading || !(loaded.data || loaded.error)) return;
      unsubscribe();
      const waiting = next.composerWaiting?.leadId === lead.id;
      if (loaded.data) {
        if (waiting) openComposer(targetFromLead(loaded.data));
        return;
      }
      if (!waiting) return;
      set({ composerWaiting: undefined });
      const typed = get().composed[waitingKey(lead.id)]?.text.trim();
      notify(
        typed
          ? 'The composer could not open (the thread did not load). What you typed is kept: press c on this lead again.'
          : 'The composer could not open: the thread did not load. Press c to try again.',
        'warning',
      );
    });
  };

  const composeToContact = (contact: Contact) => {
    const target = targetFromContact(get(), contact);
    openComposer(target);
    // Consent comes only with a lead: read one of this number's, and the composer shows its record.
    const leadId = target.consent === undefined ? leadIdForPhone(get(), contact.phone) : undefined;
    if (leadId) services.poller.request({ kind: 'lead', id: leadId });
  };

  const closeComposer = () => set({ composer: undefined, composerWaiting: undefined });

  // --- questions --------------------------------------------------------------

  const ask = (prompt: Prompt, batch: number) => {
    askedInBatch = batch;
    set({ prompt, helpOpen: false, palette: undefined });
  };

  /** Whether a key of this read may answer the question on screen. */
  const mayAnswer = (batch: number) => batch !== askedInBatch;

  const answer = (yes: boolean) => {
    const prompt = get().prompt;
    if (!prompt) return;
    set({ prompt: undefined });
    askedInBatch = undefined;
    if (!yes) {
      // The composer comes back with its text after a "no" to sending it.
      if (prompt.kind === 'confirm-send') set({ composer: prompt.target });
      return;
    }
    if (
      prompt.kind === 'confirm-send' &&
      !prompt.again &&
      get().presence.composingElsewhere.includes(prompt.target.contactId)
    ) {
      // Another terminal is writing to this contact: ask once more before sending.
      set({ prompt: { ...prompt, again: true } });
      return;
    }
    if (prompt.kind === 'confirm-send') services.sendText(prompt.target, prompt.body);
    else if (prompt.kind === 'confirm-approve') services.approve(prompt.actionId);
    else services.quit();
  };

  const requestQuit = (batch: number) => {
    const unsent = unsentCount(get());
    if (unsent > 0) return ask({ kind: 'confirm-quit', unsent }, batch);
    services.quit();
  };

  // --- the palette ------------------------------------------------------------

  const openPalette = () => set({ palette: { query: emptyLine, selected: 0 }, helpOpen: false });
  const closePalette = () => set({ palette: undefined });
  const editPalette = (edit: (line: LineText) => LineText) =>
    set((state) => (state.palette ? { palette: { query: edit(state.palette.query), selected: 0 } } : {}));
  const movePalette = (step: number, count: number) =>
    set((state) =>
      state.palette
        ? {
            palette: {
              ...state.palette,
              selected: Math.max(0, Math.min(count - 1, state.palette.selected + step)),
            },
          }
        : {},
    );

  // --- the line being typed ---------------------------------------------------

  /** An edit of the line being typed: the palette's query, the composer's text or the search. */
  function editLine(edit: (line: LineText) => LineText) {
    const state = get();
    if (state.palette) editPalette(edit);
    else if (state.composer || state.composerWaiting) editComposed(edit);
    else if (state.searching) editSearch(edit);
  }

  /** A kill (ctrl-u, ctrl-w, ctrl-k, alt-d) of the line being typed; ctrl-y puts it back. */
  function cutLine(edit: (line: LineText) => Cut) {
    let cut = '';
    editLine((line) => {
      const result = edit(line);
      cut = result.cut;
      return result.line;
    });
    if (cut) killed = cut;
  }

  /** enter in the composer: the question, with the exact text, bound to this contact. */
  const askToSend = (batch: number) => {
    const state = get();
    if (state.composerWaiting) {
      notify("Still reading this lead's contact: the text can be sent once it is loaded.", 'info');
      return;
    }
    const target = state.composer;
    if (!target) return;
    const body = state.composed[target.contactId]?.text ?? '';
    if (body.trim().length === 0) return;
    ask({ kind: 'confirm-send', target, body }, batch);
  };

  return {
    notify,
    pane,
    focusPane,
    cyclePane,
    selectedIndex,
    select,
    move,
    keepSelection,
    openThread,
    toggleInboxFilter,
    cycleActionsFilter,
    startSearch,
    editSearch,
    finishSearch,
    clearSearch,
    openComposer,
    composeToLead,
    composeToContact,
    composedKey,
    editComposed,
    closeComposer,
    editLine,
    cutLine,
    /** ctrl-y: puts back what the last kill cut. */
    yank: () => {
      if (killed) editLine((line) => insertText(line, killed));
    },
    askToSend,
    ask,
    mayAnswer,
    answer,
    requestQuit,
    openPalette,
    closePalette,
    editPalette,
    movePalette,
    /** Text typed or pasted into whatever is being edited, filtered to what may enter it. */
    typeText(text: string) {
      const state = get();
      if (state.palette)
        return editPalette((line) => insertText(line, insertableText(text, { multiline: false })));
      if (state.composer || state.composerWaiting)
        return editComposed((line) => insertText(line, insertableText(text, { multiline: true })));
      if (state.searching) editSearch((line) => insertText(line, insertableText(text, { multiline: false })));
    },
    backspaceComposed: () => editComposed(deleteBackward),
    selectedLead: () => selectedLead(get()),
    refreshVisible: () => services.poller.refreshVisible(),
    refreshAll: () => services.poller.refreshAll(),
    draft: (reviewId: string) => services.draft(reviewId),
    quit: () => services.quit(),
    dispose() {
      if (searchTimer) clearTimeout(searchTimer);
    },
  };
}
