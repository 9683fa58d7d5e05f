/**
 * The customer's zones for one text, looked up now: for code that checks a
 * text outside the inbox's store (a command that sends one), the same chain as
 * the composer's: the number's zones, else the config's zone, else the shop's
 * texting number's, else this machine's.
 */
import { type CustomerZones, customerZonesOf, shopZoneOf } from './customer-zones.js';
import { lookupPhoneZones, type PhoneZoneLookup } from './phone-zones.js';

export interface CustomerZonesInput {
  phone: string;
  /** The shop's texting number (GET /texting), when it has one. */
  textingNumber?: string | undefined;
  /** "timezone" in the config. */
  configTimeZone?: string | undefined;
  machineTimeZone: string;
}

export async function resolveCustomerZones(
  input: CustomerZonesInput,
  lookup: PhoneZoneLookup = lookupPhoneZones,
): Promise<CustomerZones> {
  const [textingNumber, number] = await Promise.all([
    input.textingNumber && !input.configTimeZone ? lookup(input.textingNumber) : undefined,
    lookup(input.phone, { homeNumber: input.textingNumber }),
  ]);
  const shop = shopZoneOf({
    configured: input.configTimeZone,
    textingNumber,
    machine: input.machineTimeZone,
  });
  return customerZonesOf(number, shop);
}
