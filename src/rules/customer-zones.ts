/**
 * Which time zone(s) quiet hours are counted in, and where they come from,
 * as pure functions of what is known.
 *
 * The hours that count are the customer's (TCPA: 08:00–21:00 at the called
 * party's location): the zones of their number's area code. A number whose
 * zone is not known (yet) falls back to the shop's zone, which is, in order:
 * "timezone" in the config, the zone of the shop's texting number, this
 * machine's zone.
 */
import type { PhoneZones, UnplacedWhy, ZoneBasis } from './phone-zones.js';

/** A number's zones as far as they are known: the lookup's answer, or still being looked up. */
export type PhoneZonesState = PhoneZones | 'looking up';

export type ShopZoneSource = 'config' | 'texting number' | 'machine';

export interface ShopZone {
  /** One zone, or several when the shop's texting number spans several (each counts). */
  zones: readonly string[];
  source: ShopZoneSource;
}

export type CustomerZones =
  /** From the customer's own number. */
  | { from: 'number'; zones: readonly string[]; basis: ZoneBasis }
  /** The shop's zone, and why the number's own is not used. */
  | { from: 'shop'; shop: ShopZone; why: UnplacedWhy | 'looking up' };

export interface ShopZoneInput {
  /** "timezone" in config.json. */
  configured?: string | undefined;
  /** The zones of the shop's texting number, when it is known and looked up. */
  textingNumber?: PhoneZonesState | undefined;
  /** This machine's zone. */
  machine: string;
}

export function shopZoneOf({ configured, textingNumber, machine }: ShopZoneInput): ShopZone {
  if (configured) return { zones: [configured], source: 'config' };
  if (textingNumber && textingNumber !== 'looking up' && textingNumber.placed)
    return { zones: textingNumber.zones, source: 'texting number' };
  return { zones: [machine], source: 'machine' };
}

/** The customer's zones: their number's when it is placed, else the shop's (undefined: not looked up yet). */
export function customerZonesOf(number: PhoneZonesState | undefined, shop: ShopZone): CustomerZones {
  if (number === undefined || number === 'looking up') return { from: 'shop', shop, why: 'looking up' };
  if (number.placed) return { from: 'number', zones: number.zones, basis: number.basis };
  return { from: 'shop', shop, why: number.why };
}

export const zonesOf = (customer: CustomerZones): readonly string[] =>
  customer.from === 'number' ? customer.zones : customer.shop.zones;

const BASIS_TEXT: Record<ZoneBasis, string> = {
  'area code': 'from the area code',
  prefix: "from the number's prefix",
  'country code': 'from the country code',
};

const SHOP_SOURCE_TEXT: Record<ShopZoneSource, string> = {
  config: "the shop's zone from the config",
  'texting number': "the shop's zone from its texting number",
  machine: "this computer's zone",
};

const WHY_TEXT: Record<UnplacedWhy | 'looking up', string> = {
  'looking up': " until the number's own is looked up",
  unreadable: ': the number could not be read',
  'country-wide': ': the number does not say where (toll-free or not geographic)',
  'no-data': ': no zone is known for the number',
};

/** Where the zones come from, in a few words: "from the area code", "the shop's zone from the config: …". */
export function zoneSourceText(customer: CustomerZones): string {
  if (customer.from === 'number') {
    const spans = customer.zones.length > 1 ? `, which spans ${customer.zones.length} zones` : '';
    return `${BASIS_TEXT[customer.basis]}${spans}`;
  }
  return `${SHOP_SOURCE_TEXT[customer.shop.source]}${WHY_TEXT[customer.why]}`;
}
