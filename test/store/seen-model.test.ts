/**
 * "New" marks against a model: the first copy of each list is the baseline
 * (nothing is new at start-up), every later id not seen before is new from
 * the moment it was seen, a mark goes when staff select or open its item, or
 * after a while on a screen nobody works at; what was known stays bounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptySeen,
  fadeSeen,
  markItemsSeen,
  markSeen,
  observe,
  SEEN_KINDS,
  type SeenKind,
  type SeenState,
} from '../../src/store/seen.js';

const someKind = fc.constantFrom(...SEEN_KINDS);
const someIds = fc.array(
  fc.integer({ min: 0, max: 12 }).map((n) => `id${n}`),
  { maxLength: 8 },
);

type Step =
  | { kind: 'observe'; list: SeenKind; ids: string[]; after: number }
  | { kind: 'select'; list: SeenKind; ids: string[] }
  | { kind: 'all seen'; lists: SeenKind[] }
  | { kind: 'fade'; maxAgeMs: number; after: number };

const someStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('observe'),
      list: someKind,
      ids: someIds,
      after: fc.nat(5_000),
    }),
  },
  fc.record({ kind: fc.constant('select'), list: someKind, ids: someIds }),
  fc.record({ kind: fc.constant('all seen'), lists: fc.subarray([...SEEN_KINDS]) }),
  fc.record({
    kind: fc.constant('fade'),
    maxAgeMs: fc.integer({ min: 1, max: 10_000 }),
    after: fc.nat(5_000),
  }),
) as fc.Arbitrary<Step>;

/** The rules, written out plainly: per list, what was seen, and the new ids with when they came. */
class Model {
  known = new Map<SeenKind, Set<string>>();
  fresh = new Map<SeenKind, Map<string, number>>(SEEN_KINDS.map((kind) => [kind, new Map()]));

  apply(step: Step, now: number): void {
    const fresh = (list: SeenKind) => this.fresh.get(list) as Map<string, number>;
    switch (step.kind) {
      case 'observe': {
        const known = this.known.get(step.list);
        if (!known) {
          this.known.set(step.list, new Set(step.ids));
          return;
        }
        for (const id of step.ids) {
          if (known.has(id)) continue;
          known.add(id);
          fresh(step.list).set(id, now);
        }
        return;
      }
      case 'select':
        for (const id of step.ids) fresh(step.list).delete(id);
        return;
      case 'all seen':
        for (const list of step.lists) fresh(list).clear();
        return;
      case 'fade':
        for (const kind of SEEN_KINDS)
          for (const [id, at] of fresh(kind)) if (now - at >= step.maxAgeMs) fresh(kind).delete(id);
    }
  }
}

function run(seen: SeenState, step: Step, now: number): SeenState {
  switch (step.kind) {
    case 'observe':
      return observe(seen, step.list, step.ids, now);
    case 'select':
      return markItemsSeen(seen, step.list, step.ids);
    case 'all seen':
      return markSeen(seen, step.lists);
    case 'fade':
      return fadeSeen(seen, step.maxAgeMs, now);
  }
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

describe('new marks', () => {
  it('follow the rules under any sequence of reads, selections and fades', () => {
    fc.assert(
      fc.property(fc.array(someStep, { maxLength: 30 }), (steps) => {
        const model = new Model();
        let seen = emptySeen();
        let now = 1_000_000;
        for (const step of steps) {
          if ('after' in step) now += step.after;
          const before = seen;
          seen = run(seen, step, now);
          model.apply(step, now);
          for (const kind of SEEN_KINDS) {
            const expected = model.fresh.get(kind) as Map<string, number>;
            expect(sorted(seen.fresh[kind]), `${kind} after ${JSON.stringify(step)}`).toEqual(
              sorted(expected.keys()),
            );
            for (const [id, at] of expected) expect(seen.arrivedAt.get(`${kind}:${id}`)).toBe(at);
          }
          // Only the marks staff can see are kept with their time.
          const marked = SEEN_KINDS.reduce((total, kind) => total + seen.fresh[kind].size, 0);
          expect(seen.arrivedAt.size).toBe(marked);
          // Nothing changed, nothing new: the same object (the screen does not redraw for it).
          const changed = SEEN_KINDS.some(
            (kind) =>
              sorted(before.fresh[kind]).join() !== sorted(seen.fresh[kind]).join() ||
              before.known[kind]?.size !== seen.known[kind]?.size,
          );
          if (!changed) expect(seen).toBe(before);
        }
      }),
    );
  });

  it('go for the lists staff looked at, and only those', () => {
    let seen = emptySeen();
    for (const kind of SEEN_KINDS) seen = observe(observe(seen, kind, ['old'], 0), kind, ['old', 'new'], 1);
    seen = markSeen(seen, ['leads', 'reviews']);
    expect(SEEN_KINDS.filter((kind) => seen.fresh[kind].has('new'))).toEqual(['inbound', 'actions']);
  });

  it('fade on a read-only screen once they are exactly as old as the fade time, not a moment before', () => {
    const seen = observe(observe(emptySeen(), 'inbound', ['a'], 0), 'inbound', ['a', 'b'], 1_000);
    expect(fadeSeen(seen, 30_000, 30_999)).toBe(seen);
    expect(fadeSeen(seen, 30_000, 31_000).fresh.inbound.size).toBe(0);
  });

  it('mark nothing on the first copy of a list, however many ids it has', () => {
    fc.assert(
      fc.property(someKind, someIds, (kind, ids) => {
        const seen = observe(emptySeen(), kind, ids, 0);
        expect(seen.fresh[kind].size).toBe(0);
        expect(sorted(seen.known[kind] ?? [])).toEqual(sorted(new Set(ids)));
      }),
    );
  });

  it('remember a bounded number of ids, the newest kept, in a process that runs for days', () => {
    let seen = observe(emptySeen(), 'leads', ['first'], 0);
    for (let batch = 0; batch < 25; batch += 1) {
      const ids = Array.from({ length: 100 }, (_, index) => `lead${batch * 100 + index}`);
      seen = observe(seen, 'leads', ids, batch);
      seen = markSeen(seen, ['leads']);
    }
    expect(seen.known.leads?.size).toBeLessThanOrEqual(2_000);
    // The latest page is still known: read again, nothing in it is new.
    const latest = Array.from({ length: 100 }, (_, index) => `lead${2_400 + index}`);
    expect(observe(seen, 'leads', latest, 99)).toBe(seen);
  });
});
