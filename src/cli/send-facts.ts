/**
 * What the checks before a text need, read from the shop for one contact (the
 * inbox takes the same facts from what its store has read): the texting setup,
 * the contact's threads (the leads the inbox lists from their number, newest
 * first, at most four; the API lists no leads by contact) with their texts and
 * the latest consent record, and the customer's time zone(s).
 */
import type { ShopClient } from '../api/client.js';
import type { ResolvedSettings } from '../config/settings.js';
import type { Contact, LeadDetail, Message, TextingSetup } from '../contract/resources.js';
import type { CustomerZones } from '../rules/customer-zones.js';
import type { KnownText, PreSendFacts } from '../rules/pre-send-checks.js';
import { resolveCustomerZones } from '../rules/resolve-customer-zones.js';
import { machineTimeZone } from './cli-clock.js';

/** Threads read for one contact at most: the newest, where a reply lands and an opt-out shows. */
export const MAX_CONTACT_THREADS = 4;

export interface ContactFacts {
  texting: TextingSetup;
  /** The contact's threads read, newest lead first. */
  threads: LeadDetail[];
  customerZones: CustomerZones;
}

/** Every text of the threads, once each (a text listed in two threads is one). */
export function textsOf(threads: readonly LeadDetail[]): Message[] {
  const byId = new Map<string, Message>();
  for (const thread of threads) for (const message of thread.messages) byId.set(message.id, message);
  return [...byId.values()];
}

export const knownText = (message: Message): KnownText => ({
  direction: String(message.direction),
  body: message.body,
  occurredAt: message.occurred_at,
});

/** The consent record the threads carry: null when none is on record, undefined when no thread was read. */
export function consentOf(threads: readonly LeadDetail[]): PreSendFacts['consent'] {
  const first = threads[0];
  if (!first) return undefined;
  const record = first.consent_latest;
  return record ? { given: record.sms_initial, recordedAt: record.recorded_at } : null;
}

/** The contact's threads: the listed leads from their number, newest first, read and kept when they are theirs. */
export async function readContactThreads(client: ShopClient, contact: Contact): Promise<LeadDetail[]> {
  const [open, callbacks] = await Promise.all([
    client.getInbox({ filter: 'open', limit: 100 }),
    client.getInbox({ filter: 'callbacks', limit: 100 }),
  ]);
  const leads = new Map(
    [...open.open_leads, ...callbacks.open_leads]
      .filter((lead) => lead.caller_phone === contact.phone)
      .map((lead) => [lead.id, lead]),
  );
  const newest = [...leads.values()]
    .sort((a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0))
    .slice(0, MAX_CONTACT_THREADS);
  return rereadThreads(
    client,
    contact,
    newest.map((lead) => lead.id),
  );
}

/** The same threads read again (after a question was answered: what arrived meanwhile). */
export async function rereadThreads(
  client: ShopClient,
  contact: Contact,
  leadIds: readonly string[],
): Promise<LeadDetail[]> {
  const details = await Promise.all(leadIds.map((id) => client.getLead(id, { limit: 100 })));
  return details.filter((detail) => detail.contact.id === contact.id);
}

export async function gatherContactFacts(
  client: ShopClient,
  contact: Contact,
  settings: Pick<ResolvedSettings, 'timeZone'>,
): Promise<ContactFacts> {
  const [texting, threads] = await Promise.all([client.getTexting(), readContactThreads(client, contact)]);
  const customerZones = await resolveCustomerZones({
    phone: contact.phone,
    textingNumber: texting.texting_number ?? undefined,
    configTimeZone: settings.timeZone,
    machineTimeZone: machineTimeZone(),
  });
  return { texting, threads, customerZones };
}
