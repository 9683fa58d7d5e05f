/**
 * The line editor under any text and any sequence of keys: the cursor stays
 * inside the text and never splits a character (a surrogate pair), every kill
 * gives back exactly what it cut (ctrl-y restores the line), typing then
 * deleting as much restores the line, and the word motions agree with a
 * brute-force reading of what a word is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Cut,
  deleteBackward,
  deleteForward,
  insertText,
  killToEnd,
  killToStart,
  killWordBackward,
  killWordForward,
  type LineText,
  lineOf,
  moveEnd,
  moveHome,
  moveLeft,
  moveRight,
  moveWordLeft,
  moveWordRight,
  wordEndAfter,
  wordStartBefore,
} from '../../src/store/line-editor.js';

/** Characters that trip editors: spaces, line breaks, punctuation, astral emoji, combining marks, Devanagari. */
const tricky = fc.constantFrom(
  ' ',
  '  ',
  '\n',
  '.',
  ',',
  '-',
  '_',
  '😀',
  '👍🏽',
  'é',
  'e\u0301',
  'न',
  'स्ते',
  '7',
);
const someText = fc.string({
  unit: fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
  maxLength: 24,
});

/** Code point boundaries of a text: the places a cursor may be. */
function boundaries(text: string): number[] {
  const places = [0];
  let at = 0;
  for (const point of text) {
    at += point.length;
    places.push(at);
  }
  return places;
}

const isBoundary = (text: string, index: number) => boundaries(text).includes(index);

const someLine: fc.Arbitrary<LineText> = someText.chain((text) =>
  fc.constantFrom(...boundaries(text)).map((cursor) => ({ text, cursor })),
);

type Edit = (line: LineText) => LineText;
const kills: Record<string, (line: LineText) => Cut> = {
  killToStart,
  killToEnd,
  killWordBackward,
  killWordForward,
};
const edits: Record<string, Edit> = {
  deleteBackward,
  deleteForward,
  moveLeft,
  moveRight,
  moveHome,
  moveEnd,
  moveWordLeft,
  moveWordRight,
  ...Object.fromEntries(
    Object.entries(kills).map(([name, kill]) => [name, (line: LineText) => kill(line).line]),
  ),
};
const someEdit = fc.oneof(
  fc.constantFrom(...Object.keys(edits)).map((name) => ({ name, run: edits[name] as Edit })),
  someText.map((typed) => ({
    name: `type ${JSON.stringify(typed)}`,
    run: (line: LineText) => insertText(line, typed),
  })),
);

/** Brute force: the word before `index` starts after the last non-word that precedes a word char. */
const oracleWordStart = (text: string, index: number) =>
  text.slice(0, index).search(/[\p{L}\p{N}\p{M}_]*[^\p{L}\p{N}\p{M}_]*$/u);
const oracleWordEnd = (text: string, index: number) =>
  index + (/^[^\p{L}\p{N}\p{M}_]*[\p{L}\p{N}\p{M}_]*/u.exec(text.slice(index))?.[0].length ?? 0);

describe('the line editor', () => {
  it('keeps the cursor inside the text and on a code point boundary, whatever the keys', () => {
    fc.assert(
      fc.property(someLine, fc.array(someEdit, { maxLength: 20 }), (start, steps) => {
        let line = start;
        for (const step of steps) {
          line = step.run(line);
          expect(line.cursor, step.name).toBeGreaterThanOrEqual(0);
          expect(line.cursor, step.name).toBeLessThanOrEqual(line.text.length);
          expect(isBoundary(line.text, line.cursor), `${step.name}: ${JSON.stringify(line)}`).toBe(true);
        }
      }),
    );
  });

  it('a kill cuts one stretch at the cursor, and putting it back (ctrl-y) restores the text', () => {
    fc.assert(
      fc.property(someLine, fc.constantFrom(...Object.keys(kills)), (line, name) => {
        const { line: after, cut } = (kills[name] as (line: LineText) => Cut)(line);
        expect(after.text.slice(0, after.cursor) + cut + after.text.slice(after.cursor)).toBe(line.text);
        const putBack = insertText(after, cut);
        expect(putBack.text).toBe(line.text);
        // Backward kills leave the cursor where it was once the text is back; forward kills after what was cut.
        const backward = name === 'killToStart' || name === 'killWordBackward';
        expect(putBack.cursor).toBe(backward ? line.cursor : line.cursor + cut.length);
        expect(after.cursor).toBe(backward ? line.cursor - cut.length : line.cursor);
      }),
    );
  });

  it('ctrl-u at the very start cuts nothing, also when the text starts with a line break', () => {
    for (const text of ['\n', '\nabc', 'abc', '']) {
      const { line, cut } = killToStart({ text, cursor: 0 });
      expect({ text, cut, line }).toEqual({ text, cut: '', line: { text, cursor: 0 } });
    }
  });

  it('ctrl-u and ctrl-k stay on the cursor line; at its edge they take the line break', () => {
    fc.assert(
      fc.property(someLine, (line) => {
        const start = killToStart(line);
        const end = killToEnd(line);
        const atLineStart = line.cursor === 0 || line.text[line.cursor - 1] === '\n';
        const atLineEnd = line.cursor === line.text.length || line.text[line.cursor] === '\n';
        if (atLineStart) expect(start.cut).toBe(line.cursor === 0 ? '' : '\n');
        else expect(start.cut).not.toContain('\n');
        if (atLineEnd) expect(end.cut).toBe(line.cursor === line.text.length ? '' : '\n');
        else expect(end.cut).not.toContain('\n');
      }),
    );
  });

  it('typing then deleting as many characters restores the line', () => {
    fc.assert(
      fc.property(someLine, someText, (line, typed) => {
        let after = insertText(line, typed);
        expect(after.text.slice(0, after.cursor)).toBe(line.text.slice(0, line.cursor) + typed);
        for (const _point of typed) after = deleteBackward(after);
        expect(after).toEqual(line);
      }),
    );
  });

  it('delete removes the one character under the cursor; backspace the one before it', () => {
    fc.assert(
      fc.property(someLine, ({ text, cursor }) => {
        const after = [...text.slice(cursor)][0] ?? '';
        const before = [...text.slice(0, cursor)].at(-1) ?? '';
        expect(deleteForward({ text, cursor })).toEqual({
          text: text.slice(0, cursor) + text.slice(cursor + after.length),
          cursor,
        });
        expect(deleteBackward({ text, cursor })).toEqual({
          text: text.slice(0, cursor - before.length) + text.slice(cursor),
          cursor: cursor - before.length,
        });
      }),
    );
  });

  it('left then right (and right then left) comes back to the same place', () => {
    fc.assert(
      fc.property(someLine, (line) => {
        if (line.cursor > 0) expect(moveRight(moveLeft(line))).toEqual(line);
        if (line.cursor < line.text.length) expect(moveLeft(moveRight(line))).toEqual(line);
        expect(moveHome(line).cursor).toBe(0);
        expect(moveEnd(line)).toEqual(lineOf(line.text));
      }),
    );
  });

  it('the word motions stop where a brute-force reading of words says', () => {
    fc.assert(
      fc.property(someLine, ({ text, cursor }) => {
        expect(wordStartBefore(text, cursor)).toBe(oracleWordStart(text, cursor));
        expect(wordEndAfter(text, cursor)).toBe(oracleWordEnd(text, cursor));
      }),
    );
  });

  it('ctrl-w takes a whole word, also one written with combining marks', () => {
    for (const word of ['नमस्ते', 'cafe\u0301s', 'über', 'naïve', 'o\u0308ko']) {
      expect(killWordBackward(lineOf(`hi ${word}`))).toEqual({ line: { text: 'hi ', cursor: 3 }, cut: word });
      expect(killWordForward({ text: `${word} hi`, cursor: 0 }).cut).toBe(word);
    }
  });
});
