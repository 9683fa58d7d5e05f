/**
 * Who sent each latest inbound text. GET /inbox lists the texts with a time and a preview but no lead or
 * contact, so a text is matched to a thread read that holds an inbound text of the same time whose words
 * start with the preview's. One answer per state (the store makes a new state for every change), asked by
 * the Inbox's rows, its tab, its commands, the poller's plan and the command line alike.
 */
import type { InboundPreview, LeadDetail, Message } from '../contract/resources.js';
import type { AppState } from './app-store.js';
import { leadIndex } from './lead-index.js';
import { inboundId } from './seen.js';

/** How many of the latest inbound texts the Inbox shows (and the inbox matches to their leads first). */
export const INBOUND_SHOWN = 3;

type Preview = Pick<InboundPreview, 'occurred_at' | 'body_preview'>;

/**
 * Who sent a latest inbound text, as far as the threads read say: its lead; or not matched yet (some open
 * lead's thread, not read since the text was listed, may hold it); or none of the open leads' threads holds it.
 */
export type PreviewSender =
  | { kind: 'matched'; lead: LeadDetail; message: Message }
  | { kind: 'not-matched-yet' }
  | { kind: 'no-open-lead' };

/** What matching looks at: the inbox, the threads read and when each text was first listed. */
export type MatchState = Pick<AppState, 'leads' | 'inbox'> & Partial<Pick<AppState, 'threadNews'>>;

export const previewsShown = (state: Pick<AppState, 'inbox'>): InboundPreview[] =>
  (state.inbox.open.data?.latest_inbound ?? []).slice(0, INBOUND_SHOWN);

/** The text of a thread a preview is (a preview has no id: its time and the start of its words). */
export function messageOfPreview(detail: LeadDetail, preview: Preview): Message | undefined {
  const shown = preview.body_preview.replace(/…$/, '');
  return detail.messages.find(
    (message) =>
      String(message.direction) === 'inbound' &&
      message.occurred_at === preview.occurred_at &&
      message.body.startsWith(shown),
  );
}

/** The thread read that holds the preview's text, with that text. */
function heldBy(
  state: Pick<AppState, 'leads'> & Partial<Pick<AppState, 'inbox'>>,
  preview: Preview,
): { lead: LeadDetail; message: Message } | undefined {
  const shown = preview.body_preview.replace(/…$/, '');
  return leadIndex(state)
    .inboundAt.get(preview.occurred_at)
    ?.find((each) => each.message.body.startsWith(shown));
}

/** The lead whose thread read holds the preview's text; undefined: no thread read holds it. */
export function leadOfPreview(state: Pick<AppState, 'leads'>, preview: Preview): LeadDetail | undefined {
  return heldBy(state, preview)?.lead;
}

/**
 * When a thread copy was read (asked for: src/poller/poller.ts dates copies so); a failed read counts, so
 * that a thread the shop refuses is not asked for again and again. Undefined: never read. A read under way
 * counts as now: it will tell.
 */
export function threadReadAt(state: Pick<AppState, 'leads'>, leadId: string): number | undefined {
  const copy = state.leads[leadId];
  if (!copy) return undefined;
  if (copy.loading) return Number.POSITIVE_INFINITY;
  const at = Math.max(copy.updatedAt ?? Number.NEGATIVE_INFINITY, copy.error?.at ?? Number.NEGATIVE_INFINITY);
  return at === Number.NEGATIVE_INFINITY ? undefined : at;
}

/**
 * When the inbox first listed the text (this box's clock, the time its copy was asked for); for a state that
 * does not keep it, the text's own time (the service's clock).
 */
export function listedAt(state: MatchState, preview: Preview): number {
  return state.threadNews?.listedAt.get(inboundId(preview)) ?? (Date.parse(preview.occurred_at) || 0);
}

/** The thread was read after the text was listed: if it held the text, it would say so. */
export function readSinceListed(state: MatchState, leadId: string, preview: Preview): boolean {
  return (threadReadAt(state, leadId) ?? Number.NEGATIVE_INFINITY) >= listedAt(state, preview);
}

/** One answer per preview per state. */
const senders = new WeakMap<object, Map<string, PreviewSender>>();

export function previewSender(state: MatchState, preview: Preview): PreviewSender {
  let known = senders.get(state);
  if (!known) {
    known = new Map();
    senders.set(state, known);
  }
  const id = inboundId(preview);
  let sender = known.get(id);
  if (sender === undefined) {
    sender = findSender(state, preview);
    known.set(id, sender);
  }
  return sender;
}

function findSender(state: MatchState, preview: Preview): PreviewSender {
  const held = heldBy(state, preview);
  if (held) return { kind: 'matched', ...held };
  const unread = leadIndex(state).open.some((lead) => !readSinceListed(state, lead.id, preview));
  return unread ? { kind: 'not-matched-yet' } : { kind: 'no-open-lead' };
}

/** The latest inbound texts shown that no thread read holds. */
export const unmatchedShown = (state: MatchState): InboundPreview[] =>
  previewsShown(state).filter((preview) => previewSender(state, preview).kind !== 'matched');
