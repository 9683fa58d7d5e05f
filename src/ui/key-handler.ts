/**
 * The one root key handler: always active, it dispatches on what the store
 * says has focus (a prompt, the help, the composer, a search, or a pane).
 * Every decision reads the store's current state, since keys can arrive
 * faster than React re-renders, and a chunk of several keys ("jj") is handled
 * one key at a time. Pasted text (bracketed paste) is inserted as text.
 */
import type { Key } from 'ink';
import type { Slot } from '../poller/refresh-plan.js';
import {
  ACTION_FILTERS,
  type AppState,
  type AppStore,
  type ComposerTarget,
  isWide,
  PANES,
  type PaneId,
} from '../store/app-store.js';
import {
  deleteBackward,
  emptyLine,
  insertText,
  type LineText,
  moveEnd,
  moveHome,
  moveLeft,
  moveRight,
} from '../store/line-editor.js';
import { markSeen, type SeenKind } from '../store/seen.js';
import {
  leadIdForPhone,
  listLength,
  openLead,
  pageSize,
  selectedAction,
  selectedContact,
  selectedLead,
  selectedReview,
  targetFromContact,
  targetFromLead,
  unsentCount,
} from '../store/selectors.js';
import { sanitize } from '../text/sanitize.js';

export interface KeyHandlerDeps {
  store: AppStore;
  poller: { refreshVisible(): void; refreshAll(): void; request(slot: Slot): void };
  sendText(target: ComposerTarget, body: string): void;
  approve(actionId: string): void;
  draft(reviewId: string): void;
  quit(): void;
  /** Wait after the last key of a contacts search before it is sent. Default 350 ms. */
  searchDebounceMs?: number;
}

export type KeyHandler = (input: string, key: Key) => void;

/** Which "new" marks a pane shows: leaving the pane means they were seen. */
const SEEN_BY_PANE: Partial<Record<PaneId, SeenKind[]>> = {
  inbox: ['leads', 'inbound'],
  reviews: ['reviews'],
  actions: ['actions'],
};

const PASTE_START = '[200~';
const PASTE_END = '[201~';

const isBackspace = (input: string, key: Key) => key.backspace || key.delete || input === '\b';

/**
 * One key of a chunk read together ("jj\r", "\t\t", ctrl-d twice), as Ink reports that key alone:
 * Ink parses only a whole chunk, so tab, enter and ctrl-letters inside one arrive as bare characters.
 */
function keyOf(char: string, chunk: Key): [string, Key] {
  const bare: Key = { ...chunk, tab: false, return: false, ctrl: false, backspace: false, delete: false };
  if (char === '\t') return ['', { ...bare, tab: true }];
  if (char === '\r' || char === '\n') return ['', { ...bare, return: true }];
  if (char === '\u007f') return ['', { ...bare, delete: true }];
  const code = char.codePointAt(0) ?? 0;
  if (code >= 1 && code <= 26) return [String.fromCodePoint(code + 96), { ...bare, ctrl: true }];
  return [char, { ...bare, shift: /^[A-Z]$/.test(char) }];
}

export function createKeyHandler(deps: KeyHandlerDeps): KeyHandler {
  const { store } = deps;
  const get = store.getState;
  const set = store.setState;
  let pasting = false;
  let searchTimer: NodeJS.Timeout | undefined;
  /** After c on a lead not read yet: what is typed until its composer opens, kept for it. */
  let awaitingComposer: { leadId: string; typed: LineText } | undefined;
  /** Text typed for a lead whose composer could not open (its thread failed to load): given back on the next c. */
  const strandedText = new Map<string, string>();

  const focusPane = (pane: PaneId) => {
    const state = get();
    if (state.focus === pane) return;
    const kinds = SEEN_BY_PANE[state.focus];
    set({ focus: pane, searching: false, ...(kinds ? { seen: markSeen(state.seen, kinds) } : {}) });
  };

  const moveCursor = (to: (current: number, length: number) => number) => {
    const state = get();
    const length = listLength(state, state.focus);
    const current = Math.min(state.cursors[state.focus], Math.max(0, length - 1));
    const next = Math.max(0, Math.min(length - 1, to(current, length)));
    set({ cursors: { ...state.cursors, [state.focus]: next } });
    // Side by side, the thread follows the selection.
    if (state.focus === 'inbox' && isWide(state)) followSelection();
  };

  const followSelection = () => {
    const leadId = selectedLead(get())?.id;
    if (leadId === get().openLeadId) return;
    set((state) => ({ openLeadId: leadId, cursors: { ...state.cursors, thread: Number.MAX_SAFE_INTEGER } }));
  };

  const resetCursor = (pane: PaneId) => set((state) => ({ cursors: { ...state.cursors, [pane]: 0 } }));

  // --- the composer ---------------------------------------------------------

  const openComposer = (target: ComposerTarget) => {
    if (get().readOnly) return;
    set({ composer: target, searching: false });
  };

  const editComposed = (edit: (line: LineText) => LineText) => {
    const target = get().composer;
    if (!target) return;
    set((state) => ({
      composed: {
        ...state.composed,
        [target.contactId]: edit(state.composed[target.contactId] ?? emptyLine),
      },
    }));
  };

  const composeKey = (input: string, key: Key) => {
    const state = get();
    const target = state.composer;
    if (!target) return;
    if (key.escape) return set({ composer: undefined });
    if (key.return) {
      const body = state.composed[target.contactId]?.text ?? '';
      if (body.trim().length === 0) return;
      return set({ prompt: { kind: 'confirm-send', target, body } });
    }
    if (isBackspace(input, key)) return editComposed(deleteBackward);
    if (key.leftArrow) return editComposed(moveLeft);
    if (key.rightArrow) return editComposed(moveRight);
    if (key.home || (key.ctrl && input === 'a')) return editComposed(moveHome);
    if (key.end || (key.ctrl && input === 'e')) return editComposed(moveEnd);
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.pageDown || key.pageUp) return;
    if (input) editComposed((line) => insertText(line, input));
  };

  // --- search and filters ---------------------------------------------------

  const applyContactsSearch = () => {
    const text = get().search.contacts.text.trim();
    if (text === get().contacts.query) return;
    set((state) => ({ contacts: { ...state.contacts, query: text } }));
    resetCursor('contacts');
    // Read this query now, even if it was read before (esc back to ""): the list on screen is another query's.
    deps.poller.request({ kind: 'contacts', query: text });
  };

  const searchChanged = (pane: PaneId) => {
    resetCursor(pane);
    if (pane !== 'contacts') return;
    // Typing a name must not spend the request budget: only the last query is sent.
    if (searchTimer) clearTimeout(searchTimer);
    searchTimer = setTimeout(applyContactsSearch, deps.searchDebounceMs ?? 350);
    searchTimer.unref?.();
  };

  const editSearch = (edit: (line: LineText) => LineText) => {
    const pane = get().focus;
    const before = get().search[pane].text;
    set((state) => ({ search: { ...state.search, [pane]: edit(state.search[pane]) } }));
    if (get().search[pane].text !== before) searchChanged(pane);
  };

  const searchKey = (input: string, key: Key) => {
    if (key.escape) {
      editSearch(() => emptyLine);
      set({ searching: false });
      return;
    }
    if (key.return) {
      set({ searching: false });
      if (get().focus === 'contacts') {
        if (searchTimer) clearTimeout(searchTimer);
        applyContactsSearch();
      }
      return;
    }
    if (isBackspace(input, key)) return editSearch(deleteBackward);
    if (key.leftArrow) return editSearch(moveLeft);
    if (key.rightArrow) return editSearch(moveRight);
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return;
    if (input) editSearch((line) => insertText(line, sanitize(input, { singleLine: true })));
  };

  const startSearch = () => {
    const state = get();
    if (state.focus === 'actions') {
      const index = ACTION_FILTERS.indexOf(state.actionsFilter);
      set({ actionsFilter: ACTION_FILTERS[(index + 1) % ACTION_FILTERS.length] ?? 'pending_approval' });
      return resetCursor('actions');
    }
    if (state.focus === 'inbox' || state.focus === 'reviews' || state.focus === 'contacts')
      set({ searching: true });
  };

  // --- prompts --------------------------------------------------------------

  const promptKey = (input: string, key: Key) => {
    const prompt = get().prompt;
    if (!prompt) return;
    if (input === 'y' || input === 'Y') {
      set({ prompt: undefined });
      if (prompt.kind === 'confirm-send') deps.sendText(prompt.target, prompt.body);
      else if (prompt.kind === 'confirm-approve') deps.approve(prompt.actionId);
      else deps.quit();
      return;
    }
    // "n" and esc answer no; for a send the composer comes back with the text in it.
    if (input === 'n' || input === 'N' || key.escape) {
      set({ prompt: undefined, ...(prompt.kind === 'confirm-send' ? { composer: prompt.target } : {}) });
    }
  };

  const requestQuit = () => {
    const unsent = unsentCount(get()) + (awaitingComposer?.typed.text.trim() ? 1 : 0) + strandedText.size;
    if (unsent > 0) return set({ prompt: { kind: 'confirm-quit', unsent }, helpOpen: false });
    deps.quit();
  };

  // --- panes ----------------------------------------------------------------

  const openThread = (leadId: string) => {
    set({ openLeadId: leadId, cursors: { ...get().cursors, thread: Number.MAX_SAFE_INTEGER } });
    deps.poller.request({ kind: 'lead', id: leadId });
    focusPane('thread');
  };

  const compose = () => {
    const state = get();
    if (state.readOnly) return;
    if (state.focus === 'contacts') {
      const contact = selectedContact(state);
      if (!contact) return;
      const target = targetFromContact(state, contact);
      openComposer(target);
      // Consent comes only with a lead: read one of this number's, and the composer shows its record.
      const leadId = target.consent === undefined ? leadIdForPhone(state, contact.phone) : undefined;
      if (leadId) deps.poller.request({ kind: 'lead', id: leadId });
      return;
    }
    const leadId = state.focus === 'thread' ? state.openLeadId : selectedLead(state)?.id;
    if (!leadId) return;
    const detail = state.focus === 'thread' ? openLead(state) : state.leads[leadId]?.data;
    if (detail) {
      openComposer(targetFromLead(detail));
      const stranded = strandedText.get(leadId);
      strandedText.delete(leadId);
      if (stranded) editComposed((line) => insertText(moveEnd(line), stranded));
      return;
    }
    // The inbox row has no contact id: the thread brings it, then the composer opens.
    openThread(leadId);
    awaitingComposer = { leadId, typed: emptyLine };
    // Wait for a read that ends after this key: an error left by an earlier failed read is not the answer.
    const before = get().leads[leadId];
    const unsubscribe = store.subscribe((next) => {
      const loaded = next.leads[leadId];
      if (loaded && loaded !== before && !loaded.loading && (loaded.data || loaded.error)) {
        unsubscribe();
        const waiting = awaitingComposer?.leadId === leadId ? awaitingComposer : undefined;
        awaitingComposer = undefined;
        const typed = waiting?.typed.text ?? '';
        if (waiting && loaded.data && next.openLeadId === leadId && !next.composer) {
          openComposer(targetFromLead(loaded.data));
          if (typed) editComposed((line) => insertText(moveEnd(line), typed));
        } else if (typed) {
          strandedText.set(leadId, typed);
          set({
            notice: {
              text: 'The composer could not open (the thread did not load). What you typed is kept: press c on this lead again.',
              tone: 'warning',
              at: Date.now(),
            },
          });
        }
      }
    });
  };

  const paneKey = (input: string, key: Key) => {
    const state = get();
    const pane = state.focus;
    const page = pageSize(state);
    if (input === 'q' || (key.ctrl && input === 'c')) return requestQuit();
    if (input === '?') return set({ helpOpen: true });
    if (key.tab) {
      const index = PANES.indexOf(pane);
      return focusPane(PANES[(index + (key.shift ? PANES.length - 1 : 1)) % PANES.length] ?? 'inbox');
    }
    if (/^[1-6]$/.test(input)) return focusPane(PANES[Number(input) - 1] ?? 'inbox');
    if (input === 'j' || key.downArrow) return moveCursor((current) => current + 1);
    if (input === 'k' || key.upArrow) return moveCursor((current) => current - 1);
    if (input === 'g' || key.home) return moveCursor(() => 0);
    if (input === 'G' || key.end) return moveCursor((_current, length) => length - 1);
    if ((key.ctrl && input === 'd') || key.pageDown) return moveCursor((current) => current + page);
    if ((key.ctrl && input === 'u') || key.pageUp) return moveCursor((current) => current - page);
    if (input === 'r') return deps.poller.refreshVisible();
    if (input === 'R') return deps.poller.refreshAll();
    if (input === '/') return startSearch();
    if (key.escape) {
      if (pane === 'thread') return focusPane('inbox');
      if (state.search[pane].text) return editSearch(() => emptyLine);
      return;
    }
    if (key.return) {
      if (pane === 'inbox') {
        const lead = selectedLead(state);
        if (lead) openThread(lead.id);
      }
      return;
    }
    if (input === 'f' && pane === 'inbox') {
      set({
        inboxFilter: state.inboxFilter === 'open' ? 'callbacks' : 'open',
        ...(isWide(state) ? { openLeadId: undefined } : {}),
      });
      return resetCursor('inbox');
    }
    if (state.readOnly) return;
    if (input === 'c' && (pane === 'inbox' || pane === 'thread' || pane === 'contacts')) return compose();
    if (input === 'd' && pane === 'reviews') {
      const review = selectedReview(state);
      if (review) deps.draft(review.id);
      return;
    }
    if (input === 'a' && pane === 'actions') {
      const action = selectedAction(state);
      if (!action) return;
      if (action.status !== 'pending_approval') return;
      // Approved already (the list may not be read again yet): a second decide could repeat its effects.
      const decided = state.decisions[action.id]?.state;
      if (decided === 'approving' || decided === 'done') return;
      set({
        prompt: {
          kind: 'confirm-approve',
          actionId: action.id,
          label: `${sanitize(String(action.kind), { singleLine: true }).replaceAll('_', ' ')} ${action.id}`,
        },
      });
    }
  };

  /** Keys between c and its composer opening are the start of the text (q is not quit); esc gives up. */
  const awaitingKey = (input: string, key: Key) => {
    const waiting = awaitingComposer;
    if (!waiting) return;
    if (key.escape) {
      awaitingComposer = undefined;
      return;
    }
    if (isBackspace(input, key)) {
      waiting.typed = deleteBackward(waiting.typed);
      return;
    }
    if (key.ctrl || key.meta || key.tab || key.return || key.upArrow || key.downArrow) return;
    if (key.leftArrow || key.rightArrow || key.pageDown || key.pageUp) return;
    if (input) waiting.typed = insertText(waiting.typed, input);
  };

  const handleOne = (input: string, key: Key) => {
    const state = get();
    if (state.quitting) return;
    if (state.fatal) {
      if (input === 'q' || (key.ctrl && input === 'c')) deps.quit();
      return;
    }
    if (state.prompt) {
      if (key.ctrl && input === 'c') {
        if (state.prompt.kind === 'confirm-quit') return deps.quit();
        // ctrl-c answers no to a send or an approval, then asks to quit (the text is kept).
        promptKey('n', key);
        return requestQuit();
      }
      return promptKey(input, key);
    }
    if (key.ctrl && input === 'c') return requestQuit();
    if (state.helpOpen) {
      if (input === '?' || input === 'q' || key.escape) set({ helpOpen: false });
      return;
    }
    if (state.composer) return composeKey(input, key);
    if (state.searching) return searchKey(input, key);
    if (awaitingComposer) return awaitingKey(input, key);
    paneKey(input, key);
  };

  const handleChunk = (input: string, key: Key): void => {
    if (input === PASTE_START) {
      pasting = true;
      return;
    }
    if (input === PASTE_END) {
      pasting = false;
      return;
    }
    if (pasting) {
      const state = get();
      // Pasted line breaks and tabs are text, never Enter (which would ask to send) or a pane switch.
      // Terminals send a pasted line break as CR: inside a longer chunk it is a line break too.
      const text = key.return ? '\n' : key.tab ? ' ' : input.replace(/\r\n?/g, '\n').replaceAll('\t', ' ');
      if (!text) return;
      if (state.composer && !state.prompt) editComposed((line) => insertText(line, text));
      else if (state.searching && !state.prompt)
        editSearch((line) => insertText(line, sanitize(text, { singleLine: true })));
      else if (awaitingComposer && !state.prompt)
        awaitingComposer.typed = insertText(awaitingComposer.typed, text);
      return;
    }
    const state = get();
    const typing =
      (state.composer || state.searching || awaitingComposer) && !state.prompt && !state.helpOpen;
    if (typing && input.length > 1 && /[\u007f\b]/.test(input)) {
      // Keys read together (a held backspace, "ab⌫" on a busy loop): each backspace is a key, not text.
      for (const part of input.split(/([\u007f\b])/))
        if (part) handleOne(part === '\u007f' ? '\b' : part, key);
      return;
    }
    if (typing && input.length > 1 && state.searching && !state.composer && /[\r\n]/.test(input)) {
      // A search is one line: enter ends it, and what follows in the chunk ("ana⏎c") is keys again.
      const end = input.search(/[\r\n]/);
      if (end > 0) handleOne(input.slice(0, end), { ...key, return: false });
      handleOne('', { ...key, return: true });
      const rest = input.slice(end + (input.startsWith('\r\n', end) ? 2 : 1));
      if (rest) handleChunk(rest, { ...key, return: false });
      return;
    }
    if (typing && input.length > 1 && /[\r\n]/.test(input)) {
      // Keys typed fast over a slow link arrive together ("ok⏎"): a line break that ends the chunk is Enter;
      // line breaks inside it (a paste without bracketed paste) are text, so no part of a paste is ever dropped.
      const enter = /[\r\n]$/.test(input);
      const text = input.replace(/\r?\n$|\r$/, '').replace(/\r\n?/g, '\n');
      if (text) handleOne(text, { ...key, return: false });
      if (enter) handleOne('', { ...key, return: true });
      return;
    }
    if (typing || input.length <= 1 || key.ctrl || key.meta) {
      handleOne(input, key);
      return;
    }
    for (const char of input) {
      const prompted = Boolean(get().prompt);
      handleOne(...keyOf(char, key));
      // A confirmation wants a deliberate key of its own: keys read with the one that asked it are not answers.
      if (!prompted && get().prompt) return;
    }
  };

  return handleChunk;
}
