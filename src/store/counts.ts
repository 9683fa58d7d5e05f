/**
 * The counts staff read in the header, each list's title, Today, the window
 * title and the wallboard, from one place so that they agree at every moment.
 * A list read whole (fewer rows than the page size asked for) is the count: it
 * is what the screen shows. A list cut at the page size is only part of what
 * /me counts: its title says "100 of 120" and where the rest is.
 */
import type { AppState, Loaded } from './app-store.js';

/** Rows asked for in every list read: the reference's maximum. */
export const LIST_LIMIT = 100;

/** "1 open lead", "2 open leads": the noun's plural is the noun and "s" unless given. */
export const plural = (count: number, singular: string, pluralForm = `${singular}s`) =>
  `${count} ${count === 1 ? singular : pluralForm}`;

/** A list read whole: the service had no more than it gave. */
const whole = (rows: readonly unknown[] | undefined): boolean =>
  rows !== undefined && rows.length < LIST_LIMIT;

/** The count of what a list holds: the list itself when whole, else /me's (never fewer than the rows shown). */
function agreed(rows: readonly unknown[] | undefined, fromMe: number | undefined): number | undefined {
  if (rows && whole(rows)) return rows.length;
  if (fromMe === undefined) return rows?.length;
  return Math.max(fromMe, rows?.length ?? 0);
}

export interface HeaderCounts {
  openLeads?: number;
  callbacks?: number;
  unreplied?: number;
  pending?: number;
}

const items = <T>(loaded: Loaded<T>, pick: (data: T) => readonly unknown[]) =>
  loaded.data === undefined ? undefined : pick(loaded.data);

/**
 * The number of missed calls with no reply, wherever it is shown: the callbacks list when it was read
 * whole (its rows are the callbacks), else /me's needs_callback (never fewer than the rows listed).
 * Undefined until one of them is read.
 */
export function callbackCount(state: Pick<AppState, 'inbox' | 'me'>): number | undefined {
  return agreed(
    items(state.inbox.callbacks, (data) => data.open_leads),
    state.me.data?.inbox_pulse.needs_callback,
  );
}

/** Open leads, by the same rule: the open list when read whole, else /me's open_leads. */
export function openLeadCount(state: Pick<AppState, 'inbox' | 'me'>): number | undefined {
  return agreed(
    items(state.inbox.open, (data) => data.open_leads),
    state.me.data?.inbox_pulse.open_leads,
  );
}

/** What the lists read whole count by themselves; a list not read, or cut at the page size, counts nothing. */
export function wholeListCounts(state: Pick<AppState, 'inbox' | 'reviews' | 'actions'>): HeaderCounts {
  const counts: HeaderCounts = {};
  const open = state.inbox.open.data?.open_leads;
  const callbacks = state.inbox.callbacks.data?.open_leads;
  const reviews = state.reviews.data?.items;
  const pending = state.actions.pending_approval.data?.items;
  if (open && whole(open)) counts.openLeads = open.length;
  if (callbacks && whole(callbacks)) counts.callbacks = callbacks.length;
  if (reviews && whole(reviews))
    counts.unreplied = reviews.filter((review) => review.replied_at == null).length;
  if (pending && whole(pending)) counts.pending = pending.length;
  return counts;
}

export function headerCounts(state: AppState): HeaderCounts {
  const me = state.me.data;
  const reviews = state.reviews.data?.items;
  const unrepliedRows =
    reviews && whole(reviews) ? reviews.filter((review) => review.replied_at == null) : undefined;
  const counts: HeaderCounts = {};
  const set = (key: keyof HeaderCounts, value: number | undefined) => {
    if (value !== undefined) counts[key] = value;
  };
  set('openLeads', openLeadCount(state));
  set('callbacks', callbackCount(state));
  set('unreplied', unrepliedRows ? unrepliedRows.length : me?.reviews_pulse.unreplied);
  set(
    'pending',
    agreed(
      items(state.actions.pending_approval, (data) => data.items),
      me?.pending_actions,
    ),
  );
  return counts;
}

/**
 * A list's count for its title: "(12)"; "(…)" before it is read; "(100 of 120 · the rest on the
 * dashboard)" when the service holds more than the page; "(3 of 12 shown)" with a filter on.
 */
export function listCount(options: {
  updatedAt: number | undefined;
  shown: number;
  loaded: number;
  /** How many there are in all, when something (/me) says. */
  total?: number | undefined;
}): string {
  const { updatedAt, shown, loaded, total } = options;
  if (updatedAt === undefined) return '(…)';
  const more = total !== undefined && total > loaded;
  const part = more ? `${loaded} of ${total}` : `${loaded}`;
  const filtered = shown !== loaded ? `${shown} shown of ${part}` : part;
  return more ? `(${filtered} · the rest on the dashboard)` : `(${filtered})`;
}

/**
 * The four counts that mean "a customer is waiting", as the wallboard and the window title show them.
 * A count as shown: "-" until read, "100+" when a full page was counted.
 */
export interface WaitingCounts {
  missed: string;
  sameDay: string;
  reviews: string;
  approvals: string;
}

const count = (value: number | undefined): string => (value === undefined ? '-' : String(value));

export function waitingCounts(state: AppState): WaitingCounts {
  const header = headerCounts(state);
  const open = state.inbox.open.data?.open_leads;
  const sameDay = open?.filter((lead) => String(lead.urgency) === 'same_day').length;
  const fullPage = open !== undefined && open.length >= LIST_LIMIT;
  return {
    // The header's counts: the same definitions, so the title, the wallboard and the inbox agree.
    missed: count(header.callbacks),
    sameDay: sameDay === undefined ? '-' : `${sameDay}${fullPage ? '+' : ''}`,
    reviews: count(header.unreplied),
    approvals: count(header.pending),
  };
}
