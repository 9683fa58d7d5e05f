/**
 * What a fresh copy of one of the shop's lists says about its threads without reading them: a new latest
 * inbound text, a lead whose status moved or that left the missed calls, a contact whose `last_contact_at`
 * moved, an activity item naming a contact. Each copy is compared with the copy before it (the first copy
 * of each is the baseline). The reference does not say what moves `last_contact_at` or what a summary names
 * ("not shown"): these only choose which threads are read, never what a thread holds.
 */
import type { ActivityItem, ContactList, Inbox, InboxFilter, Today } from '../contract/resources.js';
import type { AppState } from './app-store.js';
import { leadIndex, leadsOfContact } from './lead-index.js';
import { inboundId } from './seen.js';
import { type ThreadNews, withChanges } from './thread-news.js';
import { threadEndsWithCustomer } from './waiting.js';

type NewsState = Pick<AppState, 'inbox' | 'leads' | 'contacts' | 'today' | 'threadNews'>;

/**
 * A copy of the inbox: when each latest inbound text was first listed (the open leads' copy lists them); a
 * lead whose status moved; a missed call that left the callbacks list while its lead is open (answered
 * from somewhere else).
 */
export function newsOfInbox(state: NewsState, filter: InboxFilter, next: Inbox, at: number): ThreadNews {
  let news = state.threadNews;
  const previous = state.inbox[filter].data;
  if (filter === 'open') {
    const listedAt = new Map<string, number>();
    for (const preview of next.latest_inbound) {
      const id = inboundId(preview);
      listedAt.set(id, news.listedAt.get(id) ?? at);
    }
    news = { ...news, listedAt };
  }
  if (!previous) return news;
  const before = new Map(previous.open_leads.map((lead) => [lead.id, lead]));
  const moved: string[] = [];
  for (const lead of next.open_leads) {
    const was = before.get(lead.id);
    if (was && String(was.status) !== String(lead.status)) moved.push(lead.id);
  }
  if (filter === 'callbacks') {
    const still = new Set(next.open_leads.map((lead) => lead.id));
    const open = leadIndex(state).openById;
    for (const lead of previous.open_leads) if (!still.has(lead.id) && open.has(lead.id)) moved.push(lead.id);
  }
  return withChanges(news, moved, at);
}

/** A copy of the contacts list (not a search): the leads of every contact whose last contact moved. */
export function newsOfContacts(state: NewsState, next: ContactList, at: number): ThreadNews {
  const previous = state.contacts.loadedQuery === '' ? state.contacts.data : undefined;
  if (!previous) return state.threadNews;
  const before = new Map(previous.items.map((contact) => [contact.id, contact.last_contact_at]));
  const touched: string[] = [];
  for (const contact of next.items) {
    const was = before.get(contact.id);
    if (was !== undefined && was !== contact.last_contact_at) touched.push(...leadsOfContact(state, contact));
  }
  return withChanges(state.threadNews, touched, at);
}

/** Kinds of activity that put a text in a thread the shop sent (as far as the kinds observed say). */
const OUTBOUND_KINDS = new Set(['text_sent', 'action_published']);

/**
 * A copy of Today: the leads of each contact a new activity item names; for a text sent that names nobody
 * (from the web dashboard, say), every conversation that waits for a reply, since one of them may have had it.
 */
export function newsOfToday(state: NewsState, next: Today, at: number): ThreadNews {
  const previous = state.today.data;
  if (!previous) return state.threadNews;
  const before = new Set(previous.activity.map(activityKey));
  const fresh = next.activity.filter((item) => !before.has(activityKey(item)));
  if (fresh.length === 0) return state.threadNews;
  const touched: string[] = [];
  for (const item of fresh) {
    const named = leadsNamedIn(state, item.summary);
    if (named.length > 0) touched.push(...named);
    else if (OUTBOUND_KINDS.has(String(item.kind))) touched.push(...leadsWaitingInThread(state));
  }
  return withChanges(state.threadNews, touched, at);
}

const activityKey = (item: ActivityItem) =>
  `${item.created_at}\u0000${String(item.kind)}\u0000${item.summary}`;

/** The open leads (and threads read) of every contact whose whole name the text contains. */
export function leadsNamedIn(state: Pick<AppState, 'inbox' | 'leads'>, text: string): string[] {
  const ids = new Set<string>();
  for (const lead of leadIndex(state).open) {
    const name = lead.contact_name.trim();
    if (name.length >= 2 && text.includes(name)) ids.add(lead.id);
  }
  for (const [id, copy] of Object.entries(state.leads)) {
    const name = copy.data?.contact.name.trim() ?? '';
    if (name.length >= 2 && text.includes(name)) ids.add(id);
  }
  return [...ids];
}

function leadsWaitingInThread(state: Pick<AppState, 'inbox' | 'leads'>): string[] {
  return leadIndex(state).open.flatMap((lead) => {
    const detail = state.leads[lead.id]?.data;
    return detail && threadEndsWithCustomer(detail) ? [lead.id] : [];
  });
}
