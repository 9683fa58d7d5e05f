/**
 * After a text is sent: the threads where the service may list it are read
 * until its copy shows, so that the thread it was sent from gives way to the
 * service's copy, or says under which lead the service filed it. The API takes
 * a text for a contact, not a lead, and does not say where it files it: the
 * lead it was sent from is read first, then the contact's other leads the
 * inbox knows of, newest first (a service plausibly files a text under the
 * newest one), a few at most.
 */
import { storeData } from '../poller/store-writes.js';
import type { AppState, OutgoingText } from '../store/app-store.js';
import { LIST_LIMIT } from '../store/counts.js';
import { sentCopiesOf } from '../store/selectors.js';
import type { SentCopy } from '../store/sent-copies.js';
import type { ActionContext } from './context.js';

/** Threads read at most after one send: the contact's few leads, not a crawl of the shop. */
export const MAX_THREADS_SEARCHED = 4;

/** The leads a text may be filed under: the one it was sent from, then the contact's others, newest first. */
export function leadsToSearch(state: AppState, text: OutgoingText): string[] {
  const others = new Map<string, number>();
  const add = (id: string, createdAt: string) => {
    if (id !== text.leadId) others.set(id, Date.parse(createdAt) || 0);
  };
  for (const [id, lead] of Object.entries(state.leads))
    if (lead.data?.contact.id === text.contactId) add(id, lead.data.lead.created_at);
  for (const filter of ['open', 'callbacks'] as const)
    for (const row of state.inbox[filter].data?.open_leads ?? [])
      if (row.caller_phone === text.phone) add(row.id, row.created_at);
  const newestFirst = [...others.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  return [...(text.leadId ? [text.leadId] : []), ...newestFirst].slice(0, MAX_THREADS_SEARCHED);
}

/** Reads those threads one by one until the text's copy is listed; what was found, if anything. */
export async function findSentCopy(
  context: ActionContext,
  text: OutgoingText,
): Promise<SentCopy | undefined> {
  const { client, store, now } = context;
  const copyOf = () => sentCopiesOf(store.getState(), text.contactId).get(text.localId);
  for (const leadId of leadsToSearch(store.getState(), text)) {
    try {
      const detail = await client.getLead(leadId, { limit: LIST_LIMIT });
      storeData(store, { kind: 'lead', id: leadId }, detail, now());
    } catch {
      // A thread that cannot be read now is read again by the poller while it is on screen.
      continue;
    }
    const copy = copyOf();
    if (copy) return copy;
  }
  return undefined;
}
