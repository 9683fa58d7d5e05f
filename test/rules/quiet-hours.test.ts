/**
 * Quiet hours at the customer's location, as pure functions: the customer's
 * local time in every zone their number spans (quiet if quiet in any), the
 * chain that gives the shop's zone when the number's is not known (config,
 * texting number, machine), and the words that say where a zone comes from.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CustomerZones,
  customerZonesOf,
  type PhoneZonesState,
  type ShopZone,
  shopZoneOf,
} from '../../src/rules/customer-zones.js';
import type { PhoneZones } from '../../src/rules/phone-zones.js';
import { type PreSendFacts, preSendChecks, preSendSummary } from '../../src/rules/pre-send-checks.js';
import { customerTime } from '../../src/rules/quiet-hours.js';
import { instantAt } from '../support/clock.js';

const ZONES = Intl.supportedValuesOf('timeZone');
const zone = fc.constantFrom(...ZONES);
const instant = fc.integer({
  min: Date.parse('2026-01-01T00:00:00Z'),
  max: Date.parse('2028-01-01T00:00:00Z'),
});

/** The hour at an instant in a zone, read another way than the code does. */
const hourIn = (at: number, timeZone: string) =>
  Number(new Date(at).toLocaleString('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' })) % 24;

const numberIn = (...zones: string[]): CustomerZones => ({ from: 'number', zones, basis: 'area code' });

const facts = (now: number, customerZones: CustomerZones): PreSendFacts => ({
  body: 'See you at 3',
  consent: { given: true, recordedAt: '2026-10-02T10:00:00Z' },
  thread: [],
  texting: { number: '+15035550100', status: 'active' },
  now,
  customerZones,
});

describe("the customer's time", () => {
  it('is quiet when it is before 08:00 or from 21:00 in any of their zones (the strictest), and names each zone', () => {
    fc.assert(
      fc.property(instant, fc.uniqueArray(zone, { minLength: 1, maxLength: 4 }), (now, zones) => {
        const time = customerTime(now, numberIn(...zones));
        const quietIn = zones.filter((name) => hourIn(now, name) < 8 || hourIn(now, name) >= 21);
        expect(time.quiet).toBe(quietIn.length > 0);
        expect(time.times.filter((t) => t.quiet).map((t) => t.zone)).toEqual(quietIn);
        for (const name of zones) expect(time.text).toContain(name);
        const findings = preSendChecks(facts(now, numberIn(...zones)));
        const warning = findings.find((finding) => finding.check === 'quiet-hours');
        expect(warning?.level).toBe(quietIn.length > 0 ? 'warn' : undefined);
        if (warning && zones.length > 1)
          expect(warning.message).toContain(`It is quiet in ${quietIn.join(' and ')}.`);
      }),
      { numRuns: 300 },
    );
  });

  it('says the time and where the zone comes from: "22:14 for the customer (America/Denver, from the area code)"', () => {
    const at = instantAt('America/Denver', '22:14');
    expect(customerTime(at, numberIn('America/Denver')).text).toBe(
      '22:14 for the customer (America/Denver, from the area code)',
    );
    // Alaska's area code spans two zones an hour apart: at 21:30 in Anchorage it is 20:30 on Adak.
    const alaska = customerTime(
      instantAt('America/Anchorage', '21:30'),
      numberIn('America/Adak', 'America/Anchorage'),
    );
    expect(alaska.text).toBe(
      '20:30 in America/Adak or 21:30 in America/Anchorage for the customer (from the area code, which spans 2 zones)',
    );
    expect(alaska.quiet).toBe(true);
    const finding = preSendChecks(
      facts(instantAt('America/Anchorage', '21:30'), numberIn('America/Adak', 'America/Anchorage')),
    )[0];
    expect(finding?.message).toBe(
      'Quiet hours (08:00–21:00 their time): it is 20:30 in America/Adak or 21:30 in America/Anchorage for the customer (from the area code, which spans 2 zones). It is quiet in America/Anchorage.',
    );
    // An hour earlier neither is quiet.
    expect(
      customerTime(instantAt('America/Anchorage', '20:30'), numberIn('America/Adak', 'America/Anchorage'))
        .quiet,
    ).toBe(false);
    // The odd offsets: 15:00 in Kathmandu (UTC+5:45) is 23:00 in Chatham (UTC+13:45).
    const odd = customerTime(instantAt('Asia/Kathmandu', '15:00'), numberIn('Pacific/Chatham'));
    expect(odd).toMatchObject({
      quiet: true,
      text: '23:00 for the customer (Pacific/Chatham, from the area code)',
    });
    expect(customerTime(instantAt('Asia/Kathmandu', '07:59'), numberIn('Asia/Kathmandu')).quiet).toBe(true);
    expect(customerTime(instantAt('Asia/Kathmandu', '08:00'), numberIn('Asia/Kathmandu')).quiet).toBe(false);
    expect(customerTime(instantAt('Asia/Kathmandu', '20:59'), numberIn('Asia/Kathmandu')).quiet).toBe(false);
    expect(customerTime(instantAt('Asia/Kathmandu', '21:00'), numberIn('Asia/Kathmandu')).quiet).toBe(true);
  });
});

describe("the shop's zone and the fallback", () => {
  const placed = (zones: string[]): PhoneZones => ({ placed: true, zones, basis: 'area code' });
  const unplaced: PhoneZones[] = [
    { placed: false, why: 'unreadable' },
    { placed: false, why: 'country-wide' },
    { placed: false, why: 'no-data' },
  ];
  const lookupState: fc.Arbitrary<PhoneZonesState | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.constant('looking up' as const),
    fc.constantFrom(...unplaced),
    fc.uniqueArray(zone, { minLength: 1, maxLength: 3 }).map(placed),
  );

  it('is the config’s zone, else the texting number’s, else the machine’s', () => {
    fc.assert(
      fc.property(
        fc.option(zone, { nil: undefined }),
        lookupState,
        zone,
        (configured, textingNumber, machine) => {
          const shop = shopZoneOf({ configured, textingNumber, machine });
          if (configured) expect(shop).toEqual({ zones: [configured], source: 'config' });
          else if (textingNumber && textingNumber !== 'looking up' && textingNumber.placed)
            expect(shop).toEqual({ zones: textingNumber.zones, source: 'texting number' });
          else expect(shop).toEqual({ zones: [machine], source: 'machine' });
        },
      ),
    );
  });

  it('counts quiet hours in the number’s zones when it is placed, else in the shop’s, saying so', () => {
    fc.assert(
      fc.property(lookupState, zone, instant, (number, shopZone, now) => {
        const shop: ShopZone = { zones: [shopZone], source: 'config' };
        const customer = customerZonesOf(number, shop);
        const time = customerTime(now, customer);
        if (number && number !== 'looking up' && number.placed) {
          expect(customer).toEqual({ from: 'number', zones: number.zones, basis: 'area code' });
          expect(time.text).toMatch(/from the area code/);
        } else {
          expect(customer).toMatchObject({ from: 'shop', shop });
          expect(time.text).toContain(`(${shopZone}, the shop's zone from the config`);
          expect(time.quiet).toBe(hourIn(now, shopZone) < 8 || hourIn(now, shopZone) >= 21);
        }
      }),
    );
  });

  it('says why the shop’s zone is used, and which of the shop’s zones', () => {
    const at = instantAt('America/New_York', '23:14');
    const config: ShopZone = { zones: ['America/New_York'], source: 'config' };
    const texting: ShopZone = { zones: ['America/Los_Angeles'], source: 'texting number' };
    const machine: ShopZone = { zones: ['Asia/Kathmandu'], source: 'machine' };
    const text = (number: PhoneZonesState | undefined, shop: ShopZone) =>
      customerTime(at, customerZonesOf(number, shop)).text;
    expect(text(undefined, config)).toBe(
      "23:14 for the customer (America/New_York, the shop's zone from the config until the number's own is looked up)",
    );
    expect(text('looking up', texting)).toBe(
      "20:14 for the customer (America/Los_Angeles, the shop's zone from its texting number until the number's own is looked up)",
    );
    expect(text({ placed: false, why: 'country-wide' }, config)).toBe(
      "23:14 for the customer (America/New_York, the shop's zone from the config: the number does not say where (toll-free or not geographic))",
    );
    expect(text({ placed: false, why: 'unreadable' }, machine)).toBe(
      "09:59 for the customer (Asia/Kathmandu, this computer's zone: the number could not be read)",
    );
    expect(text({ placed: false, why: 'no-data' }, texting)).toBe(
      "20:14 for the customer (America/Los_Angeles, the shop's zone from its texting number: no zone is known for the number)",
    );
    expect(text({ placed: true, zones: ['Europe/London'], basis: 'country code' }, config)).toBe(
      '04:14 for the customer (Europe/London, from the country code)',
    );
  });
});

describe('the summary said whatever the findings', () => {
  it('always names the consent record and the customer’s time', () => {
    const record = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.record({ given: fc.boolean(), recordedAt: fc.constant('2026-10-02T10:00:00Z') }),
    );
    fc.assert(
      fc.property(record, instant, zone, fc.constantFrom('STOP', 'hello'), (consent, now, name, said) => {
        const summary = preSendSummary({
          ...facts(now, numberIn(name)),
          consent,
          thread: [{ direction: 'inbound', body: said, occurredAt: '2026-11-20T10:00:00Z' }],
        });
        const label =
          consent === undefined
            ? 'consent unknown'
            : consent === null
              ? 'no consent record'
              : consent.given
                ? 'consent given'
                : 'consent not given';
        expect(summary.consent.label).toBe(label);
        expect(summary.customerTime.text).toContain(`for the customer (${name}, from the area code)`);
      }),
    );
  });
});
