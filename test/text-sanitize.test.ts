import { describe, expect, it } from 'vitest';
import { sanitize } from '../src/text/sanitize.js';

describe('sanitize: customer text on a terminal', () => {
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
