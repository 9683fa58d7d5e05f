/**
 * A text that could not be sent, put back into its contact's composer: for
 * anything typed there since, with the cursor anywhere in it, neither text
 * loses a character, the unsent one comes first on its own line, the cursor
 * stays on the character it was on, and the text is never there twice.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineOf, withUnsentText } from '../../src/store/line-editor.js';

const typed = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .chain((text) => fc.nat(text.length).map((cursor) => ({ text, cursor })));
const unsentText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });

describe('withUnsentText', () => {
  it('alone in an empty composer, the cursor at its end', () => {
    fc.assert(
      fc.property(unsentText, (unsent) => {
        expect(withUnsentText(undefined, unsent)).toEqual(lineOf(unsent));
        expect(withUnsentText({ text: '', cursor: 0 }, unsent)).toEqual(lineOf(unsent));
      }),
    );
  });

  it('before what was typed since, on its own line, the cursor where it was', () => {
    fc.assert(
      fc.property(typed, unsentText, (current, unsent) => {
        fc.pre(!current.text.includes(unsent));
        const merged = withUnsentText(current, unsent);
        expect(merged.text).toBe(`${unsent}\n${current.text}`);
        expect(merged.text.slice(merged.cursor)).toBe(current.text.slice(current.cursor));
        expect(merged.text.slice(0, merged.cursor).endsWith(current.text.slice(0, current.cursor))).toBe(
          true,
        );
      }),
    );
  });

  it('never twice: a composer that already holds it is left as it is', () => {
    fc.assert(
      fc.property(typed, unsentText, fc.string({ maxLength: 5 }), (current, unsent, after) => {
        const holding = { text: `${current.text}${unsent}${after}`, cursor: current.cursor };
        expect(withUnsentText(holding, unsent)).toEqual(holding);
      }),
    );
  });
});
