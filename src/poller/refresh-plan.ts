/**
 * What the poller reads and how often: what is on screen often, the rest
 * rarely (enough to count what is new), all within the request budget.
 */
import type { ShopOverview } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { wholeListCounts } from '../store/counts.js';
import { inboundId } from '../store/seen.js';
import { previewsShown, unmatchedShown } from '../store/selectors.js';
import { type Cadence, READ_KINDS, readOf, type Slot, slotKey } from './reads.js';

export interface RefreshIntervals {
  /** What the focused pane (and the header) shows. */
  visibleMs: number;
  /** The header's counts (GET /me): always on screen. */
  headerMs: number;
  /** Lists off screen that feed the "new" marks and notifications: inbox (both), reviews, pending actions, today. */
  backgroundMs: number;
  /** Things that rarely change: billing, texting, contacts off screen. */
  rareMs: number;
  /** Between two paced reads (the threads read to match the latest inbound texts to their leads). */
  pacedMs: number;
}

export const DEFAULT_INTERVALS: RefreshIntervals = {
  visibleMs: 10_000,
  headerMs: 20_000,
  backgroundMs: 60_000,
  rareMs: 300_000,
  pacedMs: 5_000,
};

/** What the screen shows now (the UI says; without a screen, nothing): read more often than the rest. */
export type VisibleSlots = (state: AppState) => Slot[];

export const NOTHING_VISIBLE: VisibleSlots = () => [];

/**
 * What every start shows first, before the panes have loaded to say more: the
 * inbox. The session reads it (with the header) while the UI is still loading.
 */
export const FIRST_SCREEN: VisibleSlots = (state) => [{ kind: 'inbox', filter: state.inboxFilter }];

/** The interval of a cadence (reads.ts). */
function everyMs(cadence: Cadence, intervals: RefreshIntervals): number {
  switch (cadence) {
    case 'header':
      return intervals.headerMs;
    case 'background':
      return intervals.backgroundMs;
    case 'rare':
      return intervals.rareMs;
    case 'rarest':
      return intervals.rareMs * 12;
    case 'paced':
      return intervals.pacedMs;
  }
}

/** What is read whether or not a pane shows it, and how often: each read's `refresh`, in the table's order. */
function backgroundReads(state: AppState): Array<{ slot: Slot; every: Cadence }> {
  return READ_KINDS.flatMap((kind) => {
    const refresh = readOf(kind).refresh;
    return refresh ? refresh.slots(state).map((slot) => ({ slot, every: refresh.every })) : [];
  });
}

export interface PlanEntry {
  slot: Slot;
  everyMs: number;
  /** Read `everyMs` after the last paced read (of any slot), not after its own (the `paced` cadence). */
  paced?: boolean;
}

/** Every slot worth refreshing now, each with how often. Visible ones first. */
export function plan(
  state: AppState,
  intervals: RefreshIntervals,
  visibleSlots: VisibleSlots = NOTHING_VISIBLE,
): PlanEntry[] {
  const entries: PlanEntry[] = [];
  const seen = new Set<string>();
  const add = (entry: PlanEntry) => {
    const key = slotKey(entry.slot);
    if (seen.has(key)) return;
    seen.add(key);
    entries.push(entry);
  };
  for (const slot of visibleSlots(state)) add({ slot, everyMs: intervals.visibleMs });
  for (const { slot, every } of backgroundReads(state))
    add({ slot, everyMs: everyMs(every, intervals), ...(every === 'paced' ? { paced: true } : {}) });
  return entries;
}

/**
 * The lists read whole whose count /me now gives differently, where /me's count changed since its last
 * copy: the list changed. The header, Today, the title and the wallboard count a list read whole by its
 * rows (src/store/counts.ts), so such a list is due now, and every count moves within a read rather than
 * a minute later. A service whose /me always counts otherwise costs nothing: only a change is followed.
 */
export function listsBehindMe(state: AppState, me: ShopOverview): Slot[] {
  const before = state.me.data;
  if (!before) return [];
  const lists = wholeListCounts(state);
  const behind = (was: number, now: number, listed: number | undefined) =>
    was !== now && listed !== undefined && listed !== now;
  const slots: Slot[] = [];
  if (behind(before.inbox_pulse.needs_callback, me.inbox_pulse.needs_callback, lists.callbacks))
    slots.push({ kind: 'inbox', filter: 'callbacks' });
  if (behind(before.inbox_pulse.open_leads, me.inbox_pulse.open_leads, lists.openLeads))
    slots.push({ kind: 'inbox', filter: 'open' });
  if (behind(before.pending_actions, me.pending_actions, lists.pending))
    slots.push({ kind: 'actions', status: 'pending_approval' });
  if (behind(before.reviews_pulse.unreplied, me.reviews_pulse.unreplied, lists.unreplied))
    slots.push({ kind: 'reviews' });
  return slots;
}

/**
 * The contacts list, when an inbox read listed a latest inbound text that no thread read holds: whose
 * `last_contact_at` is at or after the text says whose thread to read first (leadsToMatchInbound), so the
 * text is matched with a read or two rather than after the open leads' threads newest first, one every
 * `pacedMs`. Not on the wallboard (it matches nothing), nor while the Contacts pane shows a search (its
 * copy is the search's).
 */
export function contactsForNewTexts(before: AppState, after: AppState): Slot[] {
  if (after.view === 'wallboard' || after.contacts.query !== '') return [];
  const listed = new Set(previewsShown(before).map(inboundId));
  const news = unmatchedShown(after).some((preview) => !listed.has(inboundId(preview)));
  return news ? [{ kind: 'contacts', query: '' }] : [];
}
