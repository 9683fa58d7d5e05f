/**
 * A phone number's time zone(s) from libphonenumber's map, with the real
 * libraries: North American area codes (one zone, or several), numbers the
 * map places only by their country, numbers written without their country
 * code, and anything else a server could send (never a throw). Then the chain
 * for one text outside the inbox (resolveCustomerZones) and the inbox's
 * lookups, made only once a composer opens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookupPhoneZones } from '../../src/rules/phone-zones.js';
import { resolveCustomerZones } from '../../src/rules/resolve-customer-zones.js';
import { followPhoneZones } from '../../src/session/follow-phone-zones.js';
import { createAppStore } from '../../src/store/app-store.js';
import { until } from '../support/until.js';

/**
 * Area codes wholly in one zone, as the map has them (every exchange 200–999 of each checked). Not 541: most of
 * Oregon's east and south is Pacific, but Malheur County's exchanges are on Mountain time (below).
 */
const ONE_ZONE: Record<string, string> = {
  '503': 'America/Los_Angeles',
  '971': 'America/Los_Angeles',
  '206': 'America/Los_Angeles',
  '303': 'America/Denver',
  '720': 'America/Denver',
  '602': 'America/Phoenix',
  '312': 'America/Chicago',
  '212': 'America/New_York',
  '808': 'Pacific/Honolulu',
};

const subscriber = fc.stringMatching(/^[2-9]\d{6}$/);

describe('the zone of a number', () => {
  it('a North American number is placed by its area code', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(ONE_ZONE)), subscriber, async (areaCode, rest) => {
        expect(await lookupPhoneZones(`+1${areaCode}${rest}`)).toEqual({
          placed: true,
          zones: [ONE_ZONE[areaCode]],
          basis: 'area code',
        });
      }),
      { numRuns: 60 },
    );
  });

  it('an area code the map splits by exchange gives each exchange its zone: Malheur County in 541', async () => {
    for (const exchange of ['372', '473', '881', '889']) {
      expect(await lookupPhoneZones(`+1541${exchange}0123`)).toEqual({
        placed: true,
        zones: ['America/Denver'],
        basis: 'area code',
      });
    }
    expect(await lookupPhoneZones('+15413820123')).toEqual({
      placed: true,
      zones: ['America/Los_Angeles'],
      basis: 'area code',
    });
  });

  it('an area code that spans zones gives them all', async () => {
    expect(await lookupPhoneZones('+19075550123')).toEqual({
      placed: true,
      zones: ['America/Adak', 'America/Anchorage'],
      basis: 'area code',
    });
  });

  it('a toll-free number does not say where the customer is', async () => {
    for (const number of ['+18005550123', '+18885550123', '+18775550123']) {
      expect(await lookupPhoneZones(number)).toEqual({ placed: false, why: 'country-wide' });
    }
  });

  it('a country with one zone places the number by its country code; others by their prefix', async () => {
    expect(await lookupPhoneZones('+9771 4412345')).toEqual({
      placed: true,
      zones: ['Asia/Katmandu'],
      basis: 'country code',
    });
    expect(await lookupPhoneZones('+49 30 123456')).toEqual({
      placed: true,
      zones: ['Europe/Berlin'],
      basis: 'country code',
    });
    // +44 is also Jersey's, Guernsey's and the Isle of Man's: London's 20 says which.
    expect(await lookupPhoneZones('+442079460000')).toEqual({
      placed: true,
      zones: ['Europe/London'],
      basis: 'prefix',
    });
    expect(await lookupPhoneZones('+61 2 1234 5678')).toEqual({
      placed: true,
      zones: ['Australia/Sydney'],
      basis: 'prefix',
    });
  });

  it('a number without its country code is read in the country of the shop’s number', async () => {
    expect(await lookupPhoneZones('(303) 555-0142', { homeNumber: '+15035550100' })).toEqual({
      placed: true,
      zones: ['America/Denver'],
      basis: 'area code',
    });
    expect(await lookupPhoneZones('(303) 555-0142')).toEqual({ placed: false, why: 'unreadable' });
    for (const text of ['12', 'ext. 12', '+1 ()', 'not a number'])
      expect(await lookupPhoneZones(text, { homeNumber: '+15035550100' })).toEqual({
        placed: false,
        why: 'unreadable',
      });
  });

  it('anything a server may send gives an answer, never a throw; every zone it names is one Intl knows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.stringMatching(/^\+?[\d ()-]{0,18}$/), fc.string({ unit: 'binary' })),
        async (text) => {
          const zones = await lookupPhoneZones(text, { homeNumber: '+15035550100' });
          if (zones.placed) {
            expect(zones.zones.length).toBeGreaterThan(0);
            for (const zone of zones.zones)
              expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
          } else expect(['unreadable', 'country-wide', 'no-data']).toContain(zones.why);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the customer’s zones for one text (outside the inbox)', () => {
  it('the number’s zone; else the config’s, the texting number’s or the machine’s, saying which', async () => {
    const machine = 'Asia/Kathmandu';
    expect(
      await resolveCustomerZones({
        phone: '+13035550142',
        textingNumber: '+15035550100',
        machineTimeZone: machine,
      }),
    ).toEqual({
      from: 'number',
      zones: ['America/Denver'],
      basis: 'area code',
    });
    expect(
      await resolveCustomerZones({
        phone: '+18005550123',
        textingNumber: '+15035550100',
        configTimeZone: 'America/New_York',
        machineTimeZone: machine,
      }),
    ).toEqual({ from: 'shop', shop: { zones: ['America/New_York'], source: 'config' }, why: 'country-wide' });
    expect(
      await resolveCustomerZones({
        phone: 'ext. 12',
        textingNumber: '+15035550100',
        machineTimeZone: machine,
      }),
    ).toEqual({
      from: 'shop',
      shop: { zones: ['America/Los_Angeles'], source: 'texting number' },
      why: 'unreadable',
    });
    expect(await resolveCustomerZones({ phone: '+18005550123', machineTimeZone: machine })).toEqual({
      from: 'shop',
      shop: { zones: [machine], source: 'machine' },
      why: 'country-wide',
    });
  });
});

describe('the inbox’s lookups', () => {
  it('look nothing up until a composer opens; then the recipient’s number and, without a config zone, the texting number', async () => {
    const store = createAppStore({ machineTimeZone: 'UTC' });
    const stop = followPhoneZones(store);
    store.setState({ texting: { data: textingSetup('+15035550100'), updatedAt: 1, loading: false } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().phoneZones).toEqual({});

    store.setState({ composer: { contactId: 'c1', name: 'Dana', phone: '+13035550142' } });
    expect(store.getState().phoneZones['+13035550142']).toBe('looking up');
    await until(() => (store.getState().phoneZones['+13035550142'] !== 'looking up' ? true : undefined));
    expect(store.getState().phoneZones).toEqual({
      '+13035550142': { placed: true, zones: ['America/Denver'], basis: 'area code' },
      '+15035550100': { placed: true, zones: ['America/Los_Angeles'], basis: 'area code' },
    });
    stop();

    const configured = createAppStore({ timeZone: 'America/New_York', machineTimeZone: 'UTC' });
    const stopConfigured = followPhoneZones(configured);
    configured.setState({
      texting: { data: textingSetup('+15035550100'), updatedAt: 1, loading: false },
      composer: { contactId: 'c1', name: 'Dana', phone: '+13035550142' },
    });
    await until(() => (configured.getState().phoneZones['+13035550142'] !== 'looking up' ? true : undefined));
    expect(Object.keys(configured.getState().phoneZones)).toEqual(['+13035550142']);
    stopConfigured();
  });
});

function textingSetup(number: string) {
  return {
    texting_number: number,
    texting_status: 'active',
    campaign_approved: true,
    forwarding_verified_at: '2026-10-01T00:00:00Z',
  };
}
