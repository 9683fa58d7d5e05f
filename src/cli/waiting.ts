/**
 * What the command line adds to the shop's records: how long a customer has
 * waited for a reply, and who wrote an inbound text (a preview carries no lead
 * or phone: a thread read must hold a text of the same time and words).
 */
import type { InboundPreview, InboxLead, LeadDetail } from '../contract/resources.js';
import { leadOfPreview } from '../store/selectors.js';

export interface Waiting {
  since: string;
  seconds: number;
  why: 'missed_call' | 'inbound_text';
}

const secondsSince = (timestamp: string, now: number): number | undefined => {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.floor((now - at) / 1000));
};

/** The thread's newest text is the customer's: they wait since then. Null when the shop spoke last (or nobody). */
export function waitingInThread(detail: LeadDetail, now: number): Waiting | null {
  const newest = [...detail.messages]
    .map((message, index) => ({ message, index, at: Date.parse(message.occurred_at) }))
    .sort((a, b) => (b.at || 0) - (a.at || 0) || b.index - a.index)[0];
  if (!newest || String(newest.message.direction) !== 'inbound') return null;
  const seconds = secondsSince(newest.message.occurred_at, now);
  return seconds === undefined ? null : { since: newest.message.occurred_at, seconds, why: 'inbound_text' };
}

/** A missed call nobody texted back (the callbacks list): the customer waits since the call. */
export function waitingSinceCall(lead: InboxLead, now: number): Waiting | null {
  const seconds = secondsSince(lead.created_at, now);
  return seconds === undefined ? null : { since: lead.created_at, seconds, why: 'missed_call' };
}

/** The thread (among those read) holding an inbound text of the preview's time and words. */
export function threadOfPreview(
  preview: InboundPreview,
  threads: ReadonlyMap<string, LeadDetail>,
): LeadDetail | undefined {
  const leads = Object.fromEntries([...threads].map(([id, data]) => [id, { data, loading: false }]));
  return leadOfPreview({ leads }, preview);
}
