/**
 * The selection of a list is a record, not a row number: when a live list
 * changes under it (a new lead arrives at the top), the highlight stays on the
 * record staff were looking at, so every key acts on that record. When the
 * record leaves the list, the selection moves to its nearest neighbour and
 * the caller is told, so it can say so.
 */

export interface Selection {
  /** The selected record's id; undefined before the list first loads (then the first row). */
  id?: string;
  /** Where it was last seen: the neighbour's place if it leaves the list. */
  index: number;
  /** On the last row of a list that follows its end (a thread): new rows keep it on the last. */
  atEnd?: boolean;
}

export const noSelection: Selection = { index: 0 };

export interface ListShape<T> {
  rows: readonly T[];
  rowId: (row: T) => string;
  /** New rows keep a selection that was on the last row on the last row (a thread's newest text). */
  followsEnd?: boolean;
}

/** The index of the selected record, or where it was, kept inside the list. */
export function selectedIndexIn<T>(list: ListShape<T>, selection: Selection = noSelection): number {
  const { rows, rowId } = list;
  if (rows.length === 0) return 0;
  if (list.followsEnd && selection.atEnd) return rows.length - 1;
  if (selection.id !== undefined) {
    const at = rows.findIndex((row) => rowId(row) === selection.id);
    if (at !== -1) return at;
  }
  return clamp(selection.index, rows.length);
}

const clamp = (index: number, length: number) => Math.max(0, Math.min(length - 1, index));

/** The selection on row `index` (clamped). */
export function selectRow<T>(list: ListShape<T>, index: number): Selection {
  const { rows, rowId } = list;
  if (rows.length === 0) return { index: 0 };
  const at = clamp(index, rows.length);
  const row = rows[at] as T;
  return { id: rowId(row), index: at, ...(list.followsEnd && at === rows.length - 1 ? { atEnd: true } : {}) };
}

export interface Reconciled<T> {
  selection: Selection;
  /** The selected record left the list: what it was, and the neighbour now selected (if any). */
  left?: { id: string; now?: T };
}

/**
 * Brings a selection up to date with the list: the same record at its new
 * place, the first row when nothing was selected yet, the nearest neighbour
 * when the record left. Returns the same object when nothing changed.
 */
export function reconcileSelection<T>(list: ListShape<T>, selection: Selection = noSelection): Reconciled<T> {
  const { rows, rowId } = list;
  if (rows.length === 0) return { selection };
  if (list.followsEnd && selection.atEnd) {
    const last = rows.length - 1;
    const id = rowId(rows[last] as T);
    return id === selection.id && selection.index === last
      ? { selection }
      : { selection: { id, index: last, atEnd: true } };
  }
  if (selection.id === undefined) return { selection: selectRow(list, selection.index) };
  const at = rows.findIndex((row) => rowId(row) === selection.id);
  if (at !== -1) {
    return at === selection.index ? { selection } : { selection: { ...selection, index: at } };
  }
  // Gone: the row that took its place, or the new last row.
  const next = selectRow(list, selection.index);
  const now = rows[next.index];
  return { selection: next, left: { id: selection.id, ...(now !== undefined ? { now } : {}) } };
}
