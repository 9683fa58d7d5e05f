/**
 * Who waits for a reply, and since when: one definition for the inbox's
 * "waiting" list and header, and for the command line's `inbox`, `thread`,
 * `check` and `status --json`.
 */
import type { InboxLead, LeadDetail, Message } from '../contract/resources.js';
import type { AppState } from './app-store.js';
import { isDone, isUnread } from './conversation-marks.js';

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

/** The thread's newest text is the customer's (they wait for an answer, as far as this copy says). */
export function threadEndsWithCustomer(detail: LeadDetail): boolean {
  return String(newestText(detail)?.direction) === 'inbound';
}

/** A missed call nobody texted back (the callbacks list): the customer waits since the call. */
export function waitingSinceCall(lead: InboxLead, now: number): Waiting | null {
  const seconds = secondsSince(lead.created_at, now);
  return seconds === undefined ? null : { since: lead.created_at, seconds, why: 'missed_call' };
}

/** The newest inbound text of a thread (ms), if it holds one. */
export function newestInboundAt(detail: LeadDetail): number | undefined {
  let newest: number | undefined;
  for (const message of detail.messages) {
    if (String(message.direction) !== 'inbound') continue;
    const at = Date.parse(message.occurred_at);
    if (!Number.isNaN(at) && (newest === undefined || at > newest)) newest = at;
  }
  return newest;
}

/** A conversation waiting for a reply: the listed lead, and since when (the customer's newest text). */
export interface WaitingConversation {
  lead: InboxLead;
  since: string;
}

/**
 * The open leads whose thread, as last read, ends with the customer's text and that staff have not marked
 * done since: oldest waiting first (of two since the same time, the service's order). A lead whose thread is
 * not read yet is not known to wait: every open lead's thread is read soon after the start
 * (conversation-picture.ts), and while some are not, the list says how many are (pictureCoverage).
 */
export function waitingConversations(
  state: Pick<AppState, 'inbox' | 'leads' | 'conversations'>,
): WaitingConversation[] {
  const waiting: Array<WaitingConversation & { at: number }> = [];
  for (const lead of state.inbox.open.data?.open_leads ?? []) {
    const detail = state.leads[lead.id]?.data;
    const wait = detail ? waitingInThread(detail, 0) : null;
    if (!wait) continue;
    const at = Date.parse(wait.since);
    if (isDone(state.conversations, lead.id, at)) continue;
    waiting.push({ lead, since: wait.since, at });
  }
  return waiting.sort((a, b) => a.at - b.at).map(({ lead, since }) => ({ lead, since }));
}

/** A lead's thread holds an inbound text staff have not had open (as far as its thread was read). */
export function leadUnread(state: Pick<AppState, 'leads' | 'conversations'>, leadId: string): boolean {
  const detail = state.leads[leadId]?.data;
  const newest = detail ? newestInboundAt(detail) : undefined;
  return newest !== undefined && isUnread(state.conversations, leadId, newest);
}
