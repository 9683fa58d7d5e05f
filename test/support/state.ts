/**
 * States built for the tests of pure parts: a whole AppState (the store's own initial state) with the fields
 * a test names, and the shop's records in the contract's shapes. Typed, so that a state a test builds is a
 * state the app could hold, never a partial object cast into one.
 */
import type {
  ActivityItem,
  Contact,
  InboundPreview,
  Inbox,
  InboxLead,
  LeadDetail,
  Message,
} from '../../src/contract/resources.js';
import { type AppState, initialState, type Loaded } from '../../src/store/app-store.js';

export function stateWith(fields: Partial<AppState> = {}): AppState {
  return { ...initialState(), ...fields };
}

/** A copy read (answered) at `at`. */
export const loaded = <T>(data: T, at = 0): Loaded<T> => ({ data, updatedAt: at, loading: false });

export function inboxLead(id: string, fields: Partial<InboxLead> = {}): InboxLead {
  return {
    id,
    status: 'new',
    urgency: 'this_week',
    contact_name: `Customer ${id}`,
    caller_phone: `+1555000${id.padStart(4, '0').slice(-4)}`,
    job_type: 'leak',
    created_at: '2026-11-20T10:00:00.000Z',
    ...fields,
  };
}

export function inbox(
  leads: InboxLead[],
  latest: InboundPreview[] = [],
  filter: 'open' | 'callbacks' = 'open',
): Inbox {
  return { filter, open_leads: leads, latest_inbound: latest };
}

export function message(
  id: string,
  direction: 'inbound' | 'outbound',
  occurredAt: string,
  body = `text ${id}`,
): Message {
  return { id, direction, body, occurred_at: occurredAt };
}

/** The thread of an inbox lead: its contact named and numbered as the inbox lists them. */
export function thread(lead: InboxLead, messages: Message[], contactId = `c-${lead.id}`): LeadDetail {
  return {
    lead: {
      id: lead.id,
      status: lead.status,
      urgency: lead.urgency,
      contact_id: contactId,
      source: 'missed_call',
      created_at: lead.created_at,
    },
    contact: { id: contactId, name: lead.contact_name, phone: lead.caller_phone, stage: 'lead' },
    messages,
    consent_latest: null,
  };
}

export const preview = (occurredAt: string, body: string): InboundPreview => ({
  occurred_at: occurredAt,
  body_preview: body,
});

export function contact(
  id: string,
  phone: string,
  lastContactAt: string | null,
  name = `Contact ${id}`,
): Contact {
  return { id, name, phone, email: null, stage: 'lead', last_contact_at: lastContactAt };
}

export const activity = (kind: string, summary: string, createdAt: string): ActivityItem => ({
  kind,
  summary,
  created_at: createdAt,
});

/** The open inbox and these threads, read at the given times (ms), in a state. */
export function withThreads(
  leads: InboxLead[],
  threads: Array<{ detail: LeadDetail; at: number }>,
  latest: InboundPreview[] = [],
  fields: Partial<AppState> = {},
): AppState {
  const base = initialState();
  return stateWith({
    inbox: { ...base.inbox, open: loaded(inbox(leads, latest)) },
    leads: Object.fromEntries(threads.map(({ detail, at }) => [detail.lead.id, loaded(detail, at)])),
    ...fields,
  });
}
