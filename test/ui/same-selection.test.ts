/**
 * A pane re-renders only when its selection of the store changes, decided by `sameSelection`: it must
 * decide as zustand's `shallow` (which the panes used before, and which builds a Map of each object's entries
 * at every comparison) on every kind of selection the panes make: objects, arrays, maps, sets and plain values,
 * equal, copied, or copied with one thing changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shallow } from 'zustand/shallow';
import { sameSelection } from '../../src/ui-kit/app-context.js';

const shared = { id: 'lead-1' };
const item = fc.oneof(
  fc.constantFrom<unknown>(0, -0, Number.NaN, 1, '', 'a', null, undefined, true, false, shared, [shared]),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  // A fresh object each time: equal contents, another reference.
  fc.constant(null).map(() => ({ id: 'lead-1' })),
);
const key = fc.constantFrom('a', 'b', 'c', 'lead', 'count', '0', 'constructor');

const selection = fc.oneof(
  item,
  fc.array(item, { maxLength: 4 }),
  fc.dictionary(key, item, { maxKeys: 4 }),
  fc.array(fc.tuple(item, item), { maxLength: 4 }).map((entries) => new Map(entries)),
  fc.array(item, { maxLength: 4 }).map((members) => new Set(members)),
);

/** The same selection again, a copy, or a copy with one thing changed, added or removed. */
function another(value: unknown, change: number, extra: unknown): unknown {
  if (typeof value !== 'object' || value === null) return change === 0 ? value : extra;
  const pick = change % 4;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (pick === 1) copy.push(extra);
    if (pick === 2) copy.pop();
    if (pick === 3 && copy.length > 0) copy[change % copy.length] = extra;
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map(value);
    if (pick === 1) copy.set(extra, extra);
    if (pick === 2) copy.delete([...copy.keys()][0]);
    if (pick === 3 && copy.size > 0) copy.set([...copy.keys()][0], extra);
    return copy;
  }
  if (value instanceof Set) {
    const copy = new Set(value);
    if (pick === 1) copy.add(extra);
    if (pick === 2) copy.delete([...copy][0]);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (pick === 1) copy[`k${change}`] = extra;
  if (pick === 2 && keys.length > 0) delete copy[keys[0] as string];
  if (pick === 3 && keys.length > 0) copy[keys[change % keys.length] as string] = extra;
  return copy;
}

describe('sameSelection', () => {
  it('decides as zustand’s shallow on selections, their copies and their changed copies', () => {
    fc.assert(
      fc.property(selection, fc.nat({ max: 11 }), item, fc.boolean(), (a, change, extra, same) => {
        const b = same ? a : another(a, change, extra);
        expect(sameSelection(a, b)).toBe(shallow(a, b));
        expect(sameSelection(b, a)).toBe(shallow(b, a));
      }),
      { numRuns: 20_000 },
    );
  });

  it('decides as zustand’s shallow between selections of different kinds', () => {
    fc.assert(
      fc.property(selection, selection, (a, b) => {
        expect(sameSelection(a, b)).toBe(shallow(a, b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('tells apart what a pane shows: a changed count, a key more, another record, another kind', () => {
    const lead = { id: 'lead-1' };
    expect(sameSelection({ count: 3, lead }, { count: 3, lead })).toBe(true);
    expect(sameSelection({ count: 3, lead }, { count: 4, lead })).toBe(false);
    expect(sameSelection({ count: 3 }, { count: 3, lead })).toBe(false);
    expect(sameSelection({ count: 3, lead: undefined }, { count: 3 })).toBe(false);
    expect(sameSelection({ lead: undefined }, { next: undefined })).toBe(false);
    expect(sameSelection({ lead }, { lead: { id: 'lead-1' } })).toBe(false);
    expect(sameSelection([lead], [lead])).toBe(true);
    expect(sameSelection([lead], { 0: lead })).toBe(false);
    expect(sameSelection(new Set([lead]), new Set([lead]))).toBe(true);
    expect(sameSelection(new Map([[1, lead]]), new Map([[1, { ...lead }]]))).toBe(false);
    expect(sameSelection(Number.NaN, Number.NaN)).toBe(true);
    expect(sameSelection(0, -0)).toBe(false);
  });
});
