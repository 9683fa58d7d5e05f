/**
 * "New" marks of an inbox left open for weeks with nobody selecting
 * anything: each new lead, text, review and action adds one. They stay
 * bounded: a mark goes with its id once thousands of newer ids have been
 * seen (far more than any list page shows), and every mark is of an id
 * still known.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptySeen, KNOWN_LIMIT, observe, SEEN_KINDS, type SeenKind } from '../../src/store/seen.js';

describe('new marks over weeks', () => {
  it('at most KNOWN_LIMIT marks of a kind, each of an id still known', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom<SeenKind>('leads', 'inbound'),
            fc.integer({ min: 60, max: 100 }),
            fc.integer({ min: 0, max: 20 }), // how many of the page are already known ones
          ),
          // Thousands of ids of a kind: more than KNOWN_LIMIT.
          { minLength: 40, maxLength: 80 },
        ),
        (pages) => {
          let seen = emptySeen();
          let next = 0;
          for (const [kind, size, old] of pages) {
            const known = [...(seen.known[kind] ?? [])];
            const ids = Array.from({ length: size }, (_, index) =>
              index < old && known.length > 0 ? (known[index % known.length] ?? '') : `${kind}-${next++}`,
            );
            seen = observe(seen, kind, ids, next);
          }
          for (const kind of SEEN_KINDS) {
            const fresh = seen.fresh[kind];
            expect(fresh.size).toBeLessThanOrEqual(KNOWN_LIMIT);
            for (const id of fresh) expect(seen.known[kind]?.has(id)).toBe(true);
          }
          expect(seen.arrivedAt.size).toBe(SEEN_KINDS.reduce((sum, kind) => sum + seen.fresh[kind].size, 0));
        },
      ),
      // Each run is thousands of ids: the first counterexample is clear enough, without shrinking it.
      { numRuns: 30, endOnFailure: true },
    );
  });

  it('10,000 arrivals and nobody at the desk: the newest 2,000 marked', () => {
    let seen = observe(emptySeen(), 'leads', []);
    const arrivals = 10_000;
    for (let n = 0; n < arrivals; n += 100) {
      seen = observe(
        seen,
        'leads',
        Array.from({ length: 100 }, (_, index) => `lead-${n + index}`),
        n,
      );
    }
    expect(seen.fresh.leads.size).toBe(KNOWN_LIMIT);
    expect(seen.arrivedAt.size).toBe(KNOWN_LIMIT);
    expect(seen.fresh.leads.has(`lead-${arrivals - 1}`)).toBe(true);
    expect(seen.fresh.leads.has('lead-0')).toBe(false);
  });
});
