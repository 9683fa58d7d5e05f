/**
 * What to send a terminal to turn one row of the screen into another: only
 * the cells that changed. Ink's incremental renderer rewrites every changed
 * line whole; over SSH, moving the highlight one row cost two full 120-column
 * lines and the thread beside it, most of them unchanged. Used by the
 * patched Ink (patches/, plugged in by ink-drawing.ts), so every frame pays only for what
 * changed in it; and the frame drawn whole when what the screen shows is
 * not known (after a resize, ctrl-l).
 */
import { styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize';
import stringWidth from 'string-width';
import { FrameCache } from './frame-cache.js';

type StyledChar = ReturnType<typeof styledCharsFromTokens>[number];

const ESC = '\u001B';
const ERASE_TO_END = `${ESC}[K`;
const ERASE_LINE = `${ESC}[2K`;
const ERASE_BELOW = `${ESC}[J`;
const cursorToColumn = (column: number) => `${ESC}[${column + 1}G`;

/** A line's cells, and the columns each takes as Ink's renderer counts them (every cell at least one). */
interface LineCells {
  chars: StyledChar[];
  widths: number[];
}

/**
 * The cells of the lines of the last two frames (a line's previous text is always the last frame's).
 * A frame has a line per row; the limit only matters if frames stopped being counted.
 */
const cellsCache = new FrameCache<string, LineCells>(1_000);

function cellsOf(line: string): LineCells {
  let cells = cellsCache.get(line);
  if (cells === undefined) {
    const chars = styledCharsFromTokens(tokenize(line));
    cells = { chars, widths: chars.map((char) => Math.max(1, stringWidth(char.value))) };
    cellsCache.set(line, cells);
  }
  return cells;
}

/** Lines whose cells are kept (the tests check the bound). */
export const cachedLineCount = (): number => cellsCache.size;

function sameStyles(a: StyledChar, b: StyledChar): boolean {
  if (a.styles === b.styles) return true;
  if (a.styles.length !== b.styles.length) return false;
  return a.styles.every((style, index) => style.code === b.styles[index]?.code);
}

const sameChar = (a: StyledChar | undefined, b: StyledChar | undefined) =>
  a !== undefined && b !== undefined && a.value === b.value && sameStyles(a, b);

/** Columns taken by the cells from `from` up to (not including) `to`. */
function widthOf(cells: LineCells, from: number, to: number): number {
  let width = 0;
  for (let index = from; index < to; index += 1) width += cells.widths[index] ?? 1;
  return width;
}

/**
 * The bytes that turn a row showing `previous` into one showing `next` (both
 * as Ink renders them: styled text without a trailing line break), starting
 * from anywhere on that row. At most as many bytes as rewriting it whole.
 */
export function lineUpdate(previous: string, next: string): string {
  if (previous === next) return '';
  const whole = `${cursorToColumn(0)}${next}${ERASE_TO_END}`;
  const beforeCells = cellsOf(previous);
  const afterCells = cellsOf(next);
  const before = beforeCells.chars;
  const after = afterCells.chars;
  let start = 0;
  while (start < before.length && start < after.length && sameChar(before[start], after[start])) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    sameChar(before[before.length - 1 - end], after[after.length - 1 - end])
  )
    end += 1;
  // What follows the change keeps its place only if the change keeps its width.
  const keepsTail =
    end > 0 &&
    widthOf(beforeCells, start, before.length - end) === widthOf(afterCells, start, after.length - end);
  const written = keepsTail ? after.slice(start, after.length - end) : after.slice(start);
  const update =
    cursorToColumn(widthOf(afterCells, 0, start)) +
    (written.length > 0 ? styledCharsToString(written) : '') +
    (keepsTail ? '' : ERASE_TO_END);
  return update.length < whole.length ? update : whole;
}

/**
 * A whole frame (rows joined by line breaks, as Ink renders it) drawn over whatever the screen shows,
 * without relying on where the cursor is, on what the terminal holds or on the terminal turning a
 * line feed into a new line: from the top left, each row erased as it is written, everything below
 * the frame erased (from the start of its last row, never from a cursor left in the last column,
 * where an erase would take that column's character).
 */
export function wholeScreen(frame: string): string {
  const rows = frame.split('\n');
  const last = rows.length - 1;
  return `${ESC}[0m${ESC}[H${rows.map((row, index) => `${index === last ? ERASE_BELOW : ERASE_LINE}${row}`).join('\r\n')}`;
}

/** Runs of "next line" moves (rows left as they were) as one move: ESC[E ESC[E ESC[E is ESC[3E. */
const LINE_MOVES = new RegExp(`(?:${ESC}\\[E){2,}`, 'g');

export function collapseLineMoves(output: string): string {
  return output.replace(LINE_MOVES, (run) => `${ESC}[${run.length / 3}E`);
}
