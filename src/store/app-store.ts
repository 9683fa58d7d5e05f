/**
 * The one store of the app (zustand, vanilla): server data as the poller last
 * saw it, what staff are doing (focus, selections, composer, prompts), and the
 * state of every request. The poller and the user actions write it without
 * React; panes select narrowly from it.
 *
 * Every action reads the current state through `get()`, never a value from a
 * render: keys can arrive faster than React re-renders.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ActionList,
  ActionStatusValue,
  Billing,
  ContactList,
  DecisionResult,
  Inbox,
  InboxFilter,
  LeadDetail,
  ReplyDraft,
  ReviewList,
  ShopOverview,
  TextingSetup,
  Today,
} from '../contract/resources.js';
import type { PhoneZonesState } from '../rules/customer-zones.js';
import type { Finding, PreSendSummary } from '../rules/pre-send-checks.js';
import type { Recipient } from '../text/recipient.js';
import { type ConversationMarks, noMarks } from './conversation-marks.js';
import type { LineText } from './line-editor.js';
import { emptySeen, type SeenState } from './seen.js';
import type { Selection } from './selection.js';
import { noThreadNews, type ThreadNews } from './thread-news.js';

/** A pane's id (see src/panes/registry.ts, which lists the panes). */
export type PaneId = string;

/**
 * Where the Thread pane takes its lead from: the lead highlighted in the
 * Inbox, the lead of the contact highlighted in Contacts, or one lead: an
 * inbound text's opened with i when the Inbox as shown does not list it, the
 * lead the shop filed a sent text under (enter on it), or the lead a reply was
 * just sent from while its thread was focused, when that reply took it off
 * its list (a callback answered). Never a lead remembered apart from what
 * staff chose: what the thread shows is what `c` there texts.
 */
export type ThreadSource = { list: 'inbox' } | { list: 'contacts' } | { list: 'lead'; leadId: string };

/** What a failed request left behind: enough to explain it, nothing secret. */
export interface RequestFailure {
  code: string;
  status: number;
  message: string;
  retryAfter?: number;
  at: number;
}

/** One thing read from the API: the last good copy stays on screen while a refresh fails. */
export interface Loaded<T> {
  data?: T;
  updatedAt?: number;
  loading: boolean;
  error?: RequestFailure;
}

export const notLoaded: Loaded<never> = { loading: false };

export type OutgoingState = 'sending' | 'sent' | 'replayed' | 'waiting' | 'failed';

/** A text staff confirmed: its key and exact body were fixed at that moment and never change. */
export interface OutgoingText {
  localId: string;
  contactId: string;
  contactName: string;
  phone: string;
  leadId?: string;
  body: string;
  idempotencyKey: string;
  confirmedAt: number;
  state: OutgoingState;
  attempts: number;
  /** Why it failed or waits, in plain words. */
  reason?: string;
  /** When a waiting text is tried again. */
  retryAt?: number;
  finishedAt?: number;
}

export interface ComposerTarget {
  contactId: string;
  name: string;
  phone: string;
  leadId?: string;
  /** The latest consent record as last seen: missing means "no consent on record". */
  consent?: { given: boolean; recordedAt: string } | null;
  /**
   * Ids of the texts of this contact's threads the inbox had read when the composer opened (absent: none
   * read yet): a text not among them arrived meanwhile, and is shown before anything is sent.
   */
  seenTextIds?: readonly string[];
}

/** A canned reply: its name and its body with {variables} (see src/user-actions/templates.ts). */
export interface Template {
  name: string;
  body: string;
}

/** The question before a text is sent: the exact text, bound to its contact, and what the checks found. */
export interface ConfirmSend {
  kind: 'confirm-send';
  target: ComposerTarget;
  body: string;
  /** What the pre-send checks found (every warning is shown in the question). */
  findings?: readonly Finding[];
  /** The consent record and the customer's local time when it was asked (always shown). */
  summary?: PreSendSummary;
  /** A word staff must type (then enter) instead of y: "send", or "override" for an opt-out. */
  word?: string;
  /** What is typed so far, when a word is asked for. */
  typed?: LineText;
  /** Enter was pressed on something other than the word. */
  mistyped?: boolean;
  /** Confirmed: the thread is read again, to see whether anyone wrote meanwhile, before it is sent. */
  checking?: boolean;
  /** Asked a second time, since another terminal of this box is writing to the same contact. */
  again?: boolean;
  /** Asked again since the thread could not be read again before sending (why, in plain words): y sends without that check. */
  rereadFailed?: string;
}

/**
 * The composer opened on an inbox row whose contact is not known yet (the
 * row has no contact id): what is typed waits here until the lead is read.
 */
export interface WaitingComposer {
  leadId: string;
  name: string;
  phone: string;
  /** Why the lead could not be read; the text stays, and c tries again. */
  failed?: string;
}

/** One paragraph of what an approval question knows: a label ("Review") and its text, wrapped on screen. */
export interface ApprovalFact {
  label: string;
  text: string;
  /** How it is shown: a plain fact, what approving would publish, or what the inbox cannot tell. */
  tone?: 'publishes' | 'unknown';
}

/**
 * y/n on approving an action, with everything the inbox knows of it when asked (its kind, id and time, the
 * fields the service sent, the review and the reply when a draft made here is bound to it), shown whole in a
 * box the question scrolls (`scroll`: rows scrolled past).
 */
export interface ConfirmApprove {
  kind: 'confirm-approve';
  actionId: string;
  /** "review reply act_12": the action named in the question, the log and the answer. */
  label: string;
  facts: readonly ApprovalFact[];
  scroll: number;
  /** How far the details scroll at the size drawn last (0: everything fits); set by the box that shows them. */
  scrollMax?: number;
}

/** Every question is bound to its record when it is asked, never to what is selected when y arrives. */
export type Prompt =
  | ConfirmSend
  | ConfirmApprove
  | {
      kind: 'confirm-quit';
      unsent: number;
      /** Whom the texts typed and not sent are for, where the inbox knows (a lead still being read may not). */
      typed: Array<Recipient | undefined>;
      /** Whom the texts still sending go to. */
      sending: Recipient[];
    }
  /**
   * Switching shops while a text is typed or still sending for this one (`from`): the typed ones are
   * dropped, the sending ones go on in the background (their recipients, to say so).
   */
  | {
      kind: 'confirm-switch-shop';
      shop: string;
      from: string;
      typed: number;
      sending: ReadonlyArray<{ name: string; phone: string }>;
    };

/** The command palette (: or ctrl-p): the query typed and the highlighted match. */
export interface PaletteState {
  query: LineText;
  selected: number;
}

export interface DraftState {
  state: 'drafting' | 'done' | 'failed';
  draft?: ReplyDraft;
  error?: RequestFailure;
  at: number;
}

/** A reply drafted here, and the pending review_reply action that holds it (found by asking the shop). */
export interface DraftedReply {
  actionId: string;
  reviewId: string;
  reviewer: string;
  reply: string;
  at: number;
}

export interface DecisionState {
  state: 'approving' | 'done' | 'failed';
  result?: DecisionResult;
  error?: RequestFailure;
  at: number;
}

export type Connection =
  | { state: 'ok' }
  | { state: 'rate_limited'; until: number }
  | { state: 'offline'; since: number; retryAt: number; message: string }
  | { state: 'server_error'; since: number; retryAt: number; message: string };

/** How a refused key can be replaced without a restart. */
export type KeyRecovery =
  /**
   * The key's file is watched: a new key saved there resumes the inbox. `via`: the saved login
   * (`shop-inbox login` writes it) or --key-file. `problem`: why the file cannot be used now.
   */
  | { kind: 'watching'; via: 'login' | 'key-file'; where: string; problem?: string }
  /** The key came from SHOP_API_KEY, which cannot change while the process runs. */
  | { kind: 'env' };

export type Fatal = { kind: 'unauthorized' | 'no_subscription'; message: string; recovery?: KeyRecovery };

/** Why the process cannot write: --read-only, the config's read_only, or the shop (the key is read-only). */
export type ReadOnlyReason = 'flag' | 'config' | 'server';

/**
 * What the shop says the key may do (src/session/key-mode.ts): write or read
 * only, how that was learned and when; or unknown (not asked yet, or no clear
 * answer), and why. An unknown mode blocks nothing.
 */
export type KeyMode =
  | { mode: 'write' | 'read'; how: 'probe' | 'refused' | 'accepted'; at: number }
  | { mode: 'unknown'; why: string };

export const KEY_MODE_NOT_ASKED: KeyMode = { mode: 'unknown', why: 'not asked yet' };

export interface Notice {
  text: string;
  tone: 'info' | 'success' | 'warning' | 'error';
  at: number;
  /**
   * Said by the inbox of its own accord (a file it could not keep, the key's mode, other terminals), not as
   * the outcome of something staff did: it does not cover an error on the status line (the log has it).
   */
  background?: true;
}

/** Notices kept in the message log (the oldest go first). */
export const LOG_LIMIT = 500;

/**
 * How the inbox's leads are ordered: as the service lists them (newest first), same-day leads first, or the
 * oldest first (the callbacks waiting longest at the top).
 */
export const INBOX_ORDERS = ['newest', 'same-day', 'oldest'] as const;
export type InboxOrder = (typeof INBOX_ORDERS)[number];
/** The orders `o` goes through: for the callbacks the second is who has waited longest, what staff ask first. */
export const inboxOrdersOf = (filter: InboxFilter): readonly InboxOrder[] =>
  filter === 'callbacks' ? ['newest', 'oldest', 'same-day'] : INBOX_ORDERS;
/** How reviews are ordered: newest first, unreplied first, or the lowest rating first. */
export const REVIEW_ORDERS = ['newest', 'unreplied', 'rating'] as const;
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

export type ActionsFilter = ActionStatusValue;
export const ACTION_FILTERS: readonly ActionsFilter[] = [
  'pending_approval',
  'published',
  'declined',
  'failed',
];

/** What the process shows: the inbox, or the wallboard of a monitoring screen. */
export type View = 'inbox' | 'wallboard';

export interface AppState {
  // Server data
  me: Loaded<ShopOverview>;
  today: Loaded<Today>;
  billing: Loaded<Billing>;
  texting: Loaded<TextingSetup>;
  /** The service's OpenAPI document (public, no key). */
  apiSpec: Loaded<Record<string, unknown>>;
  inbox: Record<InboxFilter, Loaded<Inbox>>;
  /** `query` is what staff asked for; `loadedQuery` what the list on screen answers (they differ while a search is on its way). */
  contacts: Loaded<ContactList> & { query: string; loadedQuery?: string };
  leads: Record<string, Loaded<LeadDetail>>;
  reviews: Loaded<ReviewList>;
  actions: Record<ActionsFilter, Loaded<ActionList>>;
  drafts: Record<string, DraftState>;
  decisions: Record<string, DecisionState>;
  /** Replies drafted here, by the id of the action that holds each (Actions shows their text). */
  draftedReplies: Record<string, DraftedReply>;
  outbox: OutgoingText[];
  /**
   * For each text sent from here (by localId), the ids of its contact's texts the inbox had read when it
   * was confirmed: none of them is its copy (src/store/sent-copies.ts).
   */
  textIdsBeforeSend: Record<string, readonly string[]>;

  // What staff are doing
  focus: PaneId;
  /** Each pane's selected record (absent: the first row). */
  selection: Record<PaneId, Selection>;
  inboxFilter: InboxFilter;
  actionsFilter: ActionsFilter;
  inboxOrder: InboxOrder;
  reviewOrder: ReviewOrder;
  /** Reviews: only those without a reply. */
  unrepliedOnly: boolean;
  /** Inbox: only the conversations waiting for a reply (their newest text is the customer's), oldest first. */
  waitingOnly: boolean;
  /** Read and done, kept by this inbox for this user and shop (src/store/conversation-marks.ts). */
  conversations: ConversationMarks;
  /** The list whose highlighted record the Thread pane shows (see threadLeadId in selectors.ts). */
  threadFrom: ThreadSource;
  /** Local filter text of a list (inbox, reviews) or the contacts search (absent: empty). */
  search: Record<PaneId, LineText>;
  searching: boolean;
  /** The composer's recipient while it is open. */
  composer?: ComposerTarget;
  /** The composer opened on a lead still being read; its text is `composed[waitingKey(leadId)]`. */
  composerWaiting?: WaitingComposer;
  /** Text typed for each contact (or lead still being read): survives closing the composer. */
  composed: Record<string, LineText>;
  prompt?: Prompt;
  helpOpen: boolean;
  /** The first row of the help on screen, when it is longer than the screen. */
  helpScroll: number;
  palette?: PaletteState;
  notice?: Notice;
  /** The list of editing keys (F1 in a text), over what is typed, and the rows scrolled past. */
  editKeys?: { scroll: number };
  /** Every notice shown, oldest first, at most LOG_LIMIT: the message log (L) shows them whole. */
  log: readonly Notice[];
  logOpen: boolean;
  /** Entries of the log scrolled past (0: the newest at the top). */
  logScroll: number;
  columns: number;
  rows: number;
  /** "timezone" in the config: the shop's zone, for customers whose number's zone is not known. */
  configTimeZone?: string;
  /** This machine's zone: the shop's when neither the config nor the texting number gives one. */
  machineTimeZone: string;
  /** The zone(s) of numbers looked up so far (the composer's recipient, the shop's texting number), by number. */
  phoneZones: Readonly<Record<string, PhoneZonesState>>;
  /** Canned replies (templates.json in the config directory, else the examples shop-inbox ships). */
  templates: readonly Template[];
  /** Why templates.json could not be used, in plain words (then there are no templates). */
  templatesProblem?: string;
  /** The template picker of the composer: the query typed and the highlighted match. */
  templatePicker?: PaletteState;

  /** The shops config.json names, to switch to (O): their names, the highlighted one. */
  shopPicker?: { names: readonly string[]; selected: number };
  /**
   * The Inbox's latest inbound texts chosen among with the keys (I): the highlighted one's id
   * (`inboundId`); absent when the keys move the list of leads.
   */
  inboundPick?: string;

  // Process state
  /** The name in config.json's "shops" of the shop this inbox shows (none: a shop given by URL). */
  shop?: string;
  view: View;
  readOnly: boolean;
  readOnlyReason?: ReadOnlyReason;
  /** What the shop says the key may do; `readOnly` follows it unless the process is read-only by choice. */
  keyMode: KeyMode;
  fatal?: Fatal;
  connection: Connection;
  seen: SeenState;
  /** What the lists said of the threads since they were read (src/store/thread-news.ts). */
  threadNews: ThreadNews;
  quitting: boolean;
  /** The other terminals of this user, shop and key on this box (through its hub). */
  presence: Presence;
  /** How this terminal reads the shop: as the box's hub, through it, or on its own (and why). */
  sharing?: Sharing;
}

export interface Presence {
  /** Other terminals open on this shop and key. */
  others: number;
  /** Contacts another terminal's composer is open on. */
  composingElsewhere: string[];
}

/** The contact this terminal is writing to: its composer's, or the one its send question is about. */
export function composingContact(state: Pick<AppState, 'composer' | 'prompt'>): string | null {
  return (
    state.composer?.contactId ??
    (state.prompt?.kind === 'confirm-send' ? state.prompt.target.contactId : null)
  );
}

export type Sharing =
  | { role: 'hub' }
  | { role: 'client'; since: number }
  /**
   * A client whose hub stopped answering (or a terminal that found it so at
   * start): it reads the shop on its own, within its share of the budget,
   * until the hub answers again or a terminal takes over from it.
   */
  | { role: 'hub-silent'; since: number; why: string }
  /** Polling on its own: no hub could be used (why), or the hub went away and none took over yet. */
  | { role: 'alone'; why: string };

/**
 * Runs inside every update of the store, on the state it makes, before anyone hears of it: what it returns is
 * part of the same update (the selection kept on its record while lists change under it). Undefined: nothing
 * to add.
 */
export type Settler = (state: AppState) => Partial<AppState> | undefined;

export interface AppStore extends StoreApi<AppState> {
  /** Adds a settler to every update from now on; returns its removal. */
  settleWith(settler: Settler): () => void;
}

/** What settlers add may need settling in turn (a thread kept changes what its pane was asked for): so many rounds at most. */
const SETTLE_ROUNDS = 4;

export interface AppStoreOptions {
  view?: View;
  readOnly?: boolean;
  readOnlyReason?: ReadOnlyReason;
  columns?: number;
  rows?: number;
  /** "timezone" in the config. */
  timeZone?: string;
  /** This machine's zone (default: the process's). */
  machineTimeZone?: string;
  templates?: readonly Template[];
  templatesProblem?: string;
  /** The config's name of the shop. */
  shop?: string;
}

/** This machine's time zone. */
export const machineTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function initialState(options: AppStoreOptions = {}): AppState {
  return {
    me: notLoaded,
    today: notLoaded,
    billing: notLoaded,
    texting: notLoaded,
    apiSpec: notLoaded,
    inbox: { open: notLoaded, callbacks: notLoaded },
    contacts: { ...notLoaded, query: '' },
    leads: {},
    reviews: notLoaded,
    actions: { pending_approval: notLoaded, published: notLoaded, declined: notLoaded, failed: notLoaded },
    drafts: {},
    decisions: {},
    draftedReplies: {},
    outbox: [],
    textIdsBeforeSend: {},
    focus: 'inbox',
    selection: {},
    inboxFilter: 'open',
    actionsFilter: 'pending_approval',
    inboxOrder: 'newest',
    reviewOrder: 'newest',
    unrepliedOnly: false,
    waitingOnly: false,
    conversations: noMarks(),
    threadFrom: { list: 'inbox' },
    search: {},
    searching: false,
    composed: {},
    helpOpen: false,
    helpScroll: 0,
    log: [],
    logOpen: false,
    logScroll: 0,
    columns: options.columns ?? 80,
    rows: options.rows ?? 24,
    view: options.view ?? 'inbox',
    ...(options.shop ? { shop: options.shop } : {}),
    ...(options.timeZone ? { configTimeZone: options.timeZone } : {}),
    machineTimeZone: options.machineTimeZone ?? machineTimeZone(),
    phoneZones: {},
    templates: options.templates ?? [],
    ...(options.templatesProblem ? { templatesProblem: options.templatesProblem } : {}),
    readOnly: options.readOnly ?? false,
    ...(options.readOnlyReason ? { readOnlyReason: options.readOnlyReason } : {}),
    keyMode: KEY_MODE_NOT_ASKED,
    connection: { state: 'ok' },
    seen: emptySeen(),
    threadNews: noThreadNews(),
    quitting: false,
    presence: { others: 0, composingElsewhere: [] },
  };
}

/**
 * What each field of the state holds:
 * - `server`: read from the shop with the current key (directly or through the key's hub), derived from
 *   such reads, or bound to the shop's records (a selected lead, a question about an action, the composer's
 *   recipient). None of it outlives the key: another key may be another shop's (withoutServerData).
 * - `staff`: what staff typed or chose (texts typed, filters, orders, panes, overlays).
 * - `process`: this process's own state (the screen's size, settings, the connection, the message log, the
 *   texts this terminal confirmed: each is bound to its key by the sender, and kept to say what became of it).
 * Every field is listed (the type requires it), so a new one cannot be forgotten when a key changes.
 */
export const STATE_FIELDS = {
  me: 'server',
  today: 'server',
  billing: 'server',
  texting: 'server',
  apiSpec: 'server',
  inbox: 'server',
  contacts: 'server',
  leads: 'server',
  reviews: 'server',
  actions: 'server',
  drafts: 'server',
  decisions: 'server',
  draftedReplies: 'server',
  outbox: 'process',
  textIdsBeforeSend: 'server',
  focus: 'staff',
  selection: 'server',
  inboxFilter: 'staff',
  actionsFilter: 'staff',
  inboxOrder: 'staff',
  reviewOrder: 'staff',
  unrepliedOnly: 'staff',
  waitingOnly: 'staff',
  conversations: 'process',
  threadFrom: 'server',
  search: 'staff',
  searching: 'staff',
  composer: 'server',
  composerWaiting: 'server',
  composed: 'staff',
  prompt: 'server',
  helpOpen: 'staff',
  helpScroll: 'staff',
  palette: 'staff',
  editKeys: 'staff',
  notice: 'process',
  log: 'process',
  logOpen: 'staff',
  logScroll: 'staff',
  columns: 'process',
  rows: 'process',
  configTimeZone: 'process',
  machineTimeZone: 'process',
  phoneZones: 'server',
  templates: 'process',
  templatesProblem: 'process',
  templatePicker: 'server',
  shopPicker: 'staff',
  inboundPick: 'server',
  shop: 'process',
  view: 'process',
  readOnly: 'process',
  readOnlyReason: 'process',
  fatal: 'process',
  keyMode: 'process',
  connection: 'process',
  seen: 'server',
  threadNews: 'server',
  quitting: 'process',
  presence: 'server',
  sharing: 'server',
} as const satisfies Record<keyof AppState, 'server' | 'staff' | 'process'>;

/** The fields of the state that are the shop's data, read with the current key. */
export const SERVER_DATA_FIELDS: readonly (keyof AppState)[] = (
  Object.keys(STATE_FIELDS) as (keyof AppState)[]
).filter((field) => STATE_FIELDS[field] === 'server');

/**
 * The update that forgets every field of server data (back to how a new process starts), for when
 * another key takes over. What staff typed stays: the texts (c on the same contact brings one back), the
 * filters, and the contacts search, whose answer alone goes.
 */
export function withoutServerData(state: AppState): Partial<AppState> {
  const fresh = initialState();
  const reset: Record<string, unknown> = {};
  for (const field of SERVER_DATA_FIELDS) reset[field] = fresh[field];
  return { ...(reset as Partial<AppState>), contacts: { ...fresh.contacts, query: state.contacts.query } };
}

export function createAppStore(options: AppStoreOptions = {}): AppStore {
  const store = createStore<AppState>()(() => initialState(options));
  const settlers: Settler[] = [];
  // Notices are set in many places (keys, user actions, the session, the poller's neighbours): every
  // new one is logged in the same update that shows it, whoever set it. Settlers add to the update before
  // listeners hear of it, so that each change is heard once, settled (not once as made and again settled).
  const setState = store.setState as (
    partial: AppState | Partial<AppState> | ((state: AppState) => AppState | Partial<AppState>),
    replace?: boolean,
  ) => void;
  const settled = (state: AppState, update: Partial<AppState>, replace: boolean | undefined) => {
    let next = withLoggedNotice(state, update);
    if (settlers.length === 0) return next;
    let merged = (replace ? next : { ...state, ...next }) as AppState;
    for (let round = 0; round < SETTLE_ROUNDS; round++) {
      let added = false;
      for (const settler of settlers) {
        const more = settler(merged);
        if (more === undefined) continue;
        const logged = withLoggedNotice(merged, more);
        merged = { ...merged, ...logged };
        next = { ...next, ...logged };
        added = true;
      }
      if (!added) break;
    }
    return replace ? merged : next;
  };
  store.setState = ((partial: Parameters<typeof setState>[0], replace?: boolean) =>
    setState(
      (state) => settled(state, typeof partial === 'function' ? partial(state) : partial, replace),
      replace,
    )) as AppStore['setState'];
  return Object.assign(store, {
    settleWith(settler: Settler) {
      settlers.push(settler);
      return () => {
        const at = settlers.indexOf(settler);
        if (at !== -1) settlers.splice(at, 1);
      };
    },
  });
}

/**
 * The update, with its notice added to the log when it brings a new one. A notice of the inbox's own accord
 * goes to the log only while the status line shows an error: staff must not lose "Not sent to …" to a
 * file the inbox could not keep a moment later.
 */
function withLoggedNotice(state: AppState, next: Partial<AppState>): Partial<AppState> {
  const notice = next.notice;
  if (!notice || notice === state.notice) return next;
  const log = [...(next.log ?? state.log).slice(-(LOG_LIMIT - 1)), notice];
  if (notice.background && notice.tone !== 'error' && state.notice?.tone === 'error') {
    const { notice: _covered, ...rest } = next;
    return { ...rest, log };
  }
  return { ...next, log };
}

/** Terminals at least this wide show the inbox and the thread side by side. */
export const WIDE_COLUMNS = 120;

export const isWide = (state: Pick<AppState, 'columns'>) => state.columns >= WIDE_COLUMNS;

/** How `composed` names text typed for a lead still being read. */
export const WAITING_KEY_PREFIX = 'lead:';
/** Where text typed for a lead whose contact is still being read is kept. */
export const waitingKey = (leadId: string) => `${WAITING_KEY_PREFIX}${leadId}`;
