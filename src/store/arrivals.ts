/**
 * What arrived after start-up, once per item: new missed calls (the
 * callbacks list), same-day leads (the open leads), inbound texts (today's
 * activity) and actions awaiting approval. The first copy of each list is
 * its baseline: what is in it is not news, unless its own time says it came
 * after this process started (the lists are read one after another, and a
 * missed call that arrives between the first read of the open leads and the
 * first read of the callbacks is news all the same). After that each record
 * is news once, keyed by its id, however often its list is read again, and
 * also when it leaves the list and comes back. A lead that is both a missed
 * call and a same-day lead is one item.
 */
import type { AppState } from './app-store.js';

export const NOTIFY_EVENTS = ['missed_call', 'inbound_text', 'same_day', 'pending_action'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export interface Arrival {
  event: NotifyEvent;
  /** What happened, in words (untrusted text inside: sanitized where it is written). */
  text: string;
}

interface Source {
  event: NotifyEvent;
  /** The copy of the list in the store (compared by identity: a new read is a new copy). */
  copy(state: AppState): unknown;
  /** Its items: the record's key (shared by lists that show the same record), its time (ISO) and what to say. */
  items(state: AppState): Array<{ key: string; at: string; text: string }>;
}

const SOURCES: readonly Source[] = [
  {
    event: 'missed_call',
    copy: (state) => state.inbox.callbacks.data,
    items: (state) =>
      (state.inbox.callbacks.data?.open_leads ?? []).map((lead) => ({
        key: `lead:${lead.id}`,
        at: lead.created_at,
        text: `Missed call: ${lead.contact_name} (${lead.caller_phone}) · ${lead.job_type}`,
      })),
  },
  {
    event: 'same_day',
    copy: (state) => state.inbox.open.data,
    items: (state) =>
      (state.inbox.open.data?.open_leads ?? [])
        .filter((lead) => String(lead.urgency) === 'same_day')
        .map((lead) => ({
          key: `lead:${lead.id}`,
          at: lead.created_at,
          text: `SAME DAY lead: ${lead.contact_name} (${lead.caller_phone}) · ${lead.job_type}`,
        })),
  },
  {
    event: 'inbound_text',
    copy: (state) => state.today.data,
    items: (state) =>
      (state.today.data?.activity ?? [])
        .filter((item) => String(item.kind) === 'sms_inbound')
        .map((item) => ({
          key: `text:${item.created_at}\u0000${item.summary}`,
          at: item.created_at,
          text: item.summary.slice(0, 300).replace(/^New text from /, 'Text from '),
        })),
  },
  {
    event: 'pending_action',
    copy: (state) => state.actions.pending_approval.data,
    items: (state) =>
      (state.actions.pending_approval.data?.items ?? []).map((action) => ({
        key: `action:${action.id}`,
        at: action.generated_at,
        text: `Awaiting approval: ${String(action.kind).replaceAll('_', ' ')} ${action.id}`,
      })),
  },
];

/** Keys remembered per list and overall: many pages' worth, small for a process that runs for weeks. */
export const REMEMBERED = 5_000;

function remember(set: Set<string>, key: string): void {
  set.add(key);
  if (set.size <= REMEMBERED) return;
  const oldest = set.values().next().value;
  if (oldest !== undefined) set.delete(oldest);
}

/**
 * Call with each new state; returns what arrived since the last call. `startedAt`: when this
 * process started (a record dated after it is news even in its list's first copy). A list the store
 * forgot (another key took over: it may be another shop's) starts again from a new baseline, taken
 * then: what the new key's first copy holds is not news either.
 */
export function createArrivals(
  startedAt: number = Date.now(),
  now: () => number = Date.now,
): (state: AppState) => Arrival[] {
  const copies = new Map<NotifyEvent, unknown>();
  const known = new Map<NotifyEvent, Set<string>>();
  const baselineAt = new Map<NotifyEvent, number>();
  const told = new Set<string>();
  return (state) => {
    const arrived: Arrival[] = [];
    for (const source of SOURCES) {
      const copy = source.copy(state);
      if (copy === undefined && copies.get(source.event) !== undefined) {
        copies.delete(source.event);
        known.delete(source.event);
        baselineAt.set(source.event, now());
      }
      if (copy === undefined || copies.get(source.event) === copy) continue;
      copies.set(source.event, copy);
      const items = source.items(state);
      const baseline = !known.has(source.event);
      const seen = known.get(source.event) ?? new Set<string>();
      known.set(source.event, seen);
      for (const item of items) {
        if (seen.has(item.key)) continue;
        remember(seen, item.key);
        // What was there at start-up is not news, now or later.
        if (baseline && !(Date.parse(item.at) > (baselineAt.get(source.event) ?? startedAt))) continue;
        if (told.has(item.key)) continue;
        remember(told, item.key);
        arrived.push({ event: source.event, text: item.text });
      }
    }
    return arrived;
  };
}
