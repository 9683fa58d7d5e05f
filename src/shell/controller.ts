/**
 * What keys (and clicks, and the palette) do to the screen: focus, the
 * selection, the filters, the composer, the questions, the help and the
 * palette. Commands are data that call these; everything here reads the
 * store's current state, never a copy from a render.
 */

import type { Contact, InboxLead } from '../contract/resources.js';
import type { PaneDescriptor } from '../panes/pane.js';
import { PANES, paneById } from '../panes/registry.js';
import type { Slot } from '../poller/reads.js';
import {
  type AppState,
  type AppStore,
  type ComposerTarget,
  type Notice,
  type PaneId,
  type Prompt,
  type ThreadSource,
  waitingKey,
} from '../store/app-store.js';
import {
  type Cut,
  deleteBackward,
  emptyLine,
  insertText,
  type LineText,
  lineOf,
  moveEnd,
} from '../store/line-editor.js';
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
  selectionOf,
  targetFromContact,
  targetFromLead,
  threadLeadId,
  threadSubject,
  unsentTexts,
} from '../store/selectors.js';
import { insertableText } from '../text/text-filter.js';
import { copyableText, osc52 } from '../ui-kit/clipboard.js';
import { oneLine } from '../ui-kit/format.js';
import { withSeenTexts } from '../user-actions/pre-send-facts.js';
import { editTypedWord } from '../user-actions/send-decision.js';
import type { SendFlow } from '../user-actions/send-flow.js';
import type { SendOutcome } from '../user-actions/send-outcome.js';
import { fillTemplate, variablesFor } from '../user-actions/templates.js';
import { templateItems } from './commands/template-items.js';
import { showSendStep } from './send-outcome-view.js';

export interface ControllerServices {
  poller: { refreshVisible(): void; refreshAll(): void; request(slot: Slot): void };
  /** The steps of sending a text from the composer; what comes of each is shown here. */
  sendFlow: Pick<SendFlow, 'ask' | 'answer' | 'submitTyped'>;
  /** Opens the text in the user's editor (the terminal's runner only); resolves with the edited text. */
  editText?(text: string): Promise<string>;
  /** Approves the action; `label` ("review reply act_12") names it in what is said of the answer. */
  approve(actionId: string, label: string): void;
  draft(reviewId: string): void;
  quit(): void;
  /** The terminal, for what is written beside the frames (the clipboard); absent: copying is not possible. */
  terminal?: { write(bytes: string): void; tmux: boolean };
  /** Draws the whole screen again from scratch (a real terminal only). */
  repaint?(): void;
  /** The shops of config.json to switch to; absent: this inbox has none (the demo). */
  shops?: {
    names(): Promise<string[]>;
    /** Resolves once the new shop is being read; rejects, in words for staff, when it cannot be used. */
    switchTo(name: string): Promise<void>;
  };
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

  /** Puts text on the terminal's clipboard (OSC 52) and says what was copied; `what` names it ("Ray's phone"). */
  const copy = (what: string, text: string) => {
    const copyable = copyableText(text);
    if (!copyable.trim()) return notify(`Nothing to copy: ${what} is empty.`, 'warning');
    if (!services.terminal) return notify('Cannot copy here: there is no terminal to copy to.', 'warning');
    services.terminal.write(osc52(copyable, { tmux: services.terminal.tmux }));
    const shown = oneLine(copyable);
    // The status line cuts it to the terminal; the message log (L) has up to 300 characters of it.
    const preview = [...shown].length > 300 ? `${[...shown].slice(0, 299).join('')}…` : shown;
    notify(`Copied ${what}: ${preview}`, 'success');
  };

  // --- panes and the selection ------------------------------------------------

  const focusPane = (id: PaneId) => {
    const state = get();
    const to = PANES.find((descriptor) => descriptor.id === id);
    if (state.focus === id || !to) return;
    // "New" marks stay: each belongs to its item and clears when that item is selected (new-marks.ts).
    const { update, readNow } = to.onFocus?.(state) ?? {};
    set({ focus: id, searching: false, ...update });
    for (const slot of readNow ?? []) services.poller.request(slot);
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

  /**
   * Another list in a pane, as staff chose (a filter, a status): the record they had selected stays
   * selected when the new list has it (w from a lead that waits for a reply); else the selection starts
   * again at the top.
   */
  const showList = (id: PaneId, update: Partial<AppState>) => {
    const before = listOf(id);
    const row = before?.rows[selectedIndex(id)];
    const keptId = before && row !== undefined ? before.rowId(row) : undefined;
    set(update);
    const after = listOf(id);
    const at =
      after && keptId !== undefined ? after.rows.findIndex((each) => after.rowId(each) === keptId) : -1;
    if (after && at >= 0) setSelection(id, selectRow(after, at));
    else resetSelection(id);
  };

  // --- the thread ------------------------------------------------------------

  /**
   * Shows, in the Thread pane, the lead highlighted in `from` (read again now), on its newest text. The one
   * pane named here: every list opens its record in it, and so does the composer (c on an Inbox row shows
   * the thread while its lead is read).
   */
  const openThread = (from: ThreadSource) => {
    set((state) => ({
      threadFrom: from,
      selection: { ...state.selection, thread: { index: Number.MAX_SAFE_INTEGER, atEnd: true } },
    }));
    const leadId = threadLeadId(get());
    if (leadId) services.poller.request({ kind: 'lead', id: leadId });
    focusPane('thread');
  };

  // --- filters and the contacts search ---------------------------------------

  /** Asks the service for what is typed in a pane's search line, when it is not what was asked last. */
  const applyRemoteSearch = (id: PaneId) => {
    const remote = pane(id).filter;
    if (typeof remote !== 'object') return;
    const text = searchText(get(), id).trim();
    if (text === remote.asked(get())) return;
    const { update, read } = remote.ask(get(), text);
    set(update);
    resetSelection(id);
    // Read this query now, even if it was read before (esc back to ""): the list on screen is another query's.
    services.poller.request(read);
  };

  const searchChanged = (id: PaneId) => {
    if (typeof pane(id).filter === 'object') {
      // Typing a name must not spend the request budget: only the last query is sent.
      if (searchTimer) clearTimeout(searchTimer);
      searchTimer = setTimeout(() => applyRemoteSearch(id), options.searchDebounceMs ?? 350);
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
    if (typeof pane().filter === 'object') {
      if (searchTimer) clearTimeout(searchTimer);
      applyRemoteSearch(get().focus);
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
    // What the thread holds now is what staff saw: a text that arrives later is shown before sending.
    set({ composer: withSeenTexts(get(), target), composerWaiting: undefined, searching: false });
  };

  /**
   * c on an inbox row: the composer opens over the lead's thread, read again now, whether or not the
   * thread was read before. The row has no contact id: a lead never read is read first, and what is typed
   * meanwhile is kept.
   */
  const composeToLead = (lead: InboxLead) => {
    const detail = get().leads[lead.id]?.data;
    openThread({ list: 'inbox' });
    if (detail) return openComposer(targetFromLead(detail));
    composeOnceRead(lead.id, { name: lead.contact_name, phone: lead.caller_phone });
  };

  /** c in the Thread pane: exactly the lead it shows and names, read first if it is not yet. */
  const composeToThread = () => {
    const state = get();
    const subject = threadSubject(state);
    if (subject.kind !== 'lead') return;
    const detail = state.leads[subject.leadId]?.data;
    if (detail) return openComposer(targetFromLead(detail));
    services.poller.request({ kind: 'lead', id: subject.leadId });
    composeOnceRead(subject.leadId, { name: subject.name ?? '', phone: subject.phone ?? '' });
  };

  /** The composer, open on a lead being read (named as its list names it): its contact's once it arrives. */
  const composeOnceRead = (leadId: string, named: { name: string; phone: string }) => {
    set({ composerWaiting: { leadId, ...named }, composer: undefined });
    // Wait for a read that ends after this key: an error left by an earlier failed read is not the answer.
    const before = get().leads[leadId];
    const unsubscribe = store.subscribe((next) => {
      const loaded = next.leads[leadId];
      if (!loaded || loaded === before || loaded.loading || !(loaded.data || loaded.error)) return;
      unsubscribe();
      const waiting = next.composerWaiting?.leadId === leadId;
      if (loaded.data) {
        if (waiting) openComposer(targetFromLead(loaded.data));
        return;
      }
      if (!waiting) return;
      set({ composerWaiting: undefined });
      const typed = get().composed[waitingKey(leadId)]?.text.trim();
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

  const closeComposer = () =>
    set({ composer: undefined, composerWaiting: undefined, templatePicker: undefined });

  // --- the user's editor -----------------------------------------------------

  let editing = false;
  /** ctrl-g: the text in $EDITOR; what comes back is filtered like typed text, and replaces it. */
  const openEditor = () => {
    // The contact's text, never a lead's still being read (it moves when the lead arrives).
    const key = get().composer?.contactId;
    const editText = services.editText;
    if (key === undefined || !editText || editing) return;
    editing = true;
    const before = get().composed[key]?.text ?? '';
    editText(before)
      .then(
        (edited) => {
          const text = insertableText(edited, { multiline: true });
          set((state) => ({ composed: { ...state.composed, [key]: lineOf(text) } }));
          notify(
            text === before ? 'Back from the editor: the text is unchanged.' : 'Back from the editor.',
            'info',
          );
        },
        (error: unknown) =>
          notify(`Back from the editor; the text is unchanged: ${(error as Error).message}.`, 'warning'),
      )
      .finally(() => {
        editing = false;
      });
  };

  // --- canned replies ---------------------------------------------------------

  const openTemplates = () => {
    if (get().composer) set({ templatePicker: { query: emptyLine, selected: 0 } });
  };
  const closeTemplates = () => set({ templatePicker: undefined });
  const editTemplatesQuery = (edit: (line: LineText) => LineText) =>
    set((state) =>
      state.templatePicker
        ? { templatePicker: { query: edit(state.templatePicker.query), selected: 0 } }
        : {},
    );
  const moveTemplates = (step: number) =>
    set((state) => {
      if (!state.templatePicker) return {};
      const count = templateItems(state).length;
      const selected = Math.max(0, Math.min(count - 1, state.templatePicker.selected + step));
      return { templatePicker: { ...state.templatePicker, selected } };
    });
  /** enter in the picker: the highlighted template, filled in for this recipient, goes in at the cursor. */
  const insertTemplate = () => {
    const state = get();
    const chosen = templateItems(state)[state.templatePicker?.selected ?? 0];
    set({ templatePicker: undefined });
    const target = state.composer;
    if (!chosen || !target) return;
    const filled = fillTemplate(chosen.template.body, variablesFor(state, target));
    editComposed((line) => insertText(line, insertableText(filled, { multiline: true })));
  };

  // --- questions --------------------------------------------------------------

  const ask = (prompt: Prompt, batch: number) => {
    askedInBatch = batch;
    set({ prompt, helpOpen: false, palette: undefined });
  };

  /** Whether a key of this read may answer the question on screen. */
  const mayAnswer = (batch: number) => batch !== askedInBatch;

  /** What came of a step of sending, on screen: the question, a notice, the composer back. */
  const showSendOutcome = (outcome: SendOutcome, batch: number | undefined): void =>
    showSendStep(outcome, batch, {
      store,
      notify,
      askedIn: (asked) => {
        askedInBatch = asked;
      },
    });

  const answer = (yes: boolean, batch?: number) => {
    const prompt = get().prompt;
    if (!prompt) return;
    if (prompt.kind === 'confirm-send') return showSendOutcome(services.sendFlow.answer(yes), batch);
    set({ prompt: undefined });
    askedInBatch = undefined;
    if (prompt.kind === 'confirm-approve') {
      if (yes) services.approve(prompt.actionId, prompt.label);
      // A no is a decision too: it stays on the status line and in the log.
      else notify(`Not approved: ${prompt.label} (nothing was sent to the shop).`, 'info');
      return;
    }
    if (!yes) return;
    if (prompt.kind === 'confirm-switch-shop') switchShop(prompt.shop);
    else services.quit();
  };

  const scrollQuestion = (rows: number) =>
    set((state) =>
      state.prompt?.kind === 'confirm-approve'
        ? {
            prompt: {
              ...state.prompt,
              scroll: Math.max(0, Math.min(state.prompt.scrollMax ?? 0, state.prompt.scroll + rows)),
            },
          }
        : {},
    );

  // --- shops -----------------------------------------------------------------

  /** Whether this inbox can switch shops at all: the demo and one started with --base-url cannot. */
  const canSwitchShops = () => services.shops !== undefined;
  const openShops = () => {
    const shops = services.shops;
    if (!shops)
      return notify('This inbox has no other shops (the demo, or one started with --base-url).', 'warning');
    void shops.names().then(
      (names) => {
        if (names.length === 0)
          return notify(
            'config.json names no shops: add one with shop-inbox login --shop NAME --base-url URL.',
            'warning',
          );
        const current = names.indexOf(get().shop ?? '');
        set({ shopPicker: { names, selected: Math.max(0, current) }, helpOpen: false, palette: undefined });
      },
      (error: unknown) => notify(`Cannot list the shops: ${(error as Error).message}`, 'error'),
    );
  };
  const closeShops = () => set({ shopPicker: undefined });
  const moveShops = (step: number) =>
    set((state) => {
      if (!state.shopPicker) return {};
      const last = state.shopPicker.names.length - 1;
      return {
        shopPicker: {
          ...state.shopPicker,
          selected: Math.max(0, Math.min(last, state.shopPicker.selected + step)),
        },
      };
    });
  const switchShop = (name: string) => {
    void services.shops
      ?.switchTo(name)
      .catch((error: unknown) =>
        notify(`Cannot switch to the shop ${name}: ${(error as Error).message}`, 'error'),
      );
  };
  /** enter in the shops: the highlighted one, after asking when a text is typed or still sending here. */
  const chooseShop = (batch: number) => {
    const state = get();
    const name = state.shopPicker?.names[state.shopPicker.selected];
    set({ shopPicker: undefined });
    if (name === undefined) return;
    if (name === state.shop) return notify(`The shop ${name} is the one on screen.`);
    const unsent = unsentTexts(state);
    const typed = unsent.typed.length;
    const { sending } = unsent;
    if (typed + sending.length > 0)
      return ask(
        { kind: 'confirm-switch-shop', shop: name, from: state.shop ?? 'on screen', typed, sending },
        batch,
      );
    switchShop(name);
  };

  const requestQuit = (batch: number) => {
    const { typed, sending } = unsentTexts(get());
    const unsent = typed.length + sending.length;
    if (unsent > 0) return ask({ kind: 'confirm-quit', unsent, typed, sending }, batch);
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
    if (state.prompt?.kind === 'confirm-send' && state.prompt.word !== undefined) editTyped(edit);
    else if (state.palette) editPalette(edit);
    else if (state.templatePicker) editTemplatesQuery(edit);
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

  /** enter in the composer: the question, with the exact text and every finding, bound to this contact. */
  const askToSend = (batch: number) => showSendOutcome(services.sendFlow.ask(), batch);

  /** enter on a question that wants a typed word: sends only when the word is typed. */
  const submitTyped = (batch?: number) => showSendOutcome(services.sendFlow.submitTyped(), batch);

  const editTyped = (edit: (line: LineText) => LineText) =>
    set((state) => {
      const prompt = state.prompt?.kind === 'confirm-send' ? editTypedWord(state.prompt, edit) : undefined;
      return prompt ? { prompt } : {};
    });

  return {
    notify,
    copy,
    pane,
    focusPane,
    cyclePane,
    selectedIndex,
    select,
    move,
    keepSelection,
    openThread,
    showList,
    startSearch,
    editSearch,
    finishSearch,
    clearSearch,
    openComposer,
    composeToLead,
    composeToThread,
    composeToContact,
    composedKey,
    editComposed,
    closeComposer,
    openTemplates,
    openEditor,
    /** Whether ctrl-g can open an editor here (only a real terminal can be handed over). */
    editorAvailable: () => services.editText !== undefined,
    closeTemplates,
    moveTemplates,
    insertTemplate,
    editLine,
    cutLine,
    /** ctrl-y: puts back what the last kill cut. */
    yank: () => {
      if (killed) editLine((line) => insertText(line, killed));
    },
    askToSend,
    submitTyped,
    ask,
    scrollQuestion,
    now,
    mayAnswer,
    answer,
    requestQuit,
    canSwitchShops,
    openShops,
    closeShops,
    moveShops,
    chooseShop,
    openPalette,
    closePalette,
    editPalette,
    movePalette,
    /** Text typed or pasted into whatever is being edited, filtered to what may enter it. */
    typeText(text: string) {
      const state = get();
      if (state.prompt?.kind === 'confirm-send' && state.prompt.word !== undefined)
        return editTyped((line) => insertText(line, insertableText(text, { multiline: false })));
      if (state.palette)
        return editPalette((line) => insertText(line, insertableText(text, { multiline: false })));
      if (state.templatePicker)
        return editTemplatesQuery((line) => insertText(line, insertableText(text, { multiline: false })));
      if (state.composer || state.composerWaiting)
        return editComposed((line) => insertText(line, insertableText(text, { multiline: true })));
      if (state.searching) editSearch((line) => insertText(line, insertableText(text, { multiline: false })));
    },
    backspaceComposed: () => editComposed(deleteBackward),
    refreshVisible: () => services.poller.refreshVisible(),
    refreshAll: () => services.poller.refreshAll(),
    draft: (reviewId: string) => services.draft(reviewId),
    quit: () => services.quit(),
    /** ctrl-l: the screen drawn again whole, whatever the terminal shows now. */
    repaint: () => services.repaint?.(),
    dispose() {
      if (searchTimer) clearTimeout(searchTimer);
    },
  };
}
