/**
 * What the poller reads and how often: what is on screen often, the rest
 * rarely (enough to count what is new), all within the request budget.
 */
import type { AppState, PaneId } from '../store/app-store.js';
import { isWide } from '../store/app-store.js';
import { threadLeadId } from '../store/selectors.js';

export type Slot =
  | { kind: 'me' }
  | { kind: 'today' }
  | { kind: 'billing' }
  | { kind: 'texting' }
  /** GET /openapi.json: which API this is, shown under Today and account. */
  | { kind: 'apiSpec' }
  | { kind: 'inbox'; filter: 'open' | 'callbacks' }
  | { kind: 'contacts'; query: string }
  | { kind: 'lead'; id: string }
  | { kind: 'reviews' }
  | { kind: 'actions'; status: AppState['actionsFilter'] };

export interface RefreshIntervals {
  /** What the focused pane (and the header) shows. */
  visibleMs: number;
  /** The header's counts (GET /me): always on screen. */
  headerMs: number;
  /** Lists off screen that feed the "new" marks: inbox, reviews, pending actions, today. */
  backgroundMs: number;
  /** Things that rarely change: billing, texting, contacts off screen. */
  rareMs: number;
}

export const DEFAULT_INTERVALS: RefreshIntervals = {
  visibleMs: 10_000,
  headerMs: 20_000,
  backgroundMs: 60_000,
  rareMs: 300_000,
};

export const slotKey = (slot: Slot): string => {
  switch (slot.kind) {
    case 'inbox':
      return `inbox:${slot.filter}`;
    case 'contacts':
      return `contacts:${slot.query}`;
    case 'lead':
      return `lead:${slot.id}`;
    case 'actions':
      return `actions:${slot.status}`;
    default:
      return slot.kind;
  }
};

/** The lead whose thread is on screen: the open one, or in the wide layout the selected one. */
export function visibleLeadId(state: AppState): string | undefined {
  if (state.focus === 'thread' || (state.focus === 'inbox' && isWide(state))) return threadLeadId(state);
  return undefined;
}

/** The slots the focused pane shows. */
export function visibleSlots(state: AppState, pane: PaneId = state.focus): Slot[] {
  const slots: Slot[] = [];
  switch (pane) {
    case 'inbox':
      slots.push({ kind: 'inbox', filter: state.inboxFilter });
      break;
    case 'thread':
      break;
    case 'reviews':
      slots.push({ kind: 'reviews' });
      break;
    case 'actions':
      slots.push({ kind: 'actions', status: state.actionsFilter });
      break;
    case 'contacts':
      slots.push({ kind: 'contacts', query: state.contacts.query });
      break;
    case 'today':
      slots.push({ kind: 'today' }, { kind: 'billing' }, { kind: 'texting' });
      break;
  }
  const leadId = pane === state.focus ? visibleLeadId(state) : undefined;
  if (leadId) slots.push({ kind: 'lead', id: leadId });
  return slots;
}

/** Every slot worth refreshing now, each with how often. Visible ones first. */
export function plan(state: AppState, intervals: RefreshIntervals): Array<{ slot: Slot; everyMs: number }> {
  const entries: Array<{ slot: Slot; everyMs: number }> = [];
  const seen = new Set<string>();
  const add = (slot: Slot, everyMs: number) => {
    const key = slotKey(slot);
    if (seen.has(key)) return;
    seen.add(key);
    entries.push({ slot, everyMs });
  };
  for (const slot of visibleSlots(state)) add(slot, intervals.visibleMs);
  add({ kind: 'me' }, intervals.headerMs);
  add({ kind: 'inbox', filter: 'open' }, intervals.backgroundMs);
  add({ kind: 'actions', status: 'pending_approval' }, intervals.backgroundMs);
  add({ kind: 'reviews' }, intervals.backgroundMs);
  add({ kind: 'today' }, intervals.backgroundMs);
  add({ kind: 'inbox', filter: 'callbacks' }, intervals.rareMs);
  add({ kind: 'billing' }, intervals.rareMs);
  add({ kind: 'texting' }, intervals.rareMs);
  add({ kind: 'apiSpec' }, intervals.rareMs * 12);
  add({ kind: 'contacts', query: state.contacts.query }, intervals.rareMs);
  return entries;
}
