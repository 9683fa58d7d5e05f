/**
 * The store's side of a read (the reads themselves are listed in
 * src/poller/reads.ts): which fields a read may fill, and how one step of a
 * read (started, failed, answered) changes the `Loaded` copy it fills.
 */
import type { AppState, Loaded, RequestFailure, STATE_FIELDS } from './app-store.js';
import { threadLeadId } from './selectors.js';

/**
 * The fields of the state classified `server` in STATE_FIELDS. A read may fill only one of these, so that
 * what it read is forgotten when another key takes over (withoutServerData): a read whose field is not
 * classified `server` does not typecheck.
 */
export type ServerField = {
  [F in keyof typeof STATE_FIELDS]: (typeof STATE_FIELDS)[F] extends 'server' ? F : never;
}[keyof typeof STATE_FIELDS];

/** One step of a read, as it lands in the store. */
export type ReadChange<T> =
  | { kind: 'started' }
  | { kind: 'failed'; failure: RequestFailure }
  | { kind: 'answered'; data: T; at: number };

/** The copy after the step: a failure keeps the last good data beside it; an answer replaces both. */
export function changed<T>(previous: Loaded<T>, change: ReadChange<T>): Loaded<T> {
  switch (change.kind) {
    case 'started':
      return { ...previous, loading: true };
    case 'failed':
      return { ...previous, loading: false, error: change.failure };
    case 'answered':
      return { data: change.data, updatedAt: change.at, loading: false };
  }
}

/** Threads kept in memory besides the open leads': a monitoring screen runs for days, staff open many leads. */
export const MAX_CACHED_LEADS = 50;

/**
 * The threads read: every open lead's (the picture of the conversations, at most a page of them) and the one
 * on screen always stay; of the others, the oldest go past MAX_CACHED_LEADS.
 */
export function boundLeads(leads: AppState['leads'], state: AppState): AppState['leads'] {
  const ids = Object.keys(leads);
  if (ids.length <= MAX_CACHED_LEADS) return leads;
  const kept = new Set((state.inbox.open.data?.open_leads ?? []).map((lead) => lead.id));
  const shown = threadLeadId(state);
  if (shown !== undefined) kept.add(shown);
  const others = ids.filter((id) => !kept.has(id));
  if (others.length <= MAX_CACHED_LEADS) return leads;
  const keep = { ...leads };
  const byAge = others.sort((a, b) => (leads[a]?.updatedAt ?? 0) - (leads[b]?.updatedAt ?? 0));
  for (const id of byAge.slice(0, others.length - MAX_CACHED_LEADS)) delete keep[id];
  return keep;
}
