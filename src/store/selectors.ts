/**
 * What each pane lists, derived from the store: the filters applied, the
 * selection clamped to the list. Panes and key handlers use the same
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
import { type AppState, type ComposerTarget, isWide, type OutgoingText, type PaneId } from './app-store.js';

const matches = (needle: string, ...fields: Array<string | null | undefined>) => {
  const query = needle.trim().toLowerCase();
  if (!query) return true;
  return fields.some((field) => field?.toLowerCase().includes(query));
};

export function inboxRows(state: AppState): InboxLead[] {
  const leads = state.inbox[state.inboxFilter].data?.open_leads ?? [];
  const query = state.search.inbox.text;
  return query
    ? leads.filter((lead) => matches(query, lead.contact_name, lead.caller_phone, lead.job_type))
    : leads;
}

export function reviewRows(state: AppState): Review[] {
  const reviews = state.reviews.data?.items ?? [];
  const query = state.search.reviews.text;
  return query
    ? reviews.filter((review) => matches(query, review.reviewer_name, review.review_text))
    : reviews;
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

/** The lead whose thread is shown: the one opened, or in the wide layout the one selected in the inbox. */
export function threadLeadId(state: AppState): string | undefined {
  return state.openLeadId ?? (isWide(state) ? selectedLead(state)?.id : undefined);
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

/** The service's copy of a text sent from here: outbound, the same body (it may come truncated with "…"). */
function inThread(messages: readonly Message[], text: OutgoingText): boolean {
  return messages.some((message) => {
    if (String(message.direction) !== 'outbound') return false;
    if (message.body === text.body) return true;
    const shown = message.body.endsWith('…') ? message.body.slice(0, -1) : undefined;
    return shown !== undefined && shown.length > 0 && text.body.startsWith(shown);
  });
}

/**
 * Texts sent from this process to the open thread's contact, oldest first,
 * until the service's own copy of a sent text shows in the thread: then it is
 * listed once, as the service has it.
 */
export function threadOutbox(state: AppState): OutgoingText[] {
  const detail = openLead(state);
  if (!detail) return [];
  return state.outbox.filter(
    (text) =>
      text.contactId === detail.contact.id &&
      !((text.state === 'sent' || text.state === 'replayed') && inThread(detail.messages, text)),
  );
}

export function listLength(state: AppState, pane: PaneId): number {
  switch (pane) {
    case 'inbox':
      return inboxRows(state).length;
    case 'thread':
      return threadMessages(state).length + threadOutbox(state).length;
    case 'reviews':
      return reviewRows(state).length;
    case 'actions':
      return actionRows(state).length;
    case 'contacts':
      return contactRows(state).length;
    case 'today':
      return activityRows(state).length;
  }
}

/** The cursor of a pane, kept inside its list as the list changes under it. */
export function selectedIndex(state: AppState, pane: PaneId): number {
  const length = listLength(state, pane);
  return Math.max(0, Math.min(state.cursors[pane], length - 1));
}

export const selectedLead = (state: AppState) => inboxRows(state)[selectedIndex(state, 'inbox')];
export const selectedReview = (state: AppState) => reviewRows(state)[selectedIndex(state, 'reviews')];
export const selectedAction = (state: AppState) => actionRows(state)[selectedIndex(state, 'actions')];
export const selectedContact = (state: AppState) => contactRows(state)[selectedIndex(state, 'contacts')];

/** The latest consent record known for a contact, from any lead of theirs already loaded. */
export function consentFor(state: AppState, contactId: string): ComposerTarget['consent'] {
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

/** Texts confirmed but not yet known to be sent. */
export const unsentCount = (state: AppState) =>
  state.outbox.filter((text) => text.state === 'sending' || text.state === 'waiting').length +
  Object.values(state.composed).filter((line) => line.text.trim().length > 0).length;

/** How many list rows fit in a pane at the current terminal size. */
export const pageSize = (state: Pick<AppState, 'rows'>) => Math.max(1, state.rows - 9);
