import fc from 'fast-check';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { sanitize } from '../src/text/sanitize.js';

/** Every step, on every text: what sanitize did before text with nothing to change was returned as it is. */
function everyStep(text: string, singleLine: boolean): string {
  const out = stripAnsi(text)
    .replace(/\r\n/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\t/g, '  ')
    .replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g, '\uFFFD')
    .replace(/(?!\n)\p{Cc}/gu, (char) => {
      const code = char.codePointAt(0) ?? 0;
      if (code < 0x20) return String.fromCodePoint(0x2400 + code);
      return code === 0x7f ? '\u2421' : '\uFFFD';
    });
  return singleLine ? out.replace(/\n+/g, ' ') : out;
}

/** Text of any script beside every character some step changes, each alone and in sequences. */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'Tom ',
          'Zoë',
          '李',
          '👨‍👩‍👧',
          '\u001b[31m',
          '\u001b]0;x\u0007',
          '\u009b2J',
          '\u009d0;t\u009c',
          '[1m',
        ),
        fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
        fc.constantFrom(
          '\u2028',
          '\u2029',
          '\u202a',
          '\u202e',
          '\u2066',
          '\u2069',
          '\u200e',
          '\u200f',
          '\u061c',
          '\u200d',
        ),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join('')),
);

describe('sanitize: customer text on a terminal', () => {
  it('gives what every step gives, for any text, on one line or not (text with nothing to change skips them)', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, singleLine) => {
        expect(sanitize(text, { singleLine })).toBe(everyStep(text, singleLine));
      }),
      { numRuns: 5_000 },
    );
  });

  it('removes escape sequences (CSI, OSC with ESC)', () => {
    expect(sanitize('\u001b[2J\u001b[31mURGENT\u001b[0m call me')).toBe('URGENT call me');
    expect(sanitize('a\u001b]0;pwned\u0007b')).toBe('ab');
  });

  it('makes the controls strip-ansi misses visible: C1 OSC, bare CR, BEL, NUL, DEL', () => {
    expect(sanitize('a\u009d0;title\u009cb')).toBe('a\uFFFD0;title\uFFFDb');
    expect(sanitize('paid\rUNPAID')).toBe('paid\u240dUNPAID');
    expect(sanitize('ding\u0007')).toBe('ding\u2407');
    expect(sanitize('x\u0000y\u007fz')).toBe('x\u2400y\u2421z');
  });

  it('replaces bidi controls that would reorder what staff read', () => {
    expect(sanitize('invoice \u202Efdp.exe')).toBe('invoice \uFFFDfdp.exe');
    for (const control of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ]) {
      expect(sanitize(`a${control}b`)).toBe('a\uFFFDb');
    }
  });

  it('keeps newlines, turns tabs into spaces and line separators into newlines', () => {
    expect(sanitize('one\r\ntwo\tthree\u2028four\u2029five')).toBe('one\ntwo  three\nfour\nfive');
    expect(sanitize('one\n\ntwo', { singleLine: true })).toBe('one two');
  });

  it('keeps every script, emoji and ZWJ or tag sequences intact', () => {
    const text = 'José Núñez 👍 مرحبا 你好 👩‍🔧 🏴󠁧󠁢󠁳󠁣󠁴󠁿';
    expect(sanitize(text)).toBe(text);
  });
});
