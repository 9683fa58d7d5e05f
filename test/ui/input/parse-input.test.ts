/**
 * The input layer: what the terminal sends, split any way, becomes the same
 * key, paste and mouse events; no control character can reach a text; a paste
 * is never keys. Properties are checked with fast-check over random keys,
 * pastes, mouse reports, control bytes and junk sequences, chunked at random.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertableText } from '../../../src/text/text-filter.js';
import { type InputEvent, keyName, parseKeyName } from '../../../src/ui-kit/input/key-event.js';
import { createInputParser, PASTE_MARKERS, parseAll } from '../../../src/ui-kit/input/parse-input.js';

const ESC = '\u001B';
const names = (input: string) =>
  parseAll(input).map((event) =>
    event.kind === 'key' ? keyName(event) : event.kind === 'paste' ? `paste:${event.text}` : event.action,
  );

/** Feeds the chunks one by one, then lets input pause (as the input source does after the last one). */
function parseChunks(chunks: readonly string[]): InputEvent[] {
  const parser = createInputParser();
  const events = chunks.flatMap((chunk) => parser.feed(chunk));
  return [...events, ...parser.flush(), ...parser.endPaste()];
}

/** Splits a string at random code point boundaries, as reads from a slow link would. */
const chunked = (text: string) =>
  fc.array(fc.nat({ max: Math.max(0, [...text].length) }), { maxLength: 12 }).map((cuts) => {
    const points = [...text];
    const at = [...new Set(cuts)].sort((a, b) => a - b);
    const chunks: string[] = [];
    let start = 0;
    for (const cut of at) {
      chunks.push(points.slice(start, cut).join(''));
      start = cut;
    }
    chunks.push(points.slice(start).join(''));
    return chunks.filter((chunk) => chunk.length > 0);
  });

/** What a terminal sends for keys, pastes, mouse reports, and the junk a stream can carry. */
const token = fc.oneof(
  fc.constantFrom('j', 'k', 'G', '?', ':', '/', 'q', 'y', 'n', ' ', 'é', '👍🏽', '界', 'a\u0301'),
  fc.constantFrom(
    '\r',
    '\n',
    '\t',
    '\u007F',
    '\b',
    '\u0003',
    '\u0015',
    '\u0017',
    '\u000B',
    '\u0001',
    '\u0005',
  ),
  fc.constantFrom(
    `${ESC}[A`,
    `${ESC}[B`,
    `${ESC}[1;5C`,
    `${ESC}[Z`,
    `${ESC}[5~`,
    `${ESC}[3;2~`,
    `${ESC}OA`,
    `${ESC}OH`,
    `${ESC}b`,
    `${ESC}f`,
    `${ESC}\r`,
    `${ESC}${ESC}[A`,
    `${ESC}[<0;10;5M`,
    `${ESC}[<0;10;5m`,
    `${ESC}[<64;3;3M`,
    `${ESC}[<65;3;3M`,
    `${ESC}[M !!`,
    `${ESC}]52;c;aGVsbG8=\u0007`,
    `${ESC}]0;title${ESC}\\`,
    `${ESC}P1$r0m${ESC}\\`,
    `${ESC}[?1;2c`,
    `${ESC}[I`,
    `${ESC}[O`,
    '\u009B31m',
    '\u0085',
  ),
  fc
    .string({
      unit: fc.constantFrom('a', 'y', '\r', '\n', '\t', ESC, '[', 'A', '~', '\u0007', '\u009D', '👍', ' '),
    })
    .filter((text) => !text.includes(PASTE_MARKERS.end))
    .map((text) => `${PASTE_MARKERS.start}${text}${PASTE_MARKERS.end}`),
);

/** A sequence of tokens, never ending in a lone ESC that a pause would settle differently. */
const inputText = fc.array(token, { maxLength: 30 }).map((tokens) => tokens.join(''));

describe('keys', () => {
  it('names printable keys, controls, arrows, function keys and modifiers as the keymap writes them', () => {
    expect(names('jG?:')).toEqual(['j', 'G', '?', ':']);
    expect(names('\r\t\u007F\b\n')).toEqual(['enter', 'tab', 'backspace', 'backspace', 'ctrl-j']);
    expect(names('\u0003\u0015\u0017\u000B\u0001\u0005\u0010\u0004')).toEqual([
      'ctrl-c',
      'ctrl-u',
      'ctrl-w',
      'ctrl-k',
      'ctrl-a',
      'ctrl-e',
      'ctrl-p',
      'ctrl-d',
    ]);
    expect(names(`${ESC}[A${ESC}[B${ESC}[C${ESC}[D${ESC}OA${ESC}[H${ESC}[F${ESC}[1~${ESC}[4~`)).toEqual([
      'up',
      'down',
      'right',
      'left',
      'up',
      'home',
      'end',
      'home',
      'end',
    ]);
    expect(names(`${ESC}[5~${ESC}[6~${ESC}[3~${ESC}[2~${ESC}OP${ESC}[15~${ESC}[24~`)).toEqual([
      'pgup',
      'pgdn',
      'delete',
      'insert',
      'f1',
      'f5',
      'f12',
    ]);
    expect(names(`${ESC}[Z${ESC}[1;5C${ESC}[1;3D${ESC}[1;2A${ESC}[3;5~`)).toEqual([
      'shift-tab',
      'ctrl-right',
      'alt-left',
      'shift-up',
      'ctrl-delete',
    ]);
    expect(names(`${ESC}b${ESC}f${ESC}\r${ESC}\u007F${ESC}${ESC}[A`)).toEqual([
      'alt-b',
      'alt-f',
      'alt-enter',
      'alt-backspace',
      'alt-up',
    ]);
    expect(names(' ')).toEqual(['space']);
  });

  it('types the characters of every script and emoji, one key a code point', () => {
    const events = parseAll('é界👍🏽');
    expect(events.map((event) => (event.kind === 'key' ? event.text : undefined))).toEqual([
      'é',
      '界',
      '👍',
      '🏽',
    ]);
  });

  it('a lone ESC is the escape key only after a pause: its sequence may still be on its way', () => {
    const parser = createInputParser();
    expect(parser.feed(ESC)).toEqual([]);
    expect(parser.holding).toBe('escape');
    expect(parser.feed('[').map((event) => event.kind)).toEqual([]);
    // ESC [ is surely a sequence still arriving: the input source waits longer for it than for a lone ESC.
    expect(parser.holding).toBe('sequence');
    expect(parser.feed('A').map((event) => (event.kind === 'key' ? keyName(event) : ''))).toEqual(['up']);
    expect(parser.feed(ESC)).toEqual([]);
    expect(parser.flush().map((event) => (event.kind === 'key' ? keyName(event) : ''))).toEqual(['esc']);
    // Esc pressed twice in one read: two escapes, once input pauses.
    expect(parser.feed(`${ESC}${ESC}`)).toEqual([]);
    expect(parser.flush().map((event) => (event.kind === 'key' ? keyName(event) : ''))).toEqual([
      'esc',
      'esc',
    ]);
  });

  it('drops what it does not understand: unknown sequences, terminal reports, C1 controls, X10 mouse bytes', () => {
    expect(
      names(`${ESC}[?1;2c${ESC}]52;c;aGk=\u0007${ESC}P1$r${ESC}\\\u009B2J\u009D0;t\u0007${ESC}[M !!x`),
    ).toEqual(['x']);
    expect(names(`${ESC}[I${ESC}[O${ESC}[99~${ESC}[1;5X`)).toEqual([]);
  });

  it('an unfinished sequence cut off by a pause is dropped, never typed', () => {
    const parser = createInputParser();
    expect(parser.feed(`${ESC}[1;5`)).toEqual([]);
    expect(parser.flush()).toEqual([]);
    expect(parser.feed('j').map((event) => (event.kind === 'key' ? keyName(event) : ''))).toEqual(['j']);
  });
});

describe('mouse', () => {
  it('reads SGR reports: press, release, drag, wheel, with zero-based cells and modifiers', () => {
    const events = parseAll(
      `${ESC}[<0;10;5M${ESC}[<0;10;5m${ESC}[<32;11;5M${ESC}[<64;3;4M${ESC}[<65;3;4M${ESC}[<18;1;1M`,
    );
    expect(events).toEqual([
      { kind: 'mouse', action: 'press', button: 0, x: 9, y: 4, ctrl: false, meta: false, shift: false },
      { kind: 'mouse', action: 'release', button: 0, x: 9, y: 4, ctrl: false, meta: false, shift: false },
      { kind: 'mouse', action: 'drag', button: 0, x: 10, y: 4, ctrl: false, meta: false, shift: false },
      { kind: 'mouse', action: 'wheel-up', x: 2, y: 3, ctrl: false, meta: false, shift: false },
      { kind: 'mouse', action: 'wheel-down', x: 2, y: 3, ctrl: false, meta: false, shift: false },
      { kind: 'mouse', action: 'press', button: 2, x: 0, y: 0, ctrl: true, meta: false, shift: false },
    ]);
  });
});

describe('paste', () => {
  it('a bracketed paste is one paste event, whatever it holds: line breaks, escapes, y, enter', () => {
    const text = `ok\r\ny${ESC}[A\u0003\tthen\rmore`;
    expect(parseAll(`j${PASTE_MARKERS.start}${text}${PASTE_MARKERS.end}k`)).toEqual([
      expect.objectContaining({ kind: 'key', name: 'j' }),
      { kind: 'paste', text: `ok\ny${ESC}[A\u0003\tthen\nmore` },
      expect.objectContaining({ kind: 'key', name: 'k' }),
    ]);
  });

  it('a paste stays open across a pause (a slow link), and closes after a long one', () => {
    const parser = createInputParser();
    expect(parser.feed(`${PASTE_MARKERS.start}hello `)).toEqual([]);
    expect(parser.flush()).toEqual([]);
    expect(parser.holding).toBe('paste');
    expect(parser.feed(`world${ESC}[20`)).toEqual([]);
    expect(parser.feed('1~j')).toEqual([
      { kind: 'paste', text: 'hello world' },
      expect.objectContaining({ name: 'j' }),
    ]);
    expect(parser.feed(`${PASTE_MARKERS.start}never ends`)).toEqual([]);
    expect(parser.endPaste()).toEqual([{ kind: 'paste', text: 'never ends' }]);
    expect(parser.holding).toBe('nothing');
  });
});

describe('properties', () => {
  it('the same input split any way gives the same events', () => {
    fc.assert(
      fc.property(
        inputText.chain((text) => fc.tuple(fc.constant(text), chunked(text))),
        ([text, chunks]) => {
          expect(parseChunks(chunks)).toEqual(parseAll(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('no control character reaches a text: not through a key, not through a paste', () => {
    fc.assert(
      fc.property(inputText, fc.boolean(), (text, multiline) => {
        let typed = '';
        for (const event of parseAll(text)) {
          if (event.kind === 'key' && event.text !== undefined)
            typed += insertableText(event.text, { multiline });
          if (event.kind === 'paste') typed += insertableText(event.text, { multiline });
        }
        expect(typed).not.toMatch(multiline ? /(?!\n)\p{Cc}/u : /\p{Cc}/u);
        expect(typed).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
        for (const event of parseAll(text)) {
          if (event.kind === 'key' && event.text !== undefined) expect(event.text).not.toMatch(/\p{Cc}/u);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a paste is never keys: its content, split any way, arrives as one paste and nothing else', () => {
    const content = fc
      .string({
        unit: fc.oneof(
          fc.constantFrom(
            '\r',
            '\n',
            '\t',
            ESC,
            '[',
            '2',
            '0',
            '1',
            '~',
            'y',
            'q',
            '\u0003',
            '\u007F',
            'A',
            '👍🏽',
          ),
          fc.string({ maxLength: 3 }),
        ),
        maxLength: 40,
      })
      .filter((text) => text.length > 0 && !text.includes(PASTE_MARKERS.end));
    fc.assert(
      fc.property(
        content.chain((text) => {
          const whole = `${PASTE_MARKERS.start}${text}${PASTE_MARKERS.end}`;
          return fc.tuple(fc.constant(text), chunked(whole));
        }),
        ([text, chunks]) => {
          const events = parseChunks(chunks);
          const expected = text.replace(/\r\n?/g, '\n');
          expect(events).toEqual([{ kind: 'paste', text: expected }]);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('key names in a config file', () => {
  it('reads what people write and refuses what no terminal can send', () => {
    expect(parseKeyName('m')).toBe('m');
    expect(parseKeyName('A')).toBe('A');
    expect(parseKeyName('shift-a')).toBe('A');
    expect(parseKeyName('Ctrl+P')).toBe('ctrl-p');
    expect(parseKeyName('ctrl-P')).toBe('ctrl-p');
    expect(parseKeyName('alt-enter')).toBe('alt-enter');
    expect(parseKeyName('Escape')).toBe('esc');
    expect(parseKeyName('PageDown')).toBe('pgdn');
    expect(parseKeyName('shift-tab')).toBe('shift-tab');
    expect(parseKeyName('space')).toBe('space');
    expect(parseKeyName('ctrl-j')).toBe('ctrl-j');
    expect(parseKeyName('F5')).toBe('f5');
    for (const wrong of [
      '',
      'hyper-x',
      'ctrl-ctrl-x',
      'ctrl-é',
      'ctrl-m',
      'ctrl-i',
      'ctrl-h',
      'ctrl-@',
      'enterr',
      'shift-?',
      '\u0007',
    ]) {
      expect(parseKeyName(wrong), wrong).toBeUndefined();
    }
  });

  it('every key name the parser produces reads back as itself', () => {
    fc.assert(
      fc.property(inputText, (text) => {
        for (const event of parseAll(text)) {
          if (event.kind !== 'key') continue;
          expect(parseKeyName(keyName(event))).toBe(keyName(event));
        }
      }),
      { numRuns: 300 },
    );
  });
});
