/** The suite's clock helper: the instant it gives reads the asked time in the asked zone, in any zone. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantAt } from './clock.js';

const ZONES = Intl.supportedValuesOf('timeZone');

const wallClock = (instant: number, zone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);

describe('instantAt', () => {
  it('gives the instant at which the zone’s wall clock reads that day and time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2027-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (zone, hour, minute, date) => {
          const day = date.toISOString().slice(0, 10);
          const hhmm = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          let instant: number;
          try {
            instant = instantAt(zone, hhmm, day);
          } catch {
            // Only a time skipped by a change of offset (spring forward) may be refused: no minute of the day reads it.
            const around = Date.parse(`${day}T${hhmm}:00Z`);
            for (let at = around - 15 * 3_600_000; at <= around + 15 * 3_600_000; at += 60_000) {
              expect(wallClock(at, zone)).not.toBe(`${day} ${hhmm}`);
            }
            return;
          }
          expect(wallClock(instant, zone)).toBe(`${day} ${hhmm}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('knows the odd offsets and the days offsets change', () => {
    expect(new Date(instantAt('Asia/Kathmandu', '15:00')).toISOString()).toBe('2026-11-21T09:15:00.000Z');
    expect(new Date(instantAt('Pacific/Chatham', '03:00')).toISOString()).toBe('2026-11-20T13:15:00.000Z');
    // 2026-03-08: Los Angeles moves from UTC−8 to UTC−7 at 02:00.
    expect(new Date(instantAt('America/Los_Angeles', '15:00', '2026-03-08')).toISOString()).toBe(
      '2026-03-08T22:00:00.000Z',
    );
    expect(new Date(instantAt('America/Los_Angeles', '03:00', '2026-03-08')).toISOString()).toBe(
      '2026-03-08T10:00:00.000Z',
    );
    expect(() => instantAt('America/Los_Angeles', '02:30', '2026-03-08')).toThrow(/does not exist/);
  });
});
