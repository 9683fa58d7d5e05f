/**
 * Turns what the terminal sends into key, paste and mouse events: a pure,
 * streaming parser. Bytes may arrive split anywhere (a slow SSH link cuts
 * escape sequences and pastes in pieces): the parser holds an unfinished
 * sequence until the rest comes, so the same input split any way gives the
 * same events. Nothing it does not understand becomes text: an unknown
 * escape sequence, a C1 control, a terminal's report are dropped whole.
 *
 * The only decision that needs time is a lone ESC (the escape key, or the
 * start of a sequence whose rest is still on its way): `flush()`, called by
 * the input source after a pause, settles it.
 */
import { type InputEvent, type KeyEvent, key, type MouseEvent } from './key-event.js';

const ESC = '\u001B';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;
/** A paste larger than this keeps only its start: no text the inbox takes is anywhere near it. */
const PASTE_MAX = 100_000;
/** Escape sequences longer than this are junk, not a key: dropped, so a broken stream cannot grow the buffer. */
const SEQUENCE_MAX = 64;
const STRING_SEQUENCE_MAX = 8_192;
/** DCS, SOS, OSC, PM, APC as single C1 characters. */
const C1_STRING_STARTS = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);

export interface InputParser {
  /** Parses a chunk; returns the events it completed. */
  feed(chunk: string): InputEvent[];
  /**
   * Input paused: a held lone ESC is the escape key, an unfinished sequence
   * is dropped. A paste still arriving is kept open (a slow link pauses inside one).
   */
  flush(): InputEvent[];
  /** Input stopped for long inside a paste (a terminal that never sent its end): the paste ends here. */
  endPaste(): InputEvent[];
  /**
   * What the parser holds: nothing, a lone ESC (the escape key, or the start
   * of a sequence), the start of a sequence that is surely one (ESC [ …), or
   * a paste still arriving.
   */
  readonly holding: 'nothing' | 'escape' | 'sequence' | 'paste';
}

type Parsed = { events: InputEvent[]; next: number; paste?: boolean } | 'pending';

/** xterm's modifier parameter: 1 + shift·1 + alt·2 + ctrl·4 (+ meta·8). */
function modifiersOf(param: string | undefined): Pick<KeyEvent, 'ctrl' | 'meta' | 'shift'> {
  const bits = Math.max(0, (Number(param) || 1) - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0 || (bits & 8) !== 0, ctrl: (bits & 4) !== 0 };
}

const CSI_LETTER_KEYS: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};

const CSI_TILDE_KEYS: Record<string, string> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pgup',
  '6': 'pgdn',
  '7': 'home',
  '8': 'end',
  '11': 'f1',
  '12': 'f2',
  '13': 'f3',
  '14': 'f4',
  '15': 'f5',
  '17': 'f6',
  '18': 'f7',
  '19': 'f8',
  '20': 'f9',
  '21': 'f10',
  '23': 'f11',
  '24': 'f12',
};

/** A C0 control or DEL as the key that sends it. */
function controlKey(code: number): KeyEvent | undefined {
  if (code === 0x0d) return key('enter');
  if (code === 0x09) return key('tab');
  if (code === 0x0a) return key('j', { ctrl: true });
  if (code === 0x7f || code === 0x08) return key('backspace');
  if (code === 0x00) return key('space', { ctrl: true });
  if (code >= 0x01 && code <= 0x1a) return key(String.fromCharCode(code + 0x60), { ctrl: true });
  if (code >= 0x1c && code <= 0x1f) return key(String.fromCharCode(code + 0x40), { ctrl: true });
  return undefined;
}

/** The key one code point types, or nothing for a C1 control or a lone surrogate. */
function charKey(char: string): KeyEvent | undefined {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return controlKey(code);
  if (code >= 0x80 && code <= 0x9f) return undefined;
  if (code >= 0xd800 && code <= 0xdfff) return undefined;
  if (char === ' ') return key('space');
  return key(char);
}

function csiEvent(params: string, final: string): InputEvent | undefined {
  if (params.startsWith('<') && (final === 'M' || final === 'm')) return sgrMouse(params.slice(1), final);
  const fields = params.split(';');
  if (final === '~') {
    const name = CSI_TILDE_KEYS[fields[0] ?? ''];
    return name ? key(name, modifiersOf(fields[1])) : undefined;
  }
  if (final === 'Z' && params === '') return key('tab', { shift: true });
  const name = CSI_LETTER_KEYS[final];
  if (name && /^(1?(;\d+)?)?$/.test(params)) return key(name, modifiersOf(fields[1]));
  return undefined;
}

function sgrMouse(params: string, final: string): MouseEvent | undefined {
  const [b, x, y] = params.split(';').map(Number);
  if (b === undefined || x === undefined || y === undefined || [b, x, y].some(Number.isNaN)) return undefined;
  const modifiers = { shift: (b & 4) !== 0, meta: (b & 8) !== 0, ctrl: (b & 16) !== 0 };
  const position = { x: Math.max(0, x - 1), y: Math.max(0, y - 1) };
  if (b & 64) {
    return { kind: 'mouse', action: (b & 1) === 0 ? 'wheel-up' : 'wheel-down', ...position, ...modifiers };
  }
  const button = b & 3;
  if (final === 'm') return { kind: 'mouse', action: 'release', button, ...position, ...modifiers };
  return { kind: 'mouse', action: b & 32 ? 'drag' : 'press', button, ...position, ...modifiers };
}

/** Parses the escape sequence starting at `start` (an ESC). */
function parseEscape(input: string, start: number): Parsed {
  const next = input[start + 1];
  if (next === undefined) return 'pending';
  if (next === '[') return parseCsi(input, start + 2);
  if (next === 'O') {
    const final = input[start + 2];
    if (final === undefined) return 'pending';
    const name = CSI_LETTER_KEYS[final];
    return { events: name ? [key(name)] : [], next: start + 3 };
  }
  if (next === ']' || next === 'P' || next === '_' || next === '^' || next === 'X') {
    return parseStringSequence(input, start + 2);
  }
  if (next === ESC) {
    // ESC before a sequence is alt with that key (alt-↑ in some terminals).
    const inner = parseEscape(input, start + 1);
    if (inner === 'pending') return 'pending';
    return { ...inner, events: inner.events.map(withAlt) };
  }
  const code = input.codePointAt(start + 1) ?? 0;
  const char = String.fromCodePoint(code);
  const pressed = charKey(char);
  return { events: pressed ? [withAlt(pressed)] : [], next: start + 1 + char.length };
}

function withAlt(event: InputEvent): InputEvent {
  if (event.kind !== 'key') return event;
  const { text: _text, ...rest } = event;
  return { ...rest, meta: true };
}

/** A CSI sequence whose parameters start at `index` (after ESC [ or the C1 CSI). */
function parseCsi(input: string, body: number): Parsed {
  let index = body;
  // The Linux console's F1–F5: ESC [ [ A … E.
  if (input[index] === '[') {
    const final = input[index + 1];
    if (final === undefined) return 'pending';
    const name = { A: 'f1', B: 'f2', C: 'f3', D: 'f4', E: 'f5' }[final];
    return { events: name ? [key(name)] : [], next: index + 2 };
  }
  let params = '';
  for (; index < input.length; index += 1) {
    const code = input.charCodeAt(index);
    if (code >= 0x30 && code <= 0x3f) {
      params += input[index];
    } else if (code >= 0x20 && code <= 0x2f) {
      params += input[index];
    } else if (code >= 0x40 && code <= 0x7e) {
      const final = input[index] as string;
      if (params === '200' && final === '~') return { events: [], next: index + 1, paste: true };
      if (params === '' && final === 'M') {
        // X10 mouse (a terminal without SGR reporting): three raw bytes follow; never text.
        if (input.length < index + 4) return 'pending';
        return { events: [], next: index + 4 };
      }
      const event = csiEvent(params, final);
      return { events: event ? [event] : [], next: index + 1 };
    } else {
      // Not a sequence after all: drop what was read, keep the byte that broke it.
      return { events: [], next: index };
    }
    if (params.length > SEQUENCE_MAX) return { events: [], next: index + 1 };
  }
  return 'pending';
}

/** OSC, DCS, APC, PM, SOS from `body` on: a terminal's report, never a key; ends with BEL or ST. */
function parseStringSequence(input: string, body: number): Parsed {
  for (let index = body; index < input.length; index += 1) {
    const char = input[index];
    if (char === '\u0007' || char === '\u009C') return { events: [], next: index + 1 };
    if (char === ESC) {
      if (index + 1 >= input.length) return 'pending';
      if (input[index + 1] === '\\') return { events: [], next: index + 2 };
    }
    if (index - body > STRING_SEQUENCE_MAX) return { events: [], next: index + 1 };
  }
  return 'pending';
}

/** The longest end of `text` that is the start of `marker` (an end marker split across chunks). */
function partialMarker(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}

export function createInputParser(): InputParser {
  let buffer = '';
  let pasting = false;
  let pasted = '';

  const addPasted = (text: string) => {
    if (pasted.length < PASTE_MAX) pasted += text.slice(0, PASTE_MAX - pasted.length);
  };
  const endPaste = (events: InputEvent[]) => {
    pasting = false;
    const text = pasted.replace(/\r\n?/g, '\n');
    pasted = '';
    if (text) events.push({ kind: 'paste', text });
  };

  const drain = (final: boolean, closePaste = false): InputEvent[] => {
    const events: InputEvent[] = [];
    let index = 0;
    while (index < buffer.length) {
      if (pasting) {
        const end = buffer.indexOf(PASTE_END, index);
        if (end === -1) {
          const keep = closePaste ? 0 : partialMarker(buffer.slice(index), PASTE_END);
          addPasted(buffer.slice(index, buffer.length - keep));
          index = buffer.length - keep;
          if (closePaste) endPaste(events);
          break;
        }
        addPasted(buffer.slice(index, end));
        endPaste(events);
        index = end + PASTE_END.length;
        continue;
      }
      if (buffer[index] === ESC) {
        const parsed = parseEscape(buffer, index);
        if (parsed === 'pending') {
          if (!final) break;
          // After a pause: ESC alone (or before another ESC) is the escape key; a cut-off sequence is dropped.
          const after = buffer[index + 1];
          if (after === undefined || after === ESC) {
            events.push(key('esc'));
            index += 1;
          } else {
            index = buffer.length;
          }
          continue;
        }
        events.push(...parsed.events);
        index = parsed.next;
        if (parsed.paste) pasting = true;
        continue;
      }
      const code = buffer.codePointAt(index) ?? 0;
      if (code === 0x9b || C1_STRING_STARTS.has(code)) {
        // The 8-bit forms of CSI, OSC, DCS…: a sequence to drop whole, not a control followed by text.
        const parsed = code === 0x9b ? parseCsi(buffer, index + 1) : parseStringSequence(buffer, index + 1);
        if (parsed === 'pending') {
          if (!final) break;
          index = buffer.length;
          continue;
        }
        index = parsed.next;
        continue;
      }
      const char = String.fromCodePoint(code);
      const pressed = charKey(char);
      if (pressed) events.push(pressed);
      index += char.length;
    }
    buffer = buffer.slice(index);
    return events;
  };

  return {
    feed(chunk) {
      buffer += chunk;
      return drain(false);
    },
    flush() {
      return drain(true);
    },
    endPaste() {
      if (!pasting) return [];
      const events = drain(true, true);
      if (pasting) endPaste(events);
      return events;
    },
    get holding() {
      if (pasting) return 'paste';
      if (buffer.length === 0) return 'nothing';
      return buffer === ESC || buffer === ESC + ESC ? 'escape' : 'sequence';
    },
  };
}

/** Parses a whole input at once (tests, and keys given by name). */
export function parseAll(input: string): InputEvent[] {
  const parser = createInputParser();
  return [...parser.feed(input), ...parser.flush(), ...parser.endPaste()];
}

/** PASTE_START and PASTE_END, for tests that type a bracketed paste. */
export const PASTE_MARKERS = { start: PASTE_START, end: PASTE_END } as const;
