/**
 * Clocks a test sets itself: "15:00 in America/Los_Angeles on 2026-11-21" as
 * an instant, whatever the machine's clock and time zone. A test whose result
 * depends on the time of day (quiet hours, "today", HH:MM on screen) takes its
 * time from here, never from the wall clock.
 */

/** The day the suite's clocks fall on unless a test names another (a Saturday, no DST change near it). */
export const TEST_DAY = '2026-11-21';

/** The time zone of the seed's customers: every seeded number is +1 503 or +1 971 (Oregon). */
export const SEED_CUSTOMER_ZONE = 'America/Los_Angeles';

/** What the wall clock of `zone` reads at `instant`, as if those digits were UTC. */
function wallClockAsUtc(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** The instant at which the wall clock in `zone` reads `hhmm` ("15:00") on `day` ("2026-11-21"). */
export function instantAt(zone: string, hhmm: string, day: string = TEST_DAY): number {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match || !date) throw new Error(`instantAt wants HH:MM and YYYY-MM-DD, got ${hhmm} and ${day}`);
  const wanted = Date.UTC(
    Number(date[1]),
    Number(date[2]) - 1,
    Number(date[3]),
    Number(match[1]),
    Number(match[2]),
  );
  // The zone's offset at a first guess, then at the answer itself (an offset change between the two).
  let instant = wanted - (wallClockAsUtc(wanted, zone) - wanted);
  instant = wanted - (wallClockAsUtc(instant, zone) - instant);
  if (wallClockAsUtc(instant, zone) !== wanted) throw new Error(`${day} ${hhmm} does not exist in ${zone}`);
  return instant;
}

export interface TestClock {
  /** For `now` options: always the same instant. */
  now: () => number;
  at: number;
}

/** A clock stopped at `hhmm` in `zone` on `day`. */
export function clockAt(zone: string, hhmm: string, day: string = TEST_DAY): TestClock {
  const at = instantAt(zone, hhmm, day);
  return { now: () => at, at };
}

/** Mid-afternoon for the seed's customers: no quiet-hours warning for any of them. */
export const seedCustomersAfternoon = (): TestClock => clockAt(SEED_CUSTOMER_ZONE, '15:00');
