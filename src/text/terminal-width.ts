/**
 * Makes text take the same number of columns in the terminal as Ink thinks
 * it takes. Ink measures a grapheme cluster as one emoji or one letter (and
 * gives every cluster at least one column); terminals and tmux measure code
 * point by code point: "👍🏽" is 2 columns to Ink and 4 to tmux 3.3a, "❤️" 2
 * to Ink and 1 to tmux, and a row with either pushes its border onto the
 * next line or pulls it in. For display only:
 * - skin-tone modifiers, variation selectors, the keycap mark and the joiners
 *   between pictographs are dropped ("👍🏽" shows as 👍, "❤️" as ❤, "1️⃣" as 1,
 *   a ZWJ family as its members side by side), as terminals without emoji
 *   joining show them;
 * - a cluster that takes no column at all (a zero-width space, a stray
 *   combining mark) is dropped, since Ink would give it one;
 * - any other cluster Ink and the terminal count differently is written so
 *   that they agree: regional indicators that make no flag apart, an Indic
 *   conjunct without its virama, and as a last resort the cluster's letters
 *   without their marks.
 * What staff type and what is sent are never changed by this.
 */
import stringWidth from 'string-width';

const EMOJI_MODIFIERS = /[\u{1F3FB}-\u{1F3FF}]/gu;
const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/g;
const KEYCAP = /\u20E3/g;
const JOINER_BETWEEN_PICTOGRAPHS = /(?<=\p{Extended_Pictographic})\u200D(?=\p{Extended_Pictographic})/gu;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;
/** The viramas of the Indic scripts and their neighbours: they join two consonants into one cluster. */
const VIRAMAS =
  /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D3B\u0D3C\u0D4D\u0DCA\u0E3A\u0F84\u1039\u103A\u1714\u1734\u17D2\u1A60\u1B44\u1BAA\u1BAB\uA806\uA8C4\uA953\uA9C0\uAAF6\uABED]/gu;
const MARKS = /\p{M}/gu;
/** Text every width table agrees on: printable ASCII, Latin letters without combining marks (and no soft hyphen, which terminals draw), arrows, box drawing. */
const PLAIN = /^[\u0020-\u007E\u00A0-\u00AC\u00AE-\u02FF\u2010-\u2027\u2190-\u21FF\u2500-\u25FF]*$/;

const segmenter = new Intl.Segmenter();
const cache = new Map<string, string>();
const CACHE_LIMIT = 4_000;

/** Columns a terminal gives a cluster: its code points one by one. */
function codePointWidth(cluster: string): number {
  let width = 0;
  for (const point of cluster) width += stringWidth(point);
  return width;
}

/** A cluster as Ink and the terminal both count it, or undefined when it takes no column. */
function agreeing(cluster: string): string | undefined {
  const width = stringWidth(cluster);
  if (width === 0) return undefined;
  if (width === codePointWidth(cluster)) return cluster;
  if (REGIONAL_INDICATOR.test(cluster)) return [...cluster].join(' ');
  const withoutVirama = cluster.replace(VIRAMAS, '');
  if (withoutVirama !== cluster) return withoutVirama;
  return cluster.replace(MARKS, '') || undefined;
}

function fitRound(text: string): string {
  let out = '';
  for (const { segment } of segmenter.segment(text)) out += agreeing(segment) ?? '';
  return out;
}

function fitted(text: string): string {
  let out = text
    .replace(EMOJI_MODIFIERS, '')
    .replace(VARIATION_SELECTORS, '')
    .replace(KEYCAP, '')
    .replace(JOINER_BETWEEN_PICTOGRAPHS, '');
  // A changed cluster can join its neighbours anew (three regional indicators): again until nothing changes.
  for (let round = 0; round < 4; round += 1) {
    const next = fitRound(out);
    if (next === out) break;
    out = next;
  }
  return out;
}

export function fitTerminalWidth(text: string): string {
  if (PLAIN.test(text)) return text;
  const known = cache.get(text);
  if (known !== undefined) return known;
  const result = text
    .split('\n')
    .map((line) => fitted(line))
    .join('\n');
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, result);
  return result;
}
