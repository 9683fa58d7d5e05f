/**
 * The counts staff read in the header and in each list's title, from one
 * place so that they agree. A list read whole (fewer rows than the page size
 * asked for) is the count: it is what the screen shows. A list cut at the page
 * size is only part of what /me counts: its title says "100 of 120" and where
 * the rest is.
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

export function headerCounts(state: AppState): HeaderCounts {
  const me = state.me.data;
  const reviews = state.reviews.data?.items;
  const unrepliedRows =
    reviews && whole(reviews) ? reviews.filter((review) => review.replied_at == null) : undefined;
  const counts: HeaderCounts = {};
  const set = (key: keyof HeaderCounts, value: number | undefined) => {
    if (value !== undefined) counts[key] = value;
  };
  set(
    'openLeads',
    agreed(
      items(state.inbox.open, (data) => data.open_leads),
      me?.inbox_pulse.open_leads,
    ),
  );
  set(
    'callbacks',
    agreed(
      items(state.inbox.callbacks, (data) => data.open_leads),
      me?.inbox_pulse.needs_callback,
    ),
  );
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
