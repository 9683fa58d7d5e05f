/**
 * The one gate every piece of API text passes before it reaches the terminal.
 * Names, message bodies, review text and summaries are customer data: a text
 * message can carry escape sequences that clear the screen, retitle the
 * window, or reorder what staff read (bidi overrides). Keep what people
 * write (any script, emoji, ZWJ sequences), make every control visible.
 */
import stripAnsi from 'strip-ansi';

/** Shown in place of a bidi control or a C1 control: visible, but not a glyph that can be confused with text. */
const REPLACEMENT = '\uFFFD';
const TAB_SPACES = '  ';

/** Bidi embedding, override and isolate controls, the LRM/RLM marks and the Arabic letter mark. */
const BIDI = '\\u202A-\\u202E\\u2066-\\u2069\\u200E\\u200F\\u061C';
const BIDI_CONTROLS = new RegExp(`[${BIDI}]`, 'g');
/** The line and paragraph separators, read as line breaks. */
const SEPARATORS = '\\u2028\\u2029';
const SEPARATOR = new RegExp(`[${SEPARATORS}]`, 'g');

/** A C0 control or DEL as its Unicode "control picture" (␛, ␇, ␍, ␡); C1 as the replacement character. */
function visibleControl(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return REPLACEMENT;
}

export interface SanitizeOptions {
  /** Turn line breaks into spaces, for one-line rows. */
  singleLine?: boolean;
}

/**
 * What any step below can change: escape sequences start with ESC or a C1 control, line breaks and tabs
 * are controls too. Text without these (nearly every name, number and message) is returned as it is,
 * without the six passes.
 */
const NEEDS_A_CHANGE = new RegExp(`[\\p{Cc}${SEPARATORS}${BIDI}]`, 'u');

export function sanitize(text: string, options: SanitizeOptions = {}): string {
  if (!NEEDS_A_CHANGE.test(text)) return text;
  let out = stripAnsi(text)
    .replace(/\r\n/g, '\n')
    .replace(SEPARATOR, '\n')
    .replace(/\t/g, TAB_SPACES)
    .replace(BIDI_CONTROLS, REPLACEMENT)
    .replace(/(?!\n)\p{Cc}/gu, visibleControl);
  if (options.singleLine) out = out.replace(/\n+/g, ' ');
  return out;
}
