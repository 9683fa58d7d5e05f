/**
 * What the poller reads and how often: what is on screen often, the rest
 * rarely (enough to count what is new), all within the request budget.
 */
import type { ShopOverview } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { contactsFollowTexts, keepsPicture } from '../store/conversation-picture.js';
import { wholeListCounts } from '../store/counts.js';
import { previewsShown, readSinceListed, unmatchedShown } from '../store/inbound-match.js';
import { leadIndex } from '../store/lead-index.js';
import { inboundId } from '../store/seen.js';
import { type Cadence, READ_KINDS, refreshesOf, type Slot, slotKey } from './reads.js';

export interface RefreshIntervals {
  /** What the focused pane (and the header) shows. */
  visibleMs: number;
  /** The header's counts (GET /me): always on screen. */
  headerMs: number;
  /** Lists off screen that feed the "new" marks and notifications: inbox (both), reviews, pending actions, today. */
  backgroundMs: number;
  /** Things that rarely change: billing, texting, contacts off screen. */
  rareMs: number;
  /** Between two burst reads (the threads read to catch up with the shop), besides what the budget allows. */
  burstMs: number;
  /** Between two paced reads (a thread of the picture read again now and then). */
  pacedMs: number;
}

export const DEFAULT_INTERVALS: RefreshIntervals = {
  visibleMs: 10_000,
  headerMs: 20_000,
  backgroundMs: 60_000,
  rareMs: 300_000,
  burstMs: 0,
  pacedMs: 30_000,
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
    case 'burst':
      return intervals.burstMs;
    case 'paced':
      return intervals.pacedMs;
  }
}

/** What is read whether or not a pane shows it, and how often: each read's `refresh`, in the table's order. */
function backgroundReads(state: AppState): Array<{ slot: Slot; every: Cadence }> {
  return READ_KINDS.flatMap((kind) =>
    refreshesOf(kind).flatMap(({ slots, every }) => slots(state).map((slot) => ({ slot, every }))),
  );
}

export interface PlanEntry {
  slot: Slot;
  everyMs: number;
  /**
   * A read of the picture of the conversations (`burst` or `paced`): read `everyMs` after the last read of
   * its cadence (of any slot), not after its own, and only by the terminal that reads the shop for its box.
   */
  picture?: 'burst' | 'paced';
  /**
   * This slot is also the picture's next read (the thread on screen is the next to read for a new text): it
   * is read at the sooner of its own time and the picture's, so that the picture does not wait on the screen.
   */
  alsoPicture?: { cadence: 'burst' | 'paced'; everyMs: number };
}

/** Every slot worth refreshing now, each with how often. Visible ones first. */
export function plan(
  state: AppState,
  intervals: RefreshIntervals,
  visibleSlots: VisibleSlots = NOTHING_VISIBLE,
): PlanEntry[] {
  const entries: PlanEntry[] = [];
  const seen = new Map<string, PlanEntry>();
  const add = (entry: PlanEntry) => {
    const key = slotKey(entry.slot);
    const planned = seen.get(key);
    if (planned === undefined) {
      seen.set(key, entry);
      entries.push(entry);
    } else if (entry.picture && !planned.picture && !planned.alsoPicture)
      planned.alsoPicture = { cadence: entry.picture, everyMs: entry.everyMs };
  };
  // The open inbox on screen twice as often where the picture is kept: its latest inbound texts are where a
  // customer's text shows first. The wallboard's budget goes to its counts alike.
  const firstNews = (slot: Slot) => keepsPicture(state) && slot.kind === 'inbox' && slot.filter === 'open';
  for (const slot of visibleSlots(state))
    add({ slot, everyMs: firstNews(slot) ? intervals.visibleMs / 2 : intervals.visibleMs });
  for (const { slot, every } of backgroundReads(state))
    add({
      slot,
      everyMs: everyMs(every, intervals),
      ...(every === 'burst' || every === 'paced' ? { picture: every } : {}),
    });
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
 * The contacts list, when an inbox read listed a latest inbound text that no thread read holds and more
 * than two threads are left that may hold it: whose `last_contact_at` is at or after the text says whose
 * thread to read first (src/store/conversation-picture.ts), so the text is matched with a read or two
 * rather than after reading every open lead's. Not on the wallboard (it matches nothing), nor while the
 * Contacts pane shows a search (its copy is the search's), nor while the list does not follow the texts.
 */
export function contactsForNewTexts(before: AppState, after: AppState): Slot[] {
  // The first copy brings no news: every thread is read for the picture, and the contacts list with the rest.
  if (!keepsPicture(after) || after.contacts.query !== '' || !before.inbox.open.data) return [];
  const listed = new Set(previewsShown(before).map(inboundId));
  const news = unmatchedShown(after).filter((preview) => !listed.has(inboundId(preview)));
  if (news.length === 0) return [];
  const mayHold = leadIndex(after).open.filter((lead) =>
    news.some((preview) => !readSinceListed(after, lead.id, preview)),
  );
  return mayHold.length > 2 && contactsFollowTexts(after) ? [{ kind: 'contacts', query: '' }] : [];
}
