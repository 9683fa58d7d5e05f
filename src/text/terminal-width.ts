/**
 * Makes text take the same number of columns in every terminal as Ink thinks
 * it takes. Ink measures a grapheme cluster as one emoji or one letter;
 * terminals and tmux measure code point by code point: "👍🏽" is 2 columns to
 * Ink and 4 to tmux 3.3a, "❤️" 2 to Ink and 1 to tmux, and a row with either
 * pushes its border to the next line or pulls it in. For display only:
 * - skin-tone modifiers, variation selectors and the joiners between
 *   pictographs are dropped ("👍🏽" shows as 👍, "❤️" as ❤, a ZWJ family as its
 *   members side by side), as terminals without emoji joining show them;
 * - any other cluster whose width Ink and the terminal count differently is
 *   split into its code points with zero-width spaces, so both count them one
 *   by one (a Devanagari conjunct, a keycap, a pair of regional indicators
 *   that is no flag).
 * What staff type and what is sent are never changed by this.
 */
import stringWidth from 'string-width';

const EMOJI_MODIFIERS = /[\u{1F3FB}-\u{1F3FF}]/gu;
const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/g;
const JOINER_BETWEEN_PICTOGRAPHS = /(?<=\p{Extended_Pictographic})\u200D(?=\p{Extended_Pictographic})/gu;
const ZERO_WIDTH_SPACE = '\u200B';
const SPACING_MARK = /\p{Mc}/u;
/** Text every width table agrees on: printable ASCII and Latin letters without combining marks. */
const PLAIN = /^[\u0020-\u007E\u00A0-\u02FF\u2010-\u2027\u2190-\u21FF\u2500-\u25FF]*$/;

const segmenter = new Intl.Segmenter();
const cache = new Map<string, string>();
const CACHE_LIMIT = 4_000;

function codePointWidth(cluster: string): number {
  let width = 0;
  for (const point of cluster) width += stringWidth(point);
  return width;
}

/**
 * A cluster to split: Ink's width differs from the code points' sum, or it
 * holds a spacing mark (Indic vowel signs), which Ink's wrapping measures
 * with an older table than its layout does.
 */
const needsSplit = (segment: string) =>
  segment.length > 1 && (SPACING_MARK.test(segment) || stringWidth(segment) !== codePointWidth(segment));

function splitOnce(text: string): string {
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    out += needsSplit(segment) ? [...segment].join(ZERO_WIDTH_SPACE) : segment;
  }
  return out;
}

function fitted(text: string): string {
  let out = text
    .replace(EMOJI_MODIFIERS, '')
    .replace(VARIATION_SELECTORS, '')
    .replace(JOINER_BETWEEN_PICTOGRAPHS, '');
  // Splitting can pair what follows anew (three regional indicators): again until nothing changes.
  for (let round = 0; round < 4; round += 1) {
    const next = splitOnce(out);
    if (next === out) break;
    out = next;
  }
  return out;
}

export function fitTerminalWidth(text: string): string {
  if (PLAIN.test(text)) return text;
  const known = cache.get(text);
  if (known !== undefined) return known;
  const result = fitted(text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, result);
  return result;
}
