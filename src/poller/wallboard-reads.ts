/**
 * What the wallboard shows, as reads for the poller: the counts (GET /me), the
 * open leads (same-day ones), the missed calls with no reply, and today's
 * activity (the newest inbound texts). All GETs, read as "visible" (every
 * 10 s), within the same request budget as any inbox.
 */
import type { Slot } from './reads.js';
import type { VisibleSlots } from './refresh-plan.js';

const WALLBOARD_SLOTS: readonly Slot[] = [
  { kind: 'me' },
  { kind: 'inbox', filter: 'callbacks' },
  { kind: 'inbox', filter: 'open' },
  { kind: 'today' },
];

export const wallboardReads: VisibleSlots = () => [...WALLBOARD_SLOTS];
