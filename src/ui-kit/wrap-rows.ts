/**
 * A text being typed, cut into the rows a box of some width shows, so that
 * the composer can grow with its text, keep the cursor's row on screen and
 * draw the cursor where it is. Rows break at the last space that fits, else
 * inside the word; a line break always starts a row. Positions are code-unit
 * indices into the text, never into what is drawn.
 */
import stringWidth from 'string-width';
import { displayText } from '../text/display.js';

export interface WrappedRow {
  /** Index of the row's first character. */
  start: number;
  /** Index just after its last character (a line break that ends it is not part of it). */
  end: number;
  /** The row ends a line (a line break, or the end of the text), not a wrap. */
  lineEnd: boolean;
}

const segmenter = new Intl.Segmenter();

/** Columns a cluster takes on screen, as drawn (sanitized and fitted), at least one. */
function columnsOf(cluster: string): number {
  return Math.max(1, stringWidth(displayText(cluster)));
}

export function wrapRows(text: string, width: number): WrappedRow[] {
  const columns = Math.max(1, width);
  const rows: WrappedRow[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    let rowStart = lineStart;
    let used = 0;
    /** Where the row may break: just after the last space seen in it. */
    let breakAt: number | undefined;
    let usedAtBreak = 0;
    for (const { segment, index } of segmenter.segment(line)) {
      const at = lineStart + index;
      const size = columnsOf(segment);
      if (segment === ' ' && used + size > columns && at > rowStart) {
        // A space where the row is full ends the row (it hangs past the edge, as in any editor).
        rows.push({ start: rowStart, end: at + 1, lineEnd: false });
        used = 0;
        rowStart = at + 1;
        breakAt = undefined;
        continue;
      }
      if (used + size > columns && at > rowStart) {
        // At the last space, unless the word carried over leaves no room for this (wide) character either.
        const carried = used - usedAtBreak + size;
        if (breakAt !== undefined && breakAt > rowStart && breakAt <= at && carried <= columns) {
          rows.push({ start: rowStart, end: breakAt, lineEnd: false });
          used -= usedAtBreak;
          rowStart = breakAt;
        } else {
          rows.push({ start: rowStart, end: at, lineEnd: false });
          used = 0;
          rowStart = at;
        }
        breakAt = undefined;
      }
      used += size;
      if (segment === ' ') {
        breakAt = at + 1;
        usedAtBreak = used;
      }
    }
    rows.push({ start: rowStart, end: lineStart + line.length, lineEnd: true });
    lineStart += line.length + 1;
  }
  return rows;
}

/** The row the cursor is on: at the end of a wrapped row it shows at the start of the next. */
export function cursorRowOf(rows: readonly WrappedRow[], cursor: number): number {
  const index = rows.findIndex(
    (row) => cursor >= row.start && (cursor < row.end || (cursor === row.end && row.lineEnd)),
  );
  return index === -1 ? Math.max(0, rows.length - 1) : index;
}

/** The first row to show so that the cursor's row is in view, moving as little as possible from `top`. */
export function scrollTo(top: number, cursorRow: number, visible: number, total: number): number {
  const rows = Math.max(1, visible);
  let next = Math.min(top, Math.max(0, total - rows));
  if (cursorRow < next) next = cursorRow;
  if (cursorRow >= next + rows) next = cursorRow - rows + 1;
  return Math.max(0, next);
}
