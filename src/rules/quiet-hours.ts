/**
 * The customer's local time and whether it is quiet hours there, as a pure
 * function of an instant and the customer's zones. A number that spans several
 * zones is quiet when it is quiet in any of them (the strictest reading).
 */
import { type CustomerZones, zoneSourceText, zonesOf } from './customer-zones.js';

/** Before this hour and from QUIET_END_HOUR on, at the customer's location, texts wake people up. */
export const QUIET_START_HOUR = 8;
export const QUIET_END_HOUR = 21;

/** The hour and minute at `now` in a time zone (an unknown zone: UTC). */
export function localTime(now: number, timeZone: string): { hour: number; minute: number; label: string } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
  } catch {
    return localTime(now, 'UTC');
  }
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0) % 24;
  const minute = Number(parts.find((part) => part.type === 'minute')?.value ?? 0);
  return { hour, minute, label: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` };
}

export const isQuietHour = (hour: number): boolean => hour < QUIET_START_HOUR || hour >= QUIET_END_HOUR;

export interface ZoneTime {
  zone: string;
  /** "22:14" */
  label: string;
  quiet: boolean;
}

export interface CustomerTime {
  /** Each zone the customer may be in, with its time. */
  times: readonly ZoneTime[];
  /** Quiet in at least one of them. */
  quiet: boolean;
  /** "22:14 for the customer (America/Denver, from the area code)" */
  text: string;
}

export function customerTime(now: number, customer: CustomerZones): CustomerTime {
  const zones = zonesOf(customer);
  const times = zones.map((zone): ZoneTime => {
    const { hour, label } = localTime(now, zone);
    return { zone, label, quiet: isQuietHour(hour) };
  });
  const labels = [...new Set(times.map((time) => time.label))];
  const source = zoneSourceText(customer);
  const text =
    labels.length === 1
      ? `${labels[0]} for the customer (${zones.join(' or ')}, ${source})`
      : `${labels
          .map((label) => {
            const where = times.filter((time) => time.label === label).map((time) => time.zone);
            return `${label} in ${where.join(' or ')}`;
          })
          .join(' or ')} for the customer (${source})`;
  return { times, quiet: times.some((time) => time.quiet), text };
}
