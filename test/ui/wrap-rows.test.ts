/**
 * The composer's rows for any text and width: every character is on exactly
 * one row (a line break ends a row and is on none), no row is wider than the
 * box in terminal cells (save a space hanging at a full row's end, or one
 * character wider than the whole box), rows break after a space when one
 * fits, and the cursor's row holds the cursor.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { displayText } from '../../src/text/display.js';
import { cursorRowOf, scrollTo, type WrappedRow, wrapRows } from '../../src/ui-kit/wrap-rows.js';

const piece = fc.constantFrom(
  'a',
  'word',
  'Rivera',
  ' ',
  ' ',
  '\n',
  '😀',
  '中文',
  'e\u0301',
  '👍🏽',
  '\u0007',
  '-',
  'नमस्ते',
);
const someText = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
const someWidth = fc.integer({ min: 1, max: 24 });

const segmenter = new Intl.Segmenter();
const clusters = (text: string) => [...segmenter.segment(text)].map(({ segment }) => segment);
/** Cells a text takes on screen as drawn (sanitized, fitted). */
const cells = (text: string) => stringWidth(displayText(text));

/** Columns as the composer counts them: each character as drawn, at least one. */
const columns = (text: string) =>
  clusters(text).reduce((sum, cluster) => sum + Math.max(1, cells(cluster)), 0);

const rowText = (text: string, row: WrappedRow) => text.slice(row.start, row.end);

describe('wrapRows', () => {
  it('puts every character on exactly one row, in order; line breaks end rows', () => {
    fc.assert(
      fc.property(someText, someWidth, (text, width) => {
        const rows = wrapRows(text, width);
        let at = 0;
        for (const row of rows) {
          expect(row.start).toBe(at);
          expect(row.end).toBeGreaterThanOrEqual(row.start);
          at = row.end;
          if (row.lineEnd && at < text.length) {
            expect(text[at]).toBe('\n');
            at += 1;
          }
          expect(rowText(text, row)).not.toContain('\n');
        }
        expect(at).toBe(text.length);
        expect(rows.filter((row) => row.lineEnd)).toHaveLength(text.split('\n').length);
        expect(rows.at(-1)?.lineEnd).toBe(true);
      }),
    );
  });

  it('never makes a row wider than the box, but for a space hanging at its end or one character wider than the box', () => {
    fc.assert(
      fc.property(someText, someWidth, (text, width) => {
        for (const row of wrapRows(text, width)) {
          const shown = rowText(text, row);
          const drawn = !row.lineEnd && shown.endsWith(' ') ? shown.slice(0, -1) : shown;
          if (clusters(drawn).length <= 1) continue;
          expect(cells(drawn), JSON.stringify({ shown, width })).toBeLessThanOrEqual(width);
        }
      }),
    );
  });

  it('breaks after the last space that fits: a row cut inside a word has no space to break at', () => {
    fc.assert(
      fc.property(someText, someWidth, (text, width) => {
        const rows = wrapRows(text, width);
        rows.forEach((row, index) => {
          if (row.lineEnd) return;
          const shown = rowText(text, row);
          if (!shown.endsWith(' '))
            expect(shown.trimStart(), JSON.stringify({ shown, width })).not.toContain(' ');
          // The row is full: the next row's first word (or, cut inside a word, its first character) would not fit.
          const next = rowText(text, rows[index + 1] as WrappedRow);
          const carried = shown.endsWith(' ') ? (next.split(' ')[0] ?? '') : (clusters(next)[0] ?? '');
          if (carried !== '')
            expect(columns(shown) + columns(carried), JSON.stringify({ shown, next, width })).toBeGreaterThan(
              width,
            );
        });
      }),
    );
  });

  it('never draws a wide character past the edge: when the word carried from the last space leaves no room, the row ends before it', () => {
    const rows = (text: string, width: number) => wrapRows(text, width).map((row) => rowText(text, row));
    expect(rows(' a中中', 4)).toEqual([' a中', '中']);
    expect(rows('ok 中文字', 4)).toEqual(['ok ', '中文', '字']);
    expect(rows('abcd efgh', 4)).toEqual(['abcd ', 'efgh']);
  });

  it("finds the cursor's row anywhere in the text: the row holds it, at a wrap it shows at the next row's start", () => {
    fc.assert(
      fc.property(
        someText.chain((text) => fc.tuple(fc.constant(text), fc.nat(text.length))),
        someWidth,
        ([text, cursor], width) => {
          const rows = wrapRows(text, width);
          const index = cursorRowOf(rows, cursor);
          const row = rows[index] as WrappedRow;
          expect(row.start).toBeLessThanOrEqual(cursor);
          expect(cursor).toBeLessThanOrEqual(row.end);
          if (cursor === row.end) expect(row.lineEnd).toBe(true);
        },
      ),
    );
  });
});

describe('scrollTo', () => {
  it("keeps the cursor's row in view, moving as little as possible", () => {
    fc.assert(
      fc.property(
        fc.nat(40),
        fc.nat(40),
        fc.integer({ min: 1, max: 10 }),
        fc.nat(40),
        (total, row, visible, top) => {
          fc.pre(row < Math.max(1, total));
          const next = scrollTo(top, row, visible, total);
          expect(next).toBeGreaterThanOrEqual(0);
          expect(row).toBeGreaterThanOrEqual(next);
          expect(row).toBeLessThan(next + visible);
          // Where the old top already showed the row (and the list does not end above the box), it stays.
          if (row >= top && row < top + visible && top <= Math.max(0, total - visible))
            expect(next).toBe(top);
        },
      ),
    );
  });
});
