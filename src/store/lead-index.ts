/**
 * The leads the inbox knows, indexed once per copy of what they come from: the open leads listed (by id
 * and by phone), the threads read (by contact) and their inbound texts (by time). Matching a text to its
 * writer, finding a contact's leads and deciding which threads to read all look here, not through the
 * lists and threads again.
 */
import type { InboxLead, LeadDetail, Message } from '../contract/resources.js';
import type { AppState } from './app-store.js';

export interface LeadIndex {
  /** The open leads as the inbox lists them (newest first, as the service lists them). */
  open: readonly InboxLead[];
  openById: ReadonlyMap<string, InboxLead>;
  /** Open leads by their caller's phone (a customer may have several: a missed call, then a web form). */
  openByPhone: ReadonlyMap<string, readonly string[]>;
  /** The threads read, by their contact's id. */
  threadsByContact: ReadonlyMap<string, readonly string[]>;
  /** Every inbound text of the threads read, by its time (ISO, as the service gives it). */
  inboundAt: ReadonlyMap<string, ReadonlyArray<{ lead: LeadDetail; message: Message }>>;
}

/** The threads read, and the inbox's lists when there are (the command line reads threads without them). */
type IndexedState = Pick<AppState, 'leads'> & Partial<Pick<AppState, 'inbox'>>;

/** The index of the lists and threads of a state; made again only when one of them is a new copy. */
const indexes = new WeakMap<object, WeakMap<object, LeadIndex>>();

export function leadIndex(state: IndexedState): LeadIndex {
  const inbox = state.inbox?.open.data ?? EMPTY_INBOX;
  let byLeads = indexes.get(inbox);
  if (!byLeads) {
    byLeads = new WeakMap();
    indexes.set(inbox, byLeads);
  }
  let index = byLeads.get(state.leads);
  if (!index) {
    index = makeIndex(inbox.open_leads, state.leads);
    byLeads.set(state.leads, index);
  }
  return index;
}

const EMPTY_INBOX = { open_leads: [] as InboxLead[] };

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function makeIndex(open: readonly InboxLead[], leads: AppState['leads']): LeadIndex {
  const openById = new Map<string, InboxLead>();
  const openByPhone = new Map<string, string[]>();
  for (const lead of open) {
    openById.set(lead.id, lead);
    push(openByPhone, lead.caller_phone, lead.id);
  }
  const threadsByContact = new Map<string, string[]>();
  const inboundAt = new Map<string, Array<{ lead: LeadDetail; message: Message }>>();
  for (const [id, copy] of Object.entries(leads)) {
    const detail = copy.data;
    if (!detail) continue;
    push(threadsByContact, detail.contact.id, id);
    for (const message of detail.messages)
      if (String(message.direction) === 'inbound')
        push(inboundAt, message.occurred_at, { lead: detail, message });
  }
  return { open, openById, openByPhone, threadsByContact, inboundAt };
}

/**
 * The leads of a contact the inbox knows: the threads read of that contact, then the open leads listed
 * from the same phone (whose thread may not be read yet), each once.
 */
export function leadsOfContact(
  state: IndexedState,
  contact: { id?: string | undefined; phone?: string | undefined },
): string[] {
  const index = leadIndex(state);
  const ids = new Set<string>(contact.id !== undefined ? (index.threadsByContact.get(contact.id) ?? []) : []);
  if (contact.phone !== undefined) for (const id of index.openByPhone.get(contact.phone) ?? []) ids.add(id);
  return [...ids];
}
