/**
 * Text that terminals and their libraries find hard to measure and cut: emoji, ZWJ sequences, flags, keycaps,
 * CJK, combining marks, invisible and control characters, box drawing, ANSI. The patched packages (string-width,
 * ansi-tokenize) are checked against the published ones on it.
 */
import fc from 'fast-check';

/** Pieces of text whose width is easy to get wrong. */
export const HARD_PIECES = [
  // Emoji shown as emoji by default, text-style ones with and without VS16, modifiers.
  '😀',
  '👍',
  '👍🏽',
  '🏽',
  '☺',
  '☺️',
  '❤',
  '❤️',
  '✔',
  '✔️',
  '⌚',
  '©',
  '©️',
  '™',
  '↔️',
  '🅰',
  '🅰️',
  // ZWJ sequences: RGI, not RGI (two pictographs), a dangling ZWJ.
  '👩‍💻',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🧑🏾‍🚀',
  '🐈‍⬛',
  '🦊‍🐢',
  '\u200D',
  'a\u200Db',
  // Flags, a lone regional indicator, a subdivision flag (tag sequence).
  '🇳🇵',
  '🇳🇿',
  '🇺',
  '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  // Keycaps: qualified, unqualified, not a keycap.
  '1️⃣',
  '#️⃣',
  '*⃣',
  '7⃣',
  'a⃣',
  // CJK, fullwidth and halfwidth forms, Hangul syllables and jamo.
  '漢字',
  '日本語',
  'ｶﾞ',
  'ＡＢ',
  '한국어',
  '\u1100\u1161\u11A8',
  '\u1100\u1100\u1161',
  // Combining marks, Devanagari, Thai, Arabic, zero-width and control characters.
  'e\u0301',
  'a\u0300\u0301\u0302',
  'क्षि',
  'नमस्ते',
  'ภาษาไทย',
  'مرحبا',
  '\u200B',
  '\u00AD',
  '\u0007',
  '\t',
  // Box drawing and symbols the inbox draws; ambiguous-width characters.
  '│',
  '─',
  '…',
  '·',
  '→',
  '°',
  '±',
  'α',
  '★',
  // ANSI: colours, bold, hyperlinks, C1 CSI.
  '\u001B[31m',
  '\u001B[1m',
  '\u001B[0m',
  '\u001B]8;;https://example.com\u0007',
  '\u009B32m',
  // Plain ASCII and digits (which are Emoji code points).
  'Ray Whitaker',
  '+15035551030',
  '0',
  '9',
  '#',
  '*',
  ' ',
];

export const hardText = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...HARD_PIECES) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 4 }) },
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));
