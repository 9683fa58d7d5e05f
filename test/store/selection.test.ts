/**
 * A selection is a record, not a row number: under any change of a list, the
 * highlight stays on the same record at its new place; when that record
 * leaves, it moves to the row that took its place (or the new last row) and
 * says which record left; a list that follows its end keeps the last row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ListShape,
  noSelection,
  reconcileSelection,
  type Selection,
  selectedIndexIn,
  selectRow,
} from '../../src/store/selection.js';

interface Row {
  id: string;
}

/** A list of distinct records, drawn from a small pool so that two lists share many. */
const someRows = fc
  .uniqueArray(fc.integer({ min: 0, max: 25 }), { maxLength: 20 })
  .map((ids) => ids.map((id): Row => ({ id: `r${id}` })));
const listOf = (rows: readonly Row[], followsEnd = false): ListShape<Row> => ({
  rows,
  rowId: (row) => row.id,
  ...(followsEnd ? { followsEnd } : {}),
});

/** A list, a record selected in it (by its place), and the list some time later. */
const change = fc
  .record({ before: someRows.filter((rows) => rows.length > 0), after: someRows, pick: fc.nat() })
  .map(({ before, after, pick }) => {
    const index = pick % before.length;
    return { before, after, index, selection: selectRow(listOf(before), index) };
  });

describe('reconcileSelection', () => {
  it('keeps the same record, at its new place, when it is still in the list', () => {
    fc.assert(
      fc.property(change, ({ after, selection }) => {
        const at = after.findIndex((row) => row.id === selection.id);
        fc.pre(at !== -1);
        const { selection: next, left } = reconcileSelection(listOf(after), selection);
        expect(next.id).toBe(selection.id);
        expect(next.index).toBe(at);
        expect(left).toBeUndefined();
      }),
    );
  });

  it("moves to the row that took a removed record's place (or the new last row), and says which left", () => {
    fc.assert(
      fc.property(change, ({ after, index, selection }) => {
        fc.pre(after.length > 0 && !after.some((row) => row.id === selection.id));
        const neighbour = Math.min(index, after.length - 1);
        const { selection: next, left } = reconcileSelection(listOf(after), selection);
        expect(next).toEqual({ id: after[neighbour]?.id, index: neighbour });
        expect(left).toEqual({ id: selection.id, now: after[neighbour] });
      }),
    );
  });

  it('leaves the selection as it is while the list is empty, and finds the record again when it comes back', () => {
    fc.assert(
      fc.property(change, ({ before, selection }) => {
        const empty = reconcileSelection(listOf([]), selection);
        expect(empty.selection).toBe(selection);
        expect(empty.left).toBeUndefined();
        expect(reconcileSelection(listOf(before), empty.selection).selection).toEqual(selection);
      }),
    );
  });

  it('returns the same selection object when nothing moved (no re-render for nothing)', () => {
    fc.assert(
      fc.property(change, ({ before, selection }) => {
        expect(reconcileSelection(listOf(before), selection).selection).toBe(selection);
      }),
    );
  });

  it('before the first load selects the first row, or the place it was asked for', () => {
    fc.assert(
      fc.property(
        someRows.filter((rows) => rows.length > 0),
        fc.nat(30),
        (rows, index) => {
          expect(reconcileSelection(listOf(rows)).selection).toEqual({ id: rows[0]?.id, index: 0 });
          const at = Math.min(index, rows.length - 1);
          expect(reconcileSelection(listOf(rows), { index }).selection).toEqual({
            id: rows[at]?.id,
            index: at,
          });
        },
      ),
    );
  });

  it('in a list that follows its end, the last row stays selected as rows arrive', () => {
    fc.assert(
      fc.property(change, ({ before, after }) => {
        fc.pre(after.length > 0);
        const last = selectRow(listOf(before, true), before.length - 1);
        expect(last.atEnd).toBe(true);
        const { selection: next, left } = reconcileSelection(listOf(after, true), last);
        expect(next).toEqual({ id: after.at(-1)?.id, index: after.length - 1, atEnd: true });
        expect(left).toBeUndefined();
      }),
    );
  });

  it('agrees with selectedIndexIn, which the panes use to draw the highlight', () => {
    fc.assert(
      fc.property(change, fc.boolean(), ({ after, selection }, followsEnd) => {
        fc.pre(after.length > 0);
        const list = listOf(after, followsEnd);
        expect(selectedIndexIn(list, selection)).toBe(reconcileSelection(list, selection).selection.index);
      }),
    );
  });
});

describe('selectRow', () => {
  it('selects the record on a row, any row number kept inside the list', () => {
    fc.assert(
      fc.property(someRows, fc.integer({ min: -5, max: 40 }), fc.boolean(), (rows, index, followsEnd) => {
        const selection: Selection = selectRow(listOf(rows, followsEnd), index);
        if (rows.length === 0) {
          expect(selection).toEqual(noSelection);
          return;
        }
        const at = Math.max(0, Math.min(rows.length - 1, index));
        expect(selection.id).toBe(rows[at]?.id);
        expect(selection.index).toBe(at);
        expect(Boolean(selection.atEnd)).toBe(followsEnd && at === rows.length - 1);
        expect(selectedIndexIn(listOf(rows, followsEnd), selection)).toBe(at);
      }),
    );
  });
});
