/**
 * The inbox's picture of every open conversation: which open leads' threads to read now, which to read
 * again next when nothing is new, and how much of the picture is read. The waiting list, the unread marks,
 * the latest texts' senders and the header's count are all made from the threads read, so the poller reads
 * every open lead's thread soon after the start and again whenever something says it changed
 * (src/store/thread-news.ts); staff are told while the picture is not whole.
 */
import type { InboxLead } from '../contract/resources.js';
import type { AppState } from './app-store.js';
import {
  listedAt,
  type MatchState,
  previewSender,
  previewsShown,
  readSinceListed,
  threadReadAt,
  unmatchedShown,
} from './inbound-match.js';
import { leadIndex } from './lead-index.js';
import { leadsNamedIn } from './news-of-lists.js';
import { newestText } from './waiting.js';

export type PictureState = MatchState &
  Pick<AppState, 'threadNews'> &
  Partial<Pick<AppState, 'contacts' | 'today'>>;

/** Why a thread is to be read, the most telling first. */
const TIERS = {
  /** A text waits for its writer and a hint names this lead's contact. */
  hinted: 0,
  /** A list said the thread changed since it was read. */
  changed: 1,
  /** A text waits for its writer and this thread, not read since, may hold it. */
  candidate: 2,
  /** Never read: part of the picture still missing. */
  unread: 3,
} as const;

interface Wanted {
  id: string;
  tier: number;
  /** Within a tier, smaller first. */
  order: number;
  /** Within the same order, smaller first. */
  orderThen?: number;
}

/**
 * Whether this screen keeps the picture: every screen but the wallboard, which matches nothing and whose
 * budget goes to the counts the room watches.
 */
export const keepsPicture = (state: Pick<AppState, 'view'>): boolean => state.view !== 'wallboard';

const toRead = new WeakMap<object, string[]>();

/**
 * The open leads' threads to read now, the most useful first: those a hint names for a text still to match
 * (the closest in time first), those a list said changed (the latest change first), the others that may hold
 * a text still to match (for the text listed first first, then those the shop answered last: the customer
 * answering them is likeliest, then the most recently active), then those never read (the service's order,
 * newest first). A read under way is not listed. Empty once the picture is whole and current.
 */
export function threadsToRead(state: PictureState): string[] {
  let ids = toRead.get(state);
  if (!ids) {
    ids = rank(state);
    toRead.set(state, ids);
  }
  return ids;
}

function rank(state: PictureState): string[] {
  const index = leadIndex(state);
  const unmatched = unmatchedShown(state);
  const closeness = unmatched.length > 0 ? hintedCloseness(state, unmatched) : new Map<string, number>();
  const wanted: Wanted[] = [];
  index.open.forEach((lead, position) => {
    const why = wantedFor(state, lead, position, unmatched, closeness);
    if (why) wanted.push({ id: lead.id, ...why });
  });
  return wanted
    .sort((a, b) => a.tier - b.tier || a.order - b.order || (a.orderThen ?? 0) - (b.orderThen ?? 0))
    .map((each) => each.id);
}

/** Why an open lead's thread is wanted now (its tier, and its place in it), if it is. */
function wantedFor(
  state: PictureState,
  lead: Pick<InboxLead, 'id' | 'created_at'>,
  position: number,
  unmatched: ReadonlyArray<{ occurred_at: string; body_preview: string }>,
  closeness: ReadonlyMap<string, number>,
): { tier: number; order: number; orderThen?: number } | undefined {
  // A read under way counts as read now (+∞): it is none of these.
  const readAt = threadReadAt(state, lead.id);
  const waitingFor = unmatched.filter((preview) => !readSinceListed(state, lead.id, preview));
  const candidate = waitingFor.length > 0;
  const hint = closeness.get(lead.id);
  if (candidate && hint !== undefined) return { tier: TIERS.hinted, order: hint };
  const changedAt = state.threadNews.changedAt.get(lead.id);
  if (readAt !== undefined && changedAt !== undefined && changedAt > readAt)
    return { tier: TIERS.changed, order: -changedAt };
  // The threads that may hold the text listed first go first: they may hold the later texts too, and a
  // text that keeps coming in for the likeliest threads never starves an earlier one of the rest.
  if (candidate)
    return {
      tier: TIERS.candidate,
      order: Math.min(...waitingFor.map((preview) => listedAt(state, preview))),
      orderThen: likelihood(state, lead.id, lead.created_at),
    };
  return readAt === undefined ? { tier: TIERS.unread, order: position } : undefined;
}

/**
 * How likely a thread is to hold a customer's newest text, smaller first: one the shop spoke last in (the
 * customer answers it), then by its last known activity, newest first (a thread never read: its lead's time).
 */
function likelihood(state: PictureState, leadId: string, createdAt: string): number {
  const detail = state.leads[leadId]?.data;
  const newest = detail ? newestText(detail) : undefined;
  const lastActive = Math.max(Date.parse(newest?.occurred_at ?? '') || 0, Date.parse(createdAt) || 0);
  const answered = newest !== undefined && String(newest.direction) !== 'inbound';
  return (answered ? 0 : 1) * 1e15 - lastActive;
}

/**
 * The open leads a hint names for these texts, each with how close in time (ms, smaller is closer): Today's
 * activity item of a text's exact time naming the contact (0), or a contact the contacts list says was in
 * touch at or after a text came (how long after). Hints only choose what is read first: the reference says
 * neither what a summary names nor what sets `last_contact_at`, and only a thread that holds a text matches it.
 */
function hintedCloseness(
  state: PictureState,
  texts: ReadonlyArray<{ occurred_at: string }>,
): Map<string, number> {
  const closeness = new Map<string, number>();
  const closer = (id: string, value: number) => {
    if (value < (closeness.get(id) ?? Number.POSITIVE_INFINITY)) closeness.set(id, value);
  };
  const times = new Set(texts.map((text) => text.occurred_at));
  for (const item of state.today?.data?.activity ?? [])
    if (times.has(item.created_at) && String(item.kind) === 'sms_inbound')
      for (const id of leadsNamedIn(state, item.summary)) closer(id, 0);
  const contacts = state.contacts?.loadedQuery === '' ? state.contacts.data?.items : undefined;
  const at = [...times].map((time) => Date.parse(time)).filter((time) => !Number.isNaN(time));
  const { openByPhone } = leadIndex(state);
  for (const contact of contacts ?? []) {
    const touched = contact.last_contact_at === null ? Number.NaN : Date.parse(contact.last_contact_at);
    const leadIds = openByPhone.get(contact.phone);
    if (leadIds === undefined || Number.isNaN(touched)) continue;
    const after = Math.min(
      ...at.map((time) => (touched >= time ? touched - time : Number.POSITIVE_INFINITY)),
    );
    if (after === Number.POSITIVE_INFINITY) continue;
    for (const id of leadIds) closer(id, after);
  }
  return closeness;
}

/**
 * Whether the contacts list follows the customers' texts: false when its copy, asked for after a text
 * a thread has matched, still dates its writer's last contact before that text and no such text says
 * otherwise. The reference does not say what moves `last_contact_at`; where it does not move for texts,
 * reading the list for each new text only costs a request (its own rare read still comes, and says so
 * again once the list follows). True while nothing tells.
 */
export function contactsFollowTexts(state: PictureState): boolean {
  const copy = state.contacts?.loadedQuery === '' ? state.contacts : undefined;
  const items = copy?.data?.items;
  if (!items || copy?.updatedAt === undefined) return true;
  const lastContact = new Map(items.map((contact) => [contact.phone, contact.last_contact_at]));
  let against = false;
  for (const preview of previewsShown(state)) {
    const sender = previewSender(state, preview);
    const at = Date.parse(preview.occurred_at);
    if (sender.kind !== 'matched' || !(at < copy.updatedAt)) continue;
    const touched = lastContact.get(sender.lead.contact.phone);
    if (touched === undefined) continue;
    if (touched !== null && Date.parse(touched) >= at) return true;
    against = true;
  }
  return !against;
}

/**
 * The open lead whose thread was read longest ago (a thread never read successfully first): read again now
 * and then, one at a time, so that what no list tells (a text sent from the web dashboard when the shop
 * names nobody) reaches the picture too. Undefined while there is none or it is being read.
 */
export function threadToRefresh(state: PictureState): string | undefined {
  let oldest: { id: string; at: number } | undefined;
  for (const lead of leadIndex(state).open) {
    const copy = state.leads[lead.id];
    if (!copy || copy.loading) continue;
    const at = copy.updatedAt ?? Number.NEGATIVE_INFINITY;
    if (!oldest || at < oldest.at) oldest = { id: lead.id, at };
  }
  return oldest?.id;
}

/** How many of the open leads listed have their thread read: the waiting list and the header say so until all have. */
export function pictureCoverage(state: Pick<AppState, 'inbox' | 'leads'>): { read: number; of: number } {
  const { open } = leadIndex(state);
  let read = 0;
  for (const lead of open) if (state.leads[lead.id]?.data) read += 1;
  return { read, of: open.length };
}
