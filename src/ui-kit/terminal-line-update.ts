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

/**
 * The cells of the lines of the last two frames (a line's previous text is always the last frame's).
 * A frame has a line per row; the limit only matters if frames stopped being counted.
 */
const charsCache = new FrameCache<string, StyledChar[]>(1_000);

function charsOf(line: string): StyledChar[] {
  let chars = charsCache.get(line);
  if (chars === undefined) {
    chars = styledCharsFromTokens(tokenize(line));
    charsCache.set(line, chars);
  }
  return chars;
}

/** Lines whose cells are kept (the tests check the bound). */
export const cachedLineCount = (): number => charsCache.size;

/** Columns a cell takes, as Ink's renderer counts them (every cell at least one). */
const cellWidth = (char: StyledChar) => Math.max(1, stringWidth(char.value));

function sameStyles(a: StyledChar, b: StyledChar): boolean {
  if (a.styles.length !== b.styles.length) return false;
  return a.styles.every((style, index) => style.code === b.styles[index]?.code);
}

const sameChar = (a: StyledChar | undefined, b: StyledChar | undefined) =>
  a !== undefined && b !== undefined && a.value === b.value && sameStyles(a, b);

const widthOf = (chars: readonly StyledChar[]) => chars.reduce((sum, char) => sum + cellWidth(char), 0);

/**
 * The bytes that turn a row showing `previous` into one showing `next` (both
 * as Ink renders them: styled text without a trailing line break), starting
 * from anywhere on that row. At most as many bytes as rewriting it whole.
 */
export function lineUpdate(previous: string, next: string): string {
  const whole = `${cursorToColumn(0)}${next}${ERASE_TO_END}`;
  if (previous === next) return '';
  const before = charsOf(previous);
  const after = charsOf(next);
  let start = 0;
  while (start < before.length && start < after.length && sameChar(before[start], after[start])) start += 1;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    sameChar(before[before.length - 1 - end], after[after.length - 1 - end])
  )
    end += 1;
  const changedBefore = before.slice(start, before.length - end);
  const changedAfter = after.slice(start, after.length - end);
  // What follows the change keeps its place only if the change keeps its width.
  const keepsTail = end > 0 && widthOf(changedBefore) === widthOf(changedAfter);
  const written = keepsTail ? changedAfter : after.slice(start);
  const update =
    cursorToColumn(widthOf(after.slice(0, start))) +
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
