/**
 * What each list holds, derived from the store: the filters applied, and the
 * selected record found by its id. Panes and commands use the same
 * functions, so what is highlighted is what a key acts on.
 */
import type {
  Action,
  ActivityItem,
  Contact,
  InboxLead,
  LeadDetail,
  Message,
  Review,
} from '../contract/resources.js';
import { type Recipient, recipientLabel } from '../text/recipient.js';
import { searchFold } from '../text/search-fold.js';
import {
  type AppState,
  type ComposerTarget,
  type OutgoingText,
  type PaneId,
  WAITING_KEY_PREFIX,
} from './app-store.js';
import { type ListShape, noSelection, type Selection, selectedIndexIn } from './selection.js';
import { type ListedText, pairSentCopies, type SentCopy } from './sent-copies.js';
import { waitingConversations } from './waiting.js';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * A filter's words against a row's fields, ignoring case and accents ("renee" finds "Renée"). A query made
 * of digits and phone punctuation ("(503) 555-01", "503.555") also matches the digits of a field, whatever
 * its formatting ("+15035550105").
 */
export const matches = (needle: string, ...fields: Array<string | null | undefined>) => {
  const query = searchFold(needle.trim());
  if (!query) return true;
  const digits = /^[\d\s()+.\-/]+$/.test(query) ? digitsOf(query) : '';
  return fields.some(
    (field) =>
      (field && searchFold(field).includes(query)) ||
      (digits.length >= 3 && field && digitsOf(field).includes(digits)),
  );
};

const time = (value: string | null | undefined) => Date.parse(value ?? '') || 0;

/** What is typed in a pane's filter or search line. */
export const searchText = (state: Pick<AppState, 'search'>, pane: PaneId): string =>
  state.search[pane]?.text ?? '';

export const selectionOf = (state: Pick<AppState, 'selection'>, pane: PaneId): Selection =>
  state.selection[pane] ?? noSelection;

export function inboxRows(state: AppState): InboxLead[] {
  const leads = state.waitingOnly
    ? waitingConversations(state).map((waiting) => waiting.lead)
    : (state.inbox[state.inboxFilter].data?.open_leads ?? []);
  const query = searchText(state, 'inbox');
  const shown = query
    ? leads.filter((lead) => matches(query, lead.contact_name, lead.caller_phone, lead.job_type))
    : leads;
  // The waiting list has one order: who has waited longest first.
  if (state.waitingOnly) return shown;
  switch (state.inboxOrder) {
    case 'same-day': {
      // Stable: within each group, the service's order (newest first).
      const sameDay = (lead: InboxLead) => (String(lead.urgency) === 'same_day' ? 0 : 1);
      return [...shown].sort((a, b) => sameDay(a) - sameDay(b));
    }
    case 'oldest':
      // By the time the lead came (the missed call, for a callback); a time the service garbled goes last,
      // and leads of the same time keep the reverse of the service's order.
      return [...shown].reverse().sort((a, b) => oldestFirstKey(a) - oldestFirstKey(b));
    default:
      return shown;
  }
}

const oldestFirstKey = (lead: InboxLead) => Date.parse(lead.created_at) || Number.MAX_SAFE_INTEGER;

export function reviewRows(state: AppState): Review[] {
  const reviews = state.reviews.data?.items ?? [];
  const query = searchText(state, 'reviews');
  let shown = query
    ? reviews.filter((review) => matches(query, review.reviewer_name, review.review_text))
    : reviews;
  if (state.unrepliedOnly) shown = shown.filter((review) => review.replied_at == null);
  switch (state.reviewOrder) {
    case 'unreplied':
      return [...shown].sort(
        (a, b) =>
          (a.replied_at == null ? 0 : 1) - (b.replied_at == null ? 0 : 1) ||
          time(b.created_at_google) - time(a.created_at_google),
      );
    case 'rating':
      return [...shown].sort(
        (a, b) => a.rating - b.rating || time(b.created_at_google) - time(a.created_at_google),
      );
    default:
      return shown;
  }
}

export function actionRows(state: AppState): Action[] {
  return state.actions[state.actionsFilter].data?.items ?? [];
}

export function contactRows(state: AppState): Contact[] {
  return state.contacts.data?.items ?? [];
}

export function activityRows(state: AppState): ActivityItem[] {
  return state.today.data?.activity ?? [];
}

/**
 * One line of a thread: a text the service lists, or one sent from here and not listed here by it.
 * `filedUnder`: sent from this thread, the service lists it under that other lead of the contact.
 */
export type ThreadEntry =
  | { kind: 'message'; message: Message }
  | { kind: 'outgoing'; text: OutgoingText; filedUnder?: string };

export const threadEntryId = (entry: ThreadEntry) =>
  entry.kind === 'message' ? `message:${entry.message.id}` : `outgoing:${entry.text.localId}`;

/** The activity of GET /today has no ids: its time, kind and summary name an item. */
export const activityId = (item: ActivityItem) =>
  `${item.created_at}\u0000${String(item.kind)}\u0000${item.summary}`;

export const inboxList = (state: AppState): ListShape<InboxLead> => ({
  rows: inboxRows(state),
  rowId: (lead) => lead.id,
});
export const reviewList = (state: AppState): ListShape<Review> => ({
  rows: reviewRows(state),
  rowId: (review) => review.id,
});
export const actionList = (state: AppState): ListShape<Action> => ({
  rows: actionRows(state),
  rowId: (action) => action.id,
});
export const contactList = (state: AppState): ListShape<Contact> => ({
  rows: contactRows(state),
  rowId: (contact) => contact.id,
});
export const activityList = (state: AppState): ListShape<ActivityItem> => ({
  rows: activityRows(state),
  rowId: activityId,
});
export const threadList = (state: AppState): ListShape<ThreadEntry> => ({
  rows: threadEntries(state),
  rowId: threadEntryId,
  followsEnd: true,
});

function selectedIn<T>(list: ListShape<T>, selection: Selection): T | undefined {
  return list.rows[selectedIndexIn(list, selection)];
}

export const selectedLead = (state: AppState) => selectedIn(inboxList(state), selectionOf(state, 'inbox'));
export const selectedReview = (state: AppState) =>
  selectedIn(reviewList(state), selectionOf(state, 'reviews'));
export const selectedAction = (state: AppState) =>
  selectedIn(actionList(state), selectionOf(state, 'actions'));
export const selectedContact = (state: AppState) =>
  selectedIn(contactList(state), selectionOf(state, 'contacts'));
export const selectedActivity = (state: AppState) =>
  selectedIn(activityList(state), selectionOf(state, 'today'));
export const selectedThreadEntry = (state: AppState) =>
  selectedIn(threadList(state), selectionOf(state, 'thread'));

/**
 * What the Thread pane shows, at every size: the lead highlighted in the list
 * it came from (state.threadFrom), with the name and phone that list gives
 * until the lead itself is read; or, when that list highlights no lead, why
 * not (a sentence without its capital and full stop: the pane and `c` there
 * say it).
 */
export type ThreadSubject =
  | { kind: 'lead'; leadId: string; name?: string; phone?: string }
  | { kind: 'none'; why: string };

const noThread = (why: string): ThreadSubject => ({ kind: 'none', why });

export function threadSubject(state: AppState): ThreadSubject {
  const from = state.threadFrom;
  if (from.list === 'lead') return { kind: 'lead', leadId: from.leadId };
  if (from.list === 'contacts') {
    if (!state.contacts.data) return noThread('contacts are not loaded yet: no thread to show');
    const contact = selectedContact(state);
    if (!contact) {
      const query = state.contacts.loadedQuery ?? '';
      return noThread(
        query ? `no contact matches “${query}”: no thread to show` : 'no contacts: no thread to show',
      );
    }
    const leadId = leadIdForContact(state, contact);
    return leadId
      ? { kind: 'lead', leadId, name: contact.name, phone: contact.phone }
      : noThread(
          `no lead in the inbox's lists for ${recipientLabel(contact)}: no thread to show (c in Contacts texts them)`,
        );
  }
  const inbox = state.inbox[state.inboxFilter];
  if (!inbox.data) {
    return noThread(
      inbox.error
        ? 'the inbox could not be read: no thread to show'
        : 'the inbox is not loaded yet: the thread shows the lead it highlights',
    );
  }
  const lead = selectedLead(state);
  if (lead) return { kind: 'lead', leadId: lead.id, name: lead.contact_name, phone: lead.caller_phone };
  const query = searchText(state, 'inbox').trim();
  if (query) {
    return noThread(`no lead matches the filter “${query}”: no thread to show (esc in the Inbox clears it)`);
  }
  return noThread(
    state.waitingOnly
      ? 'nobody is waiting for a reply: no thread to show'
      : state.inboxFilter === 'open'
        ? 'no open leads: no thread to show'
        : 'no missed calls waiting for a reply: no thread to show',
  );
}

/** The lead whose thread is shown (see threadSubject), if any. */
export function threadLeadId(state: AppState): string | undefined {
  const subject = threadSubject(state);
  return subject.kind === 'lead' ? subject.leadId : undefined;
}

export function openLead(state: AppState): LeadDetail | undefined {
  const leadId = threadLeadId(state);
  return leadId ? state.leads[leadId]?.data : undefined;
}

/** The open thread's messages, oldest first, whatever order the service used. */
export function threadMessages(state: AppState): Message[] {
  const messages = openLead(state)?.messages ?? [];
  return [...messages].sort((a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at));
}

/** Every text of the contact's threads read so far, with the lead that lists it. */
function listedTexts(state: Pick<AppState, 'leads'>, contactId: string): ListedText[] {
  const listed: ListedText[] = [];
  for (const [leadId, lead] of Object.entries(state.leads)) {
    if (lead.data?.contact.id !== contactId) continue;
    for (const message of lead.data.messages) listed.push({ leadId, message });
  }
  return listed;
}

/** Where the service lists each text sent from here to this contact (by localId), as far as the threads read show. */
export function sentCopiesOf(
  state: Pick<AppState, 'leads' | 'outbox' | 'textIdsBeforeSend'>,
  contactId: string,
): Map<string, SentCopy> {
  const texts = state.outbox.filter((text) => text.contactId === contactId);
  if (texts.length === 0) return new Map();
  return pairSentCopies(texts, listedTexts(state, contactId), (localId) => {
    const ids = state.textIdsBeforeSend[localId];
    return ids ? new Set(ids) : undefined;
  });
}

/**
 * Texts sent from this process to the open thread's contact, oldest first, as
 * this thread lists them: until the service lists a sent text, in every thread
 * of the contact; once it does, nowhere but as the service has it, except in
 * the thread it was sent from when the service filed it under another lead:
 * there it says so (`filedUnder`).
 */
export function threadOutbox(state: AppState): Array<{ text: OutgoingText; filedUnder?: string }> {
  const detail = openLead(state);
  if (!detail) return [];
  const leadId = detail.lead.id;
  const copies = sentCopiesOf(state, detail.contact.id);
  return state.outbox.flatMap((text) => {
    if (text.contactId !== detail.contact.id) return [];
    const copy = copies.get(text.localId);
    if (!copy) return [{ text }];
    if (copy.leadId === leadId || text.leadId !== leadId) return [];
    return [{ text, filedUnder: copy.leadId }];
  });
}

/** One entry object per message or text, so that the same thread read twice gives the same rows (React compares them). */
const messageEntries = new WeakMap<Message, ThreadEntry>();
const outgoingEntries = new WeakMap<OutgoingText, ThreadEntry>();

/** The entries of each state (the store makes a new state for every change): asked for several times a frame. */
const entriesOfState = new WeakMap<AppState, ThreadEntry[]>();

export function threadEntries(state: AppState): ThreadEntry[] {
  let entries = entriesOfState.get(state);
  if (entries === undefined) {
    entries = makeThreadEntries(state);
    entriesOfState.set(state, entries);
  }
  return entries;
}

function makeThreadEntries(state: AppState): ThreadEntry[] {
  const entryOf = <K extends object>(cache: WeakMap<K, ThreadEntry>, key: K, make: () => ThreadEntry) => {
    let entry = cache.get(key);
    if (!entry) {
      entry = make();
      cache.set(key, entry);
    }
    return entry;
  };
  const messages = threadMessages(state).map((message) =>
    entryOf(messageEntries, message, () => ({ kind: 'message', message })),
  );
  const outgoing = threadOutbox(state).map(({ text, filedUnder }) => {
    const entry = entryOf(outgoingEntries, text, () => ({ kind: 'outgoing', text }));
    if (entry.kind === 'outgoing' && entry.filedUnder === filedUnder) return entry;
    const moved: ThreadEntry = { kind: 'outgoing', text, ...(filedUnder ? { filedUnder } : {}) };
    outgoingEntries.set(text, moved);
    return moved;
  });
  return inTimeOrder(messages, outgoing);
}

/**
 * A text sent from here that the service has taken sits among the thread's texts by the time it was sent
 * (a customer's answer after it comes after it, also when the shop listed it under another lead); one the
 * service has not taken yet (sending, waiting to be tried again, failed) stays at the end, where what still
 * needs a look is.
 */
function inTimeOrder(messages: ThreadEntry[], outgoing: ThreadEntry[]): ThreadEntry[] {
  const taken = (entry: ThreadEntry) =>
    entry.kind === 'outgoing' && (entry.text.state === 'sent' || entry.text.state === 'replayed');
  const sentAt = (entry: ThreadEntry) => (entry.kind === 'outgoing' ? entry.text.confirmedAt : 0);
  const placed = outgoing.filter(taken).sort((a, b) => sentAt(a) - sentAt(b));
  if (placed.length === 0) return [...messages, ...outgoing];
  const entries: ThreadEntry[] = [];
  let next = 0;
  for (const entry of messages) {
    const at = entry.kind === 'message' ? Date.parse(entry.message.occurred_at) : 0;
    while (next < placed.length && sentAt(placed[next] as ThreadEntry) < at) {
      entries.push(placed[next] as ThreadEntry);
      next += 1;
    }
    entries.push(entry);
  }
  return [...entries, ...placed.slice(next), ...outgoing.filter((entry) => !taken(entry))];
}

/** The latest consent record known for a contact, from any lead of theirs already loaded. */
export function consentFor(state: Pick<AppState, 'leads'>, contactId: string): ComposerTarget['consent'] {
  for (const lead of Object.values(state.leads)) {
    if (lead.data?.contact.id === contactId) {
      const record = lead.data.consent_latest;
      return record ? { given: record.sms_initial, recordedAt: record.recorded_at } : null;
    }
  }
  return undefined;
}

/** A listed lead from this phone number, whose thread would bring the contact's consent record. */
export function leadIdForPhone(state: AppState, phone: string): string | undefined {
  for (const filter of ['open', 'callbacks'] as const) {
    const lead = state.inbox[filter].data?.open_leads.find((item) => item.caller_phone === phone);
    if (lead) return lead.id;
  }
  return undefined;
}

/** A lead of this contact: a thread already read, else a listed lead from the same phone number. */
export function leadIdForContact(
  state: AppState,
  contact: Pick<Contact, 'id' | 'phone'>,
): string | undefined {
  for (const [id, lead] of Object.entries(state.leads)) if (lead.data?.contact.id === contact.id) return id;
  return leadIdForPhone(state, contact.phone);
}

export function targetFromLead(detail: LeadDetail): ComposerTarget {
  const record = detail.consent_latest;
  return {
    contactId: detail.contact.id,
    name: detail.contact.name,
    phone: detail.contact.phone,
    leadId: detail.lead.id,
    consent: record ? { given: record.sms_initial, recordedAt: record.recorded_at } : null,
  };
}

export function targetFromContact(state: AppState, contact: Contact): ComposerTarget {
  return {
    contactId: contact.id,
    name: contact.name,
    phone: contact.phone,
    consent: consentFor(state, contact.id),
  };
}

/**
 * A text of this process went (or is going) to this lead's contact from here: a reply, which answers the
 * contact's missed calls, so the lead leaving the callbacks list is staff's own doing.
 */
export function repliedFromHere(state: AppState, leadId: string): boolean {
  const contactId = state.leads[leadId]?.data?.contact.id;
  return state.outbox.some(
    (text) =>
      text.state !== 'failed' &&
      (text.leadId === leadId || (contactId !== undefined && text.contactId === contactId)),
  );
}

/** A contact's name and number as the reads so far give them: a thread's contact, or the contacts page. */
function recipientOf(state: AppState, contactId: string): Recipient | undefined {
  for (const lead of Object.values(state.leads)) {
    const contact = lead.data?.contact;
    if (contact?.id === contactId) return { name: contact.name, phone: contact.phone };
  }
  const listed = state.contacts.data?.items.find((contact) => contact.id === contactId);
  return listed ? { name: listed.name, phone: listed.phone } : undefined;
}

/** A lead as the Inbox's list reads (open leads, then missed calls) show it, if one does. */
export function listedLead(state: Pick<AppState, 'inbox'>, leadId: string): InboxLead | undefined {
  for (const filter of ['open', 'callbacks'] as const) {
    const row = state.inbox[filter].data?.open_leads.find((lead) => lead.id === leadId);
    if (row) return row;
  }
  return undefined;
}

/** The lead's caller, as a list read names them: for text typed while the lead itself was still read. */
function callerOf(state: AppState, leadId: string): Recipient | undefined {
  const row = listedLead(state, leadId);
  return row ? { name: row.contact_name, phone: row.caller_phone } : undefined;
}

/** What quitting now would leave behind: texts typed and not sent, and texts still sending, with whom for. */
export function unsentTexts(state: AppState): {
  typed: Array<Recipient | undefined>;
  sending: Recipient[];
} {
  const typed = Object.entries(state.composed)
    .filter(([, line]) => line.text.trim().length > 0)
    .map(([key]) =>
      key.startsWith(WAITING_KEY_PREFIX)
        ? callerOf(state, key.slice(WAITING_KEY_PREFIX.length))
        : recipientOf(state, key),
    );
  const sending = state.outbox
    .filter((text) => text.state === 'sending' || text.state === 'waiting')
    .map((text) => ({ name: text.contactName, phone: text.phone }));
  return { typed, sending };
}

export const unsentCount = (state: AppState) => {
  const { typed, sending } = unsentTexts(state);
  return typed.length + sending.length;
};

/** How many list rows fit in a pane at the current terminal size. */
export const pageSize = (state: Pick<AppState, 'rows'>) => Math.max(1, state.rows - 9);

/**
 * The inbound text a Today activity item (kind sms_inbound) tells of: an inbound text of exactly its time in a
 * thread read (the item carries no lead or text id; its summary, "Text from NAME" in the reference's
 * examples, breaks a tie by naming the contact). Undefined: no thread read holds one.
 */
export function inboundTextOfActivity(
  state: Pick<AppState, 'leads'>,
  item: Pick<ActivityItem, 'kind' | 'created_at' | 'summary'>,
): { lead: LeadDetail; message: Message } | undefined {
  if (String(item.kind) !== 'sms_inbound') return undefined;
  const found: Array<{ lead: LeadDetail; message: Message }> = [];
  for (const copy of Object.values(state.leads)) {
    const lead = copy.data;
    const message = lead?.messages.find(
      (candidate) => String(candidate.direction) === 'inbound' && candidate.occurred_at === item.created_at,
    );
    if (lead && message) found.push({ lead, message });
  }
  return found.find((each) => item.summary.includes(each.lead.contact.name)) ?? found[0];
}
