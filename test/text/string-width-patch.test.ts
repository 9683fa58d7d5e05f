/**
 * string-width is patched (patches/string-width+8.3.0.patch) to test its emoji expressions only on clusters
 * that can be emoji, each against the one part of RGI_Emoji its shape allows, and to count text of narrow
 * characters that never join a cluster (box drawing, Latin, punctuation) by its length; as published it
 * segments every non-ASCII string Ink measures and tests `^\p{RGI_Emoji}$`, built at load, on every cluster. The patch must change the cost and nothing else: here the patched package (node_modules, as the
 * bundle and the tests run it) and the package as published (a copy with the patches taken out, as the
 * benchmark's references are built) give the same width on many strings made of what terminals find hard.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedCopy } from '../../scripts/ink-patches.mjs';
import { HARD_PIECES, hardText } from '../support/hard-text.js';

type StringWidth = typeof stringWidth;

// Inside node_modules, so that the copy's own imports (strip-ansi, get-east-asian-width) resolve as usual.
const copy = resolve('node_modules', '.cache', `shop-inbox-string-width-as-shipped-${process.pid}`);
let published: StringWidth;

beforeAll(async () => {
  await shippedCopy(copy);
  const url = pathToFileURL(join(copy, 'node_modules', 'string-width', 'index.js')).href;
  published = ((await import(url)) as { default: StringWidth }).default;
}, 60_000);
afterAll(async () => {
  await rm(copy, { recursive: true, force: true });
});

describe('string-width as patched', () => {
  it('gives the published width on hard pieces one by one', () => {
    for (const piece of HARD_PIECES) {
      expect(stringWidth(piece), JSON.stringify(piece)).toBe(published(piece));
      expect(stringWidth(piece, { ambiguousIsNarrow: false }), JSON.stringify(piece)).toBe(
        published(piece, { ambiguousIsNarrow: false }),
      );
    }
  });

  it('gives the published width on strings of emoji, ZWJ sequences, flags, keycaps, CJK, marks and ANSI', () => {
    fc.assert(
      fc.property(hardText, fc.boolean(), fc.boolean(), (text, ambiguousIsNarrow, countAnsiEscapeCodes) => {
        const options = { ambiguousIsNarrow, countAnsiEscapeCodes };
        expect(stringWidth(text, options)).toBe(published(text, options));
      }),
      { numRuns: 10_000 },
    );
  });

  it('gives the published width on every code point where emoji, marks and CJK live: alone, with VS16, after a letter', () => {
    const ranges = [
      [0x00_00, 0x33_ff], // Latin to CJK symbols: marks, arrows, dingbats, keycap bases, ©, ™, ⌚
      [0xfe_00, 0xff_ff], // variation selectors, halfwidth and fullwidth forms
      [0x1_f0_00, 0x1_fb_ff], // emoji, regional indicators, modifiers
      [0xe_00_00, 0xe_00_7f], // tags
    ];
    for (const [from = 0, to = 0] of ranges) {
      for (let codePoint = from; codePoint <= to; codePoint += 1) {
        if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
        const character = String.fromCodePoint(codePoint);
        for (const text of [character, `${character}\uFE0F`, `é${character}`]) {
          if (stringWidth(text) !== published(text))
            expect(JSON.stringify(text)).toBe(`width ${published(text)}`);
        }
      }
    }
  });

  it('gives the published width on every shape of emoji sequence: modifiers, flags, keycaps, tags, ZWJ', () => {
    // The patch tests each cluster against the one part of RGI_Emoji its shape allows; here each part's
    // shape, with members and non-members, and a count of members so that no part goes untested.
    // biome-ignore lint/complexity/useRegexLiterals: TypeScript's target does not know the v flag's literal.
    const rgi = new RegExp('^\\p{RGI_Emoji}$', 'v');
    const emoji: string[] = [];
    for (let codePoint = 0x20; codePoint <= 0x1_fb_ff; codePoint += 1) {
      if (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) continue;
      const character = String.fromCodePoint(codePoint);
      if (/\p{Emoji}/u.test(character)) emoji.push(character);
    }
    const modifiers = ['\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
    const indicators = Array.from({ length: 26 }, (_, index) => String.fromCodePoint(0x1_f1_e6 + index));
    const tag = (text: string) =>
      [...text].map((letter) => String.fromCodePoint(0xe_00_00 + letter.charCodeAt(0))).join('');
    const shapes = {
      modifier: [...emoji.flatMap((base) => modifiers.map((modifier) => `${base}${modifier}`)), 'a\u{1F3FB}'],
      flag: [...indicators.flatMap((first) => indicators.map((second) => `${first}${second}`)), '\u{1F1FA}a'],
      keycap: ['0123456789#*a'].flatMap((bases) =>
        [...bases].flatMap((base) => [`${base}\u20E3`, `${base}\uFE0F\u20E3`, `${base}\uFE0E\u20E3`]),
      ),
      tag: ['gbeng', 'gbsct', 'gbwls', 'usca', 'gb', 'zzzzz'].flatMap((region) => [
        `\u{1F3F4}${tag(region)}\u{E007F}`,
        `\u{1F3F4}${tag(region)}`,
        `\u{1F6A9}${tag(region)}\u{E007F}`,
      ]),
      zwj: [
        ...[
          '👩',
          '👨',
          '🧑',
          '👧',
          '👦',
          '❤️',
          '💋',
          '🔥',
          '🦰',
          '🦱',
          '💻',
          '🚀',
          '⬛',
          '❄️',
          '🌈',
          '☠️',
          '🤝',
          '🗨️',
        ].flatMap((second) =>
          ['👩', '👨', '🧑', '👩🏽', '🧑🏿', '❤️', '🏳️', '🏴', '🐈', '🐻', '👁️'].map(
            (first) => `${first}\u200D${second}`,
          ),
        ),
        '👨‍👩‍👧‍👦',
        '👩‍❤️‍👨',
        '👩‍❤️‍💋‍👨',
        '🧑‍🤝‍🧑',
        '👁️‍🗨️',
        'a\u200D👩',
      ],
      'presentation (VS16)': emoji.map((base) => `${base}\uFE0F`),
    };
    for (const [shape, texts] of Object.entries(shapes)) {
      const members = texts.filter((text) => rgi.test(text)).length;
      expect(members, `RGI members among the ${shape} sequences`).toBeGreaterThan(shape === 'tag' ? 2 : 10);
      for (const text of texts) {
        for (const candidate of [text, `a${text}b`]) {
          if (stringWidth(candidate) !== published(candidate))
            expect(JSON.stringify(candidate)).toBe(`width ${published(candidate)} (${shape})`);
        }
      }
    }
  });

  it('gives the published width on text from the first ten thousand code points, side by side in any order', () => {
    // Where the count-by-length path and its neighbours live: Latin, Greek, Cyrillic, combining marks,
    // punctuation, invisible characters, arrows, box drawing, shapes, and emoji among the symbols.
    const nearText = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x27_bf }).map((codePoint) => String.fromCodePoint(codePoint)),
      maxLength: 12,
    });
    fc.assert(
      fc.property(nearText, fc.boolean(), (text, ambiguousIsNarrow) => {
        expect(stringWidth(text, { ambiguousIsNarrow })).toBe(published(text, { ambiguousIsNarrow }));
      }),
      { numRuns: 20_000 },
    );
    for (let codePoint = 0x20; codePoint <= 0x27_bf; codePoint += 1) {
      const character = String.fromCodePoint(codePoint);
      for (const text of [`${character}${character}`, `─${character}│`, `${character}\u0301`]) {
        if (stringWidth(text) !== published(text))
          expect(JSON.stringify(text)).toBe(`width ${published(text)}`);
      }
    }
  });
});
