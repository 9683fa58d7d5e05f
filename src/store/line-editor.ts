/**
 * A line of text being typed (the composer, a search): the text and a cursor,
 * edited by pure functions the store applies to its *current* state. Ink's
 * ink-text-input computes each edit from the value captured at its last
 * render, so several keys arriving before React re-renders overwrite each
 * other and typed characters are lost; here every key edits the latest text.
 *
 * No edit discards more than one character: there is no kill-line, because
 * nothing typed may be lost by a keystroke.
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
