/**
 * Where a config that is not JSON goes wrong (jsonMistake): nothing for what
 * JSON.parse takes; for what it refuses, a line and column inside the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonMistake } from '../../src/config/config-file.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonMistake', () => {
  it('says nothing of JSON that parses', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonMistake(text)).toBe('');
      }),
    );
  });

  it('places every refusal of JSON.parse at a line and column of the text', () => {
    const broken = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom(',', '}', ']', '"', ':', 'x', '\n', '{', '/'))
      .map(([text, at, char]) => {
        const cut = at % (text.length + 1);
        return `${text.slice(0, cut)}${char}${text.slice(cut)}`;
      })
      .filter((text) => !parses(text));
    fc.assert(
      fc.property(broken, (text) => {
        const said = /^ at line (\d+), column (\d+): \S/.exec(jsonMistake(text));
        expect(said, text).not.toBeNull();
        const lines = text.split(/\r\n|\r|\n/);
        const line = Number(said?.[1]);
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(lines.length);
        expect(Number(said?.[2])).toBeLessThanOrEqual([...(lines[line - 1] ?? '')].length + 1);
      }),
    );
  });

  it('names the place of a missing comma', () => {
    expect(jsonMistake('{\n  "a": 1\n  "b": 2\n}')).toBe(' at line 3, column 3: a comma was expected');
  });
});
