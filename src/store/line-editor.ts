/**
 * A line of text being typed (the composer, a search): the text and a cursor,
 * edited by pure functions the store applies to its *current* state. Ink's
 * ink-text-input computes each edit from the value captured at its last
 * render, so several keys arriving before React re-renders overwrite each
 * other and typed characters are lost; here every key edits the latest text.
 *
 * The kills of a shell's line editor (ctrl-u, ctrl-w, ctrl-k, alt-d) return
 * what they cut, so that ctrl-y can put it back: no key press loses text.
 */

export interface LineText {
  text: string;
  /** Index in code units, always at a code point boundary. */
  cursor: number;
}

export const emptyLine: LineText = { text: '', cursor: 0 };

export function lineOf(text: string): LineText {
  return { text, cursor: text.length };
}

/**
 * A text that was not sent, put back where it was written: alone, or on its
 * own line before what was typed for the same contact since (the cursor stays
 * where it was in that). Never a second copy of it.
 */
export function withUnsentText(current: LineText | undefined, unsent: string): LineText {
  if (!current?.text) return lineOf(unsent);
  if (current.text.includes(unsent)) return current;
  return { text: `${unsent}\n${current.text}`, cursor: current.cursor + unsent.length + 1 };
}

export function insertText(line: LineText, input: string): LineText {
  return {
    text: line.text.slice(0, line.cursor) + input + line.text.slice(line.cursor),
    cursor: line.cursor + input.length,
  };
}

/** Length of the code point ending at `index` (2 for a surrogate pair). */
function pointBefore(text: string, index: number): number {
  if (index <= 0) return 0;
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
}

function pointAt(text: string, index: number): number {
  if (index >= text.length) return 0;
  const code = text.codePointAt(index) ?? 0;
  return code > 0xffff ? 2 : 1;
}

export function deleteBackward(line: LineText): LineText {
  const size = pointBefore(line.text, line.cursor);
  if (size === 0) return line;
  return {
    text: line.text.slice(0, line.cursor - size) + line.text.slice(line.cursor),
    cursor: line.cursor - size,
  };
}

export function deleteForward(line: LineText): LineText {
  const size = pointAt(line.text, line.cursor);
  if (size === 0) return line;
  return { text: line.text.slice(0, line.cursor) + line.text.slice(line.cursor + size), cursor: line.cursor };
}

export function moveLeft(line: LineText): LineText {
  return { ...line, cursor: line.cursor - pointBefore(line.text, line.cursor) };
}

export function moveRight(line: LineText): LineText {
  return { ...line, cursor: line.cursor + pointAt(line.text, line.cursor) };
}

export function moveHome(line: LineText): LineText {
  return { ...line, cursor: 0 };
}

export function moveEnd(line: LineText): LineText {
  return { ...line, cursor: line.text.length };
}

/** An edit that cuts text: the line after it, and what was cut (for ctrl-y). */
export interface Cut {
  line: LineText;
  cut: string;
}

/** Letters, digits and the marks written on them (an accent typed apart, Devanagari's vowel signs). */
const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** Where the word before the cursor starts (skipping the spaces and punctuation before it). */
export function wordStartBefore(text: string, index: number): number {
  const points = [...text.slice(0, index)];
  let at = points.length;
  while (at > 0 && !WORD.test(points[at - 1] as string)) at -= 1;
  while (at > 0 && WORD.test(points[at - 1] as string)) at -= 1;
  return points.slice(0, at).join('').length;
}

/** Where the word after the cursor ends (skipping what comes before it). */
export function wordEndAfter(text: string, index: number): number {
  const points = [...text.slice(index)];
  let at = 0;
  while (at < points.length && !WORD.test(points[at] as string)) at += 1;
  while (at < points.length && WORD.test(points[at] as string)) at += 1;
  return index + points.slice(0, at).join('').length;
}

export function moveWordLeft(line: LineText): LineText {
  return { ...line, cursor: wordStartBefore(line.text, line.cursor) };
}

export function moveWordRight(line: LineText): LineText {
  return { ...line, cursor: wordEndAfter(line.text, line.cursor) };
}

function cutRange(line: LineText, from: number, to: number): Cut {
  return {
    line: { text: line.text.slice(0, from) + line.text.slice(to), cursor: from },
    cut: line.text.slice(from, to),
  };
}

/** ctrl-u: everything before the cursor (on its line, when the text has several). */
export function killToStart(line: LineText): Cut {
  // lastIndexOf takes a negative start as 0 and would find a line break right at the cursor.
  const lineStart = line.cursor === 0 ? 0 : line.text.lastIndexOf('\n', line.cursor - 1) + 1;
  const from = lineStart === line.cursor && line.cursor > 0 ? line.cursor - 1 : lineStart;
  return cutRange(line, from, line.cursor);
}

/** ctrl-k: everything after the cursor (on its line). */
export function killToEnd(line: LineText): Cut {
  const lineEnd = line.text.indexOf('\n', line.cursor);
  const to = lineEnd === -1 ? line.text.length : lineEnd === line.cursor ? lineEnd + 1 : lineEnd;
  return cutRange(line, line.cursor, to);
}

/** ctrl-w, alt-backspace: the word before the cursor. */
export function killWordBackward(line: LineText): Cut {
  return cutRange(line, wordStartBefore(line.text, line.cursor), line.cursor);
}

/** alt-d: the word after the cursor. */
export function killWordForward(line: LineText): Cut {
  return cutRange(line, line.cursor, wordEndAfter(line.text, line.cursor));
}
