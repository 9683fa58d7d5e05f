/**
 * Who waits for a reply, and since when: one definition for the inbox's
 * "waiting" list and header, and for the command line's `inbox`, `thread`,
 * `check` and `status --json`.
 */
import type { InboxLead, LeadDetail, Message } from '../contract/resources.js';

export interface Waiting {
  since: string;
  seconds: number;
  why: 'missed_call' | 'inbound_text';
}

const secondsSince = (timestamp: string, now: number): number | undefined => {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.floor((now - at) / 1000));
};

/** The thread's newest text (by time; of two at the same time, the one listed last). */
export function newestText(detail: LeadDetail): Message | undefined {
  return [...detail.messages]
    .map((message, index) => ({ message, index, at: Date.parse(message.occurred_at) }))
    .sort((a, b) => (b.at || 0) - (a.at || 0) || b.index - a.index)[0]?.message;
}

/** The thread's newest text is the customer's: they wait since then. Null when the shop spoke last (or nobody). */
export function waitingInThread(detail: LeadDetail, now: number): Waiting | null {
  const newest = newestText(detail);
  if (!newest || String(newest.direction) !== 'inbound') return null;
  const seconds = secondsSince(newest.occurred_at, now);
  return seconds === undefined ? null : { since: newest.occurred_at, seconds, why: 'inbound_text' };
}

/** A missed call nobody texted back (the callbacks list): the customer waits since the call. */
export function waitingSinceCall(lead: InboxLead, now: number): Waiting | null {
  const seconds = secondsSince(lead.created_at, now);
  return seconds === undefined ? null : { since: lead.created_at, seconds, why: 'missed_call' };
}
