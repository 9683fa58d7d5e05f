import fc from 'fast-check';
import { expect, it } from 'vitest';
import { escapeDelayFrom } from '../../../src/ui-kit/input/input-source.js';

it('ESCDELAY: a whole number of milliseconds from 1 to 2000 is the escape wait', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2_000 }), (ms) => {
      expect(escapeDelayFrom({ ESCDELAY: String(ms) })).toBe(ms);
      expect(escapeDelayFrom({ ESCDELAY: ` ${ms}\n` })).toBe(ms);
    }),
  );
});

it('ESCDELAY: anything else leaves the default', () => {
  for (const value of [undefined, '', '0', '2001', '-5', '1.5', '1e3', '100ms', 'abc', '0x10', ' ']) {
    expect(escapeDelayFrom({ ESCDELAY: value })).toBeUndefined();
  }
  fc.assert(
    fc.property(
      fc.string().filter((value) => !/^\s*\d+\s*$/.test(value)),
      (value) => {
        expect(escapeDelayFrom({ ESCDELAY: value })).toBeUndefined();
      },
    ),
  );
});
