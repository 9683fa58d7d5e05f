/**
 * The facts the pre-send checks need, taken from what the inbox has read:
 * the consent record, every text of the contact's threads, the texting
 * setup, the time and the customer's time zone(s), and the texts that arrived
 * since the composer opened.
 */
import type { Message } from '../contract/resources.js';
import { type CustomerZones, customerZonesOf, shopZoneOf } from '../rules/customer-zones.js';
import type { KnownText, PreSendFacts } from '../rules/pre-send-checks.js';
import type { AppState, ComposerTarget } from '../store/app-store.js';
import { consentFor } from '../store/selectors.js';

type Known = Pick<AppState, 'leads' | 'texting' | 'me' | 'configTimeZone' | 'machineTimeZone' | 'phoneZones'>;

export function contactTexts(state: Pick<AppState, 'leads'>, contactId: string): Message[] {
  const byId = new Map<string, Message>();
  for (const lead of Object.values(state.leads)) {
    if (lead.data?.contact.id !== contactId) continue;
    for (const message of lead.data.messages) byId.set(message.id, message);
  }
  return [...byId.values()];
}

const known = (message: Message): KnownText => ({
  direction: String(message.direction),
  body: message.body,
  occurredAt: message.occurred_at,
});

/** GET /texting as read, else the header's texting pulse; undefined when neither was read. */
function textingOf(state: Pick<AppState, 'texting' | 'me'>): PreSendFacts['texting'] {
  const setup = state.texting.data;
  if (setup) return { number: setup.texting_number, status: String(setup.texting_status) };
  const pulse = state.me.data?.texting_pulse;
  if (pulse) return { number: pulse.texting_number, status: String(pulse.texting_status) };
  return undefined;
}

/** The shop's texting number, as GET /texting or the header's pulse gave it (undefined: none, or not read). */
export function shopTextingNumber(state: Pick<AppState, 'texting' | 'me'>): string | undefined {
  return textingOf(state)?.number ?? undefined;
}

/** The zones quiet hours are counted in for this phone, from the lookups the store holds so far. */
export function customerZonesFor(state: Known, phone: string): CustomerZones {
  const textingNumber = shopTextingNumber(state);
  const shop = shopZoneOf({
    configured: state.configTimeZone,
    textingNumber: textingNumber ? state.phoneZones[textingNumber] : undefined,
    machine: state.machineTimeZone,
  });
  return customerZonesOf(state.phoneZones[phone], shop);
}

/** Texts of the contact's threads that were not there when the composer opened. */
export function arrivedSince(state: Pick<AppState, 'leads'>, target: ComposerTarget): Message[] {
  if (!target.seenTextIds) return [];
  const seen = new Set(target.seenTextIds);
  return contactTexts(state, target.contactId).filter((message) => !seen.has(message.id));
}

export function preSendFacts(state: Known, target: ComposerTarget, body: string, now: number): PreSendFacts {
  return {
    body,
    consent: target.consent !== undefined ? target.consent : consentFor(state, target.contactId),
    thread: contactTexts(state, target.contactId).map(known),
    texting: textingOf(state),
    now,
    customerZones: customerZonesFor(state, target.phone),
    arrivedSince: arrivedSince(state, target).map(known),
  };
}

/** The target with what is in its threads now counted as seen (the composer opens, or staff saw the new texts). */
export function withSeenTexts(state: Pick<AppState, 'leads'>, target: ComposerTarget): ComposerTarget {
  const read = Object.values(state.leads).some((lead) => lead.data?.contact.id === target.contactId);
  if (!read) return target;
  const ids = contactTexts(state, target.contactId).map((message) => message.id);
  return { ...target, seenTextIds: [...new Set([...(target.seenTextIds ?? []), ...ids])] };
}
