/**
 * How a read's result lands in the store: the data with its time, or the
 * failure next to the last good copy. Also where "new since last seen" is
 * observed, since it is a property of a fresh copy of a list.
 */
import { ApiError } from '../api/errors.js';
import type {
  ActionList,
  Billing,
  ContactList,
  Inbox,
  LeadDetail,
  ReviewList,
  ShopOverview,
  TextingSetup,
  Today,
} from '../contract/resources.js';
import type { AppState, AppStore, Loaded, RequestFailure } from '../store/app-store.js';
import { inboundId, observe } from '../store/seen.js';
import { threadLeadId } from '../store/selectors.js';
import type { Slot } from './refresh-plan.js';

export type SlotData =
  | Record<string, unknown>
  | ShopOverview
  | Today
  | Billing
  | TextingSetup
  | Inbox
  | ContactList
  | LeadDetail
  | ReviewList
  | ActionList;

/** Threads kept in memory: a monitoring screen runs for days, staff open many leads. */
const MAX_CACHED_LEADS = 50;

export function failureOf(error: unknown, at: number): RequestFailure {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      status: error.status,
      message: error.message,
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      at,
    };
  }
  return { code: 'internal', status: 0, message: error instanceof Error ? error.message : String(error), at };
}

const loaded = <T>(data: T, at: number): Loaded<T> => ({ data, updatedAt: at, loading: false });

const failed = <T>(previous: Loaded<T>, failure: RequestFailure): Loaded<T> => ({
  ...previous,
  loading: false,
  error: failure,
});

const started = <T>(previous: Loaded<T>): Loaded<T> => ({ ...previous, loading: true });

type Updater = <T>(previous: Loaded<T>) => Loaded<T>;

/** Applies `update` to the part of the state a slot fills. */
function updateSlot(state: AppState, slot: Slot, update: Updater): Partial<AppState> {
  switch (slot.kind) {
    case 'me':
      return { me: update(state.me) };
    case 'today':
      return { today: update(state.today) };
    case 'billing':
      return { billing: update(state.billing) };
    case 'texting':
      return { texting: update(state.texting) };
    case 'apiSpec':
      return { apiSpec: update(state.apiSpec) };
    case 'reviews':
      return { reviews: update(state.reviews) };
    case 'inbox':
      return { inbox: { ...state.inbox, [slot.filter]: update(state.inbox[slot.filter]) } };
    case 'actions':
      return { actions: { ...state.actions, [slot.status]: update(state.actions[slot.status]) } };
    case 'contacts':
      // A search answered after the query changed again is dropped.
      if (slot.query !== state.contacts.query) return {};
      return { contacts: { ...update(state.contacts), query: state.contacts.query } };
    case 'lead':
      return {
        leads: boundLeads(
          { ...state.leads, [slot.id]: update(state.leads[slot.id] ?? { loading: false }) },
          state,
        ),
      };
  }
}

function boundLeads(leads: AppState['leads'], state: AppState): AppState['leads'] {
  const ids = Object.keys(leads);
  if (ids.length <= MAX_CACHED_LEADS) return leads;
  const keep = { ...leads };
  const shown = threadLeadId(state);
  const byAge = ids
    .filter((id) => id !== shown)
    .sort((a, b) => (leads[a]?.updatedAt ?? 0) - (leads[b]?.updatedAt ?? 0));
  for (const id of byAge.slice(0, ids.length - MAX_CACHED_LEADS)) delete keep[id];
  return keep;
}

export function markLoading(store: AppStore, slot: Slot): void {
  store.setState((state) => updateSlot(state, slot, started));
}

export function storeFailure(store: AppStore, slot: Slot, failure: RequestFailure): void {
  store.setState((state) => updateSlot(state, slot, (previous) => failed(previous, failure)));
}

export function storeData(store: AppStore, slot: Slot, data: SlotData, at: number): void {
  store.setState((state) => {
    const patch = updateSlot(state, slot, <T>() => loaded(data as T, at));
    if (slot.kind === 'contacts' && patch.contacts)
      patch.contacts = { ...patch.contacts, loadedQuery: slot.query };
    let seen = state.seen;
    if (slot.kind === 'inbox' && slot.filter === 'open') {
      const inbox = data as Inbox;
      seen = observe(
        seen,
        'leads',
        inbox.open_leads.map((lead) => lead.id),
        at,
      );
      seen = observe(seen, 'inbound', inbox.latest_inbound.map(inboundId), at);
    } else if (slot.kind === 'reviews') {
      seen = observe(
        seen,
        'reviews',
        (data as ReviewList).items.map((review) => review.id),
        at,
      );
    } else if (slot.kind === 'actions' && slot.status === 'pending_approval') {
      seen = observe(
        seen,
        'actions',
        (data as ActionList).items.map((action) => action.id),
        at,
      );
    }
    return seen === state.seen ? patch : { ...patch, seen };
  });
}
