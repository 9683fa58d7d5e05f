/**
 * What may enter a text staff type (a text to a customer, a search, the
 * palette's query): printable characters and, where the text has lines,
 * line breaks. Controls, escape bytes and invisible bidi overrides never get
 * in, whatever a key or a paste carried; tabs become a space.
 */

/** Bidi embedding, override and isolate controls: invisible, and they reorder what the customer reads. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** Every C0 and C1 control and DEL except the line break (\p{Cc} is exactly those). */
const CONTROLS_BUT_LINE_BREAK = /(?!\n)\p{Cc}/gu;
/** Half of a surrogate pair with no other half: not a character. */
const LONE_SURROGATES = /\p{Cs}/gu;

export function insertableText(text: string, options: { multiline: boolean }): string {
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROLS_BUT_LINE_BREAK, '')
    .replace(BIDI_CONTROLS, '')
    .replace(LONE_SURROGATES, '');
  return options.multiline ? cleaned : cleaned.replace(/\n+/g, ' ');
}
