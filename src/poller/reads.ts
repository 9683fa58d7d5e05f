/**
 * Every kind of read, one entry each: the slot that names it, the endpoint
 * and the call that reads it, the contract's schema of its answer, where the
 * answer lands in the store, what of it can be "new", when it is read when no
 * pane shows it, and whether a hub hands it to every terminal. The poller's
 * plan, the store writes, the hub's schemas and the Slot type are all made
 * from this table: adding a read is one entry here (ARCHITECTURE.md, "A new
 * read"). Which panes show a read is the panes' own `reads(state)`.
 */
import * as z from 'zod';
import type { CallOptions, ShopClient } from '../api/client.js';
import { type Endpoint, endpoints, SEARCH_QUERY_MAX } from '../contract/endpoints.js';
import { ActionStatusValues, InboxFilterValues } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { keepsPicture, threadsToRead, threadToRefresh } from '../store/conversation-picture.js';
import { LIST_LIMIT } from '../store/counts.js';
import { newsOfContacts, newsOfInbox, newsOfToday } from '../store/news-of-lists.js';
import { boundLeads, changed, type ReadChange, type ServerField } from '../store/read-slices.js';
import { inboundId, observe, type SeenState } from '../store/seen.js';
import type { ThreadNews } from '../store/thread-news.js';

/** A slot's schema: its kind, and the parameters its query is made from (each a string). */
type SlotShape = z.ZodObject<{ kind: z.ZodLiteral<string> } & Record<string, z.ZodType<string>>>;

export interface ReadKind<Schema extends SlotShape, Data> {
  /** The slot as the poller keys it and a hub carries it; its type is the `Slot` of this kind. */
  slot: Schema;
  /** What is read (contract/endpoints.ts). */
  endpoint: Endpoint;
  /** The contract's schema of the answer: what a hub relays is parsed with it, as the client parses the API's. */
  data: z.ZodType<Data>;
  /** The call, its query made from the slot; `pageSize` is the poller's page size for lists. */
  fetch(client: ShopClient, slot: z.output<Schema>, call: CallOptions, pageSize: number): Promise<Data>;
  /** The field it fills: the shop's data, forgotten when another key takes over. */
  field: ServerField;
  /** The update one step of the read makes to `field` (nothing else); {} when the answer no longer belongs there. */
  write(state: AppState, slot: z.output<Schema>, change: ReadChange<Data>): Partial<AppState>;
  /** What of a fresh copy can be "new since staff last looked" (src/store/seen.ts). */
  observe?(seen: SeenState, slot: z.output<Schema>, data: Data, at: number): SeenState;
  /** What a fresh copy says of the threads without reading them (src/store/news-of-lists.ts), before it lands. */
  news?(state: AppState, slot: z.output<Schema>, data: Data, at: number): ThreadNews;
  /** Read even when no pane shows it: these slots, this often (or several such). Absent: only while a pane shows it. */
  refresh?: Refresh<Schema> | ReadonlyArray<Refresh<Schema>>;
  /** Whether a hub sends a fresh copy to every terminal (default), or only to the terminal that asked. */
  shared?(slot: z.output<Schema>): boolean;
}

export interface Refresh<Schema extends SlotShape> {
  slots(state: AppState): z.output<Schema>[];
  every: Cadence;
}

/**
 * How often a read is made when no pane shows it (src/poller/refresh-plan.ts gives each its interval):
 * `header` the counts always on screen, `background` the lists whose news the title and the "new" marks
 * tell, `rare` what rarely changes, `rarest` what changes with a new version of the service. Two cadences
 * are read for the picture of every open conversation (src/store/conversation-picture.ts), by one terminal
 * of a box (its hub hands each thread to the others), and spaced from the previous read of the same
 * cadence rather than from the slot's own: `burst`, the reads catching up with the shop (as fast as the
 * budget's burst allows), and `paced`, the threads read again now and then, one at a time.
 */
export type Cadence = 'header' | 'background' | 'rare' | 'rarest' | 'burst' | 'paced';

/** The cadences of the picture of the conversations: one terminal of a box reads them for all. */
export const PICTURE_CADENCES: ReadonlySet<Cadence> = new Set(['burst', 'paced']);

/**
 * An entry: its slot's schema first (which types the rest), then the rest, checked, its data's type
 * inferred from the call and the contract.
 */
const read =
  <Schema extends SlotShape>(slot: Schema) =>
  <Data>(entry: Omit<ReadKind<Schema, Data>, 'slot'>): ReadKind<Schema, Data> => ({ slot, ...entry });

const TABLE = {
  me: read(z.object({ kind: z.literal('me') }))({
    endpoint: endpoints.getMe,
    data: endpoints.getMe.data,
    fetch: (client, _slot, call) => client.getMe(call),
    field: 'me',
    write: (state, _slot, change) => ({ me: changed(state.me, change) }),
    refresh: { slots: () => [{ kind: 'me' }], every: 'header' },
  }),
  inbox: read(z.object({ kind: z.literal('inbox'), filter: z.enum(InboxFilterValues) }))({
    endpoint: endpoints.getInbox,
    data: endpoints.getInbox.data,
    fetch: (client, slot, call, limit) => client.getInbox({ filter: slot.filter, limit }, call),
    field: 'inbox',
    write: (state, slot, change) => ({
      inbox: { ...state.inbox, [slot.filter]: changed(state.inbox[slot.filter], change) },
    }),
    observe: (seen, slot, inbox, at) =>
      slot.filter === 'open'
        ? observe(
            observe(
              seen,
              'leads',
              inbox.open_leads.map((lead) => lead.id),
              at,
            ),
            'inbound',
            inbox.latest_inbound.map(inboundId),
            at,
          )
        : seen,
    news: (state, slot, inbox, at) => newsOfInbox(state, slot.filter, inbox, at),
    // New missed calls are news (the title, notifications): read as often as the other lists behind them.
    refresh: {
      slots: () => [
        { kind: 'inbox', filter: 'open' },
        { kind: 'inbox', filter: 'callbacks' },
      ],
      every: 'background',
    },
  }),
  actions: read(z.object({ kind: z.literal('actions'), status: z.enum(ActionStatusValues) }))({
    endpoint: endpoints.getActions,
    data: endpoints.getActions.data,
    fetch: (client, slot, call, limit) => client.getActions({ status: slot.status, limit }, call),
    field: 'actions',
    write: (state, slot, change) => ({
      actions: { ...state.actions, [slot.status]: changed(state.actions[slot.status], change) },
    }),
    observe: (seen, slot, actions, at) =>
      slot.status === 'pending_approval'
        ? observe(
            seen,
            'actions',
            actions.items.map((action) => action.id),
            at,
          )
        : seen,
    refresh: {
      slots: () => [{ kind: 'actions', status: 'pending_approval' }],
      every: 'background',
    },
  }),
  reviews: read(z.object({ kind: z.literal('reviews') }))({
    endpoint: endpoints.getReviews,
    data: endpoints.getReviews.data,
    fetch: (client, _slot, call, limit) => client.getReviews({ limit }, call),
    field: 'reviews',
    write: (state, _slot, change) => ({ reviews: changed(state.reviews, change) }),
    observe: (seen, _slot, reviews, at) =>
      observe(
        seen,
        'reviews',
        reviews.items.map((review) => review.id),
        at,
      ),
    refresh: { slots: () => [{ kind: 'reviews' }], every: 'background' },
  }),
  today: read(z.object({ kind: z.literal('today') }))({
    endpoint: endpoints.getToday,
    data: endpoints.getToday.data,
    fetch: (client, _slot, call, limit) => client.getToday({ limit }, call),
    field: 'today',
    write: (state, _slot, change) => ({ today: changed(state.today, change) }),
    news: (state, _slot, today, at) => newsOfToday(state, today, at),
    refresh: { slots: () => [{ kind: 'today' }], every: 'background' },
  }),
  billing: read(z.object({ kind: z.literal('billing') }))({
    endpoint: endpoints.getBilling,
    data: endpoints.getBilling.data,
    fetch: (client, _slot, call) => client.getBilling(call),
    field: 'billing',
    write: (state, _slot, change) => ({ billing: changed(state.billing, change) }),
    refresh: { slots: () => [{ kind: 'billing' }], every: 'rare' },
  }),
  texting: read(z.object({ kind: z.literal('texting') }))({
    endpoint: endpoints.getTexting,
    data: endpoints.getTexting.data,
    fetch: (client, _slot, call) => client.getTexting(call),
    field: 'texting',
    write: (state, _slot, change) => ({ texting: changed(state.texting, change) }),
    refresh: { slots: () => [{ kind: 'texting' }], every: 'rare' },
  }),
  /** GET /openapi.json: which API this is, shown under Today and account. Not enveloped, so no contract schema. */
  apiSpec: read(z.object({ kind: z.literal('apiSpec') }))({
    endpoint: endpoints.getOpenApi,
    data: z.record(z.string(), z.unknown()),
    fetch: (client, _slot, call) => client.getOpenApi(call),
    field: 'apiSpec',
    write: (state, _slot, change) => ({ apiSpec: changed(state.apiSpec, change) }),
    refresh: { slots: () => [{ kind: 'apiSpec' }], every: 'rarest' },
  }),
  contacts: read(z.object({ kind: z.literal('contacts'), query: z.string().max(SEARCH_QUERY_MAX) }))({
    endpoint: endpoints.getContacts,
    data: endpoints.getContacts.data,
    fetch: (client, slot, call, limit) =>
      client.getContacts({ ...(slot.query ? { q: slot.query } : {}), limit }, call),
    field: 'contacts',
    write: (state, slot, change) => {
      // A search answered after the query changed again is dropped.
      if (slot.query !== state.contacts.query) return {};
      const contacts = { ...changed(state.contacts, change), query: state.contacts.query };
      return { contacts: change.kind === 'answered' ? { ...contacts, loadedQuery: slot.query } : contacts };
    },
    news: (state, slot, contacts, at) =>
      slot.query === '' && state.contacts.query === ''
        ? newsOfContacts(state, contacts, at)
        : state.threadNews,
    refresh: {
      slots: (state) => [{ kind: 'contacts', query: state.contacts.query }],
      every: 'rare',
    },
    // A search is one terminal's own.
    shared: (slot) => slot.query === '',
  }),
  lead: read(z.object({ kind: z.literal('lead'), id: z.string().min(1).max(200) }))({
    endpoint: endpoints.getLead,
    data: endpoints.getLead.data,
    // A thread is read whole (as much as a page holds), whatever the poller's page size.
    fetch: (client, slot, call) => client.getLead(slot.id, { limit: LIST_LIMIT }, call),
    field: 'leads',
    write: (state, slot, change) => ({
      leads: boundLeads(
        { ...state.leads, [slot.id]: changed(state.leads[slot.id] ?? { loading: false }, change) },
        state,
      ),
    }),
    // The picture of every open conversation: the threads to read now (never read, said to have changed, or
    // maybe holding a new text), as a burst, one at a time; and the one read longest ago, now and then.
    refresh: [
      {
        slots: (state) =>
          keepsPicture(state)
            ? threadsToRead(state)
                .slice(0, 1)
                .map((id) => ({ kind: 'lead', id }))
            : [],
        every: 'burst',
      },
      {
        slots: (state) => {
          const id = keepsPicture(state) ? threadToRefresh(state) : undefined;
          return id === undefined ? [] : [{ kind: 'lead', id }];
        },
        every: 'paced',
      },
    ],
  }),
};

type Table = typeof TABLE;
export type ReadKindName = keyof Table;
type SchemaOf<K extends ReadKindName> = Table[K]['slot'];
type DataOf<K extends ReadKindName> = Table[K] extends ReadKind<SlotShape, infer Data> ? Data : never;

/** The reads, by kind (the table above, typed so that a kind's entry is found from its slot). */
export const READS: { readonly [K in ReadKindName]: ReadKind<SchemaOf<K>, DataOf<K>> } = TABLE;

export const READ_KINDS = Object.keys(READS) as ReadKindName[];

/** One thing the poller reads: a kind and the parameters its query is made from. */
export type Slot = { [K in ReadKindName]: z.output<SchemaOf<K>> }[ReadKindName];

/** What a slot reads: one of the contract's answers. */
export type SlotData = DataOf<ReadKindName>;

/** What of a kind is read when no pane shows it (its `refresh`, as a list). */
export function refreshesOf(
  kind: ReadKindName,
): ReadonlyArray<{ slots(state: AppState): Slot[]; every: Cadence }> {
  const refresh = readOf(kind).refresh as
    | { slots(state: AppState): Slot[]; every: Cadence }
    | ReadonlyArray<{ slots(state: AppState): Slot[]; every: Cadence }>
    | undefined;
  if (refresh === undefined) return [];
  return Array.isArray(refresh) ? refresh : [refresh as { slots(state: AppState): Slot[]; every: Cadence }];
}

/** The entry of a kind. */
export function readOf<K extends ReadKindName>(kind: K): ReadKind<SchemaOf<K>, DataOf<K>> {
  return READS[kind];
}

/**
 * The slot as one string, "kind:param" (parameters in the order its schema names them). A read under
 * way or kept is found by it. Unambiguous while a slot has at most one parameter (a kind has no ":");
 * test/poller/reads.test.ts fails for a read whose keys could collide.
 */
export function slotKey(slot: Slot): string {
  let key: string = slot.kind;
  for (const name of parameterNames(slot.kind)) key += `:${String((slot as Record<string, unknown>)[name])}`;
  return key;
}

/** Each kind's parameters in its schema's order, found once: a slot's key is made at every change of the store. */
const parameters = new Map<Slot['kind'], readonly string[]>();
function parameterNames(kind: Slot['kind']): readonly string[] {
  let names = parameters.get(kind);
  if (names === undefined) {
    names = Object.keys(readOf(kind).slot.shape).filter((name) => name !== 'kind');
    parameters.set(kind, names);
  }
  return names;
}

/**
 * When a copy was read from the shop (its request sent), where the copy came from the box's hub: a hub answers
 * with a copy kept a few seconds, or with a read under way when the terminal asked, and such a copy must not
 * pass for one read when it reached the terminal (a thread read before a text came would seem to hold every
 * text listed since). Kept beside the data, since a client's calls give the data only.
 */
const readTimes = new WeakMap<object, number>();

export function noteReadTime(data: SlotData, at: number): void {
  readTimes.set(data, at);
}

export function readTimeOf(data: SlotData): number | undefined {
  return readTimes.get(data);
}

/** One slot read through a client: the poller reads with it, and so does a hub for another terminal. */
export function readSlot(
  client: ShopClient,
  slot: Slot,
  call: CallOptions,
  pageSize = LIST_LIMIT,
): Promise<SlotData> {
  return readOf(slot.kind).fetch(client, slot, call, pageSize);
}
