/**
 * How a recipient is named wherever one is (the send question, the status
 * line, the message log, the thread): "Tom Kowalski (+15035550117)". Two
 * customers can share a name, never a number, so the number is always said.
 * Both come from the service: sanitized to one line and capped, so a name can
 * neither break the line it is in nor fill the screen.
 */
import stringWidth from 'string-width';
import { displayText } from './display.js';
import { sanitize } from './sanitize.js';

export interface Recipient {
  name: string;
  phone: string;
}

/** Characters kept of a name and of a number (more says nothing a person can check). */
export const NAME_MAX = 80;
export const PHONE_MAX = 40;
/** Columns a cut name keeps at least ("T…"); with less room, the number is cut instead. */
const MIN_NAME_COLUMNS = 2;

const graphemes = new Intl.Segmenter();

/** Whole characters (grapheme clusters), at most `max`, the last one "…" when cut. */
function capped(text: string, max: number): string {
  // No more characters than code units: a text this short is whole without being segmented.
  if (text.length <= max) return text;
  const parts = Array.from(graphemes.segment(text), (part) => part.segment);
  return parts.length > max ? `${parts.slice(0, max - 1).join('')}…` : text;
}

/**
 * At most `columns` columns of text already fitted for display, cut between
 * whole characters and ended with "…". (cli-truncate, which Ink uses, can
 * give one column more when a wide character falls at the cut: "Tom👨…" in 5.)
 */
function cutToColumns(text: string, columns: number): string {
  if (stringWidth(text) <= columns) return text;
  if (columns <= 0) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const width = stringWidth(segment);
    if (used + width > columns - 1) break;
    kept += segment;
    used += width;
  }
  return `${kept.trimEnd()}…`;
}

const clean = (value: unknown, max: number) =>
  capped(sanitize(String(value ?? ''), { singleLine: true }).trim(), max);

/** "Tom Kowalski (+15035550117)"; the name or the number alone when the other is empty. */
export function recipientLabel(recipient: Recipient): string {
  const name = clean(recipient.name, NAME_MAX);
  const phone = clean(recipient.phone, PHONE_MAX);
  if (name && phone) return `${name} (${phone})`;
  return name || phone || 'a contact with no name or number';
}

/**
 * The label in at most `width` terminal columns, as it will be drawn: the
 * name gives way first ("Tom Kow… (+15035550117)"), the number only when not
 * even two columns of the name fit beside it.
 */
export function fittedRecipientLabel(recipient: Recipient, width: number): string {
  const columns = Math.max(0, Math.floor(width));
  const whole = displayText(recipientLabel(recipient));
  if (stringWidth(whole) <= columns) return whole;
  const name = displayText(clean(recipient.name, NAME_MAX));
  const phone = displayText(clean(recipient.phone, PHONE_MAX));
  const number = ` (${phone})`;
  const room = columns - stringWidth(number);
  if (name && phone && room >= MIN_NAME_COLUMNS) return `${cutToColumns(name, room)}${number}`;
  return cutToColumns(whole, columns);
}
