/**
 * The Inbox's and Reviews' filters set case and accents aside: staff type plain letters ("renee", "zoe")
 * for names written with them, and the other way round.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matches } from '../../src/store/selectors.js';

describe('a filter', () => {
  it('finds a name written with accents from plain letters, and the other way round', () => {
    expect(matches('renee', 'Renée Dubois')).toBe(true);
    expect(matches('zoe', 'Zoë Martin')).toBe(true);
    expect(matches('Zoë', 'Zoe Martin')).toBe(true);
    expect(matches('JOSE', 'José Ñúñez')).toBe(true);
    expect(matches('nunez', 'José Ñúñez')).toBe(true);
    // Decomposed accents as some keyboards and pastes send them.
    expect(matches('Rene\u0301e', 'Renée')).toBe(true);
    expect(matches('renee', 'Rene\u0301e')).toBe(true);
    expect(matches('rené', 'Ray Whitaker', 'water heater')).toBe(false);
    // Phone digits still match whatever the formatting.
    expect(matches('(503) 555-01', 'Sam', '+15035550105')).toBe(true);
  });

  it('a name always finds itself, and itself typed without its accents', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), (name) => {
        fc.pre(name.trim() !== '');
        expect(matches(name, name)).toBe(true);
        // Typed without its marks (NFD, then each mark left out): found too.
        expect(matches(name.normalize('NFD').replace(/\p{M}/gu, ''), name)).toBe(true);
      }),
    );
  });
});
