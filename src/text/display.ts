/**
 * Text as it may be drawn: sanitized (see sanitize.ts), cut to a length no
 * screen can show (a megabyte string costs nothing to draw), and fitted to
 * the terminal's column count (see terminal-width.ts).
 */
import { sanitize } from './sanitize.js';
import { fitTerminalWidth } from './terminal-width.js';

/** More than a 300×100 terminal holds: longer text is cut with "…". */
export const DISPLAY_MAX = 30_000;
/** Printable ASCII and line breaks: nothing to sanitize or fit. */
const SAFE = /^[\u0020-\u007E\n]*$/;

export function displayText(text: string): string {
  const capped =
    text.length > DISPLAY_MAX ? `${text.slice(0, DISPLAY_MAX).replace(/[\uD800-\uDBFF]$/, '')}…` : text;
  if (SAFE.test(capped)) return capped;
  return fitTerminalWidth(sanitize(capped));
}
