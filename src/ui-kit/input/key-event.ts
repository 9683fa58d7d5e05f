/**
 * What the input layer hands to the rest of the program: single key events,
 * whole pastes and mouse events, never raw bytes. A key has one canonical
 * name ("j", "G", "ctrl-u", "alt-b", "shift-tab", "enter", "pgdn"), the same
 * name the keymap, the help and a user's config use.
 */

export interface KeyEvent {
  kind: 'key';
  /** A named key ("enter", "up", "f5") or the character typed ("j", "G", "?", "é", "👍"). */
  name: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** The text this key types, for printable keys without ctrl or alt. */
  text?: string;
}

export interface PasteEvent {
  kind: 'paste';
  /** What was pasted, line breaks as "\n"; not yet filtered (see text-filter.ts). */
  text: string;
}

export type MouseAction = 'press' | 'release' | 'drag' | 'wheel-up' | 'wheel-down';

export interface MouseEvent {
  kind: 'mouse';
  action: MouseAction;
  /** 0 left, 1 middle, 2 right; undefined for the wheel and a release whose button is unknown. */
  button?: number;
  /** Zero-based column and row of the terminal cell. */
  x: number;
  y: number;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

export type InputEvent = KeyEvent | PasteEvent | MouseEvent;

/** Named keys, as they appear in key names and config files. */
export const NAMED_KEYS = [
  'enter',
  'esc',
  'tab',
  'space',
  'backspace',
  'delete',
  'insert',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pgup',
  'pgdn',
  ...Array.from({ length: 12 }, (_, index) => `f${index + 1}`),
] as const;

const NAMED = new Set<string>(NAMED_KEYS);

export function key(
  name: string,
  modifiers: Partial<Pick<KeyEvent, 'ctrl' | 'meta' | 'shift'>> = {},
): KeyEvent {
  const ctrl = modifiers.ctrl ?? false;
  const meta = modifiers.meta ?? false;
  const shift = modifiers.shift ?? false;
  const event: KeyEvent = { kind: 'key', name, ctrl, meta, shift };
  if (!ctrl && !meta) {
    if (name === 'space') event.text = ' ';
    else if (!NAMED.has(name)) event.text = name;
  }
  return event;
}

/**
 * The canonical name of a key: modifiers in the order ctrl, alt, shift, then
 * the key. Shift is implied by a character ("G"), so it is named only with a
 * named key ("shift-tab"); ctrl letters are lower case ("ctrl-u").
 */
export function keyName(event: Pick<KeyEvent, 'name' | 'ctrl' | 'meta' | 'shift'>): string {
  const named = NAMED.has(event.name);
  let base = event.name;
  if (event.ctrl && !named) base = base.toLowerCase();
  let prefix = '';
  if (event.ctrl) prefix += 'ctrl-';
  if (event.meta) prefix += 'alt-';
  if (event.shift && named) prefix += 'shift-';
  return prefix + base;
}

const ALIASES: Record<string, string> = {
  escape: 'esc',
  return: 'enter',
  cr: 'enter',
  pageup: 'pgup',
  pagedown: 'pgdn',
  del: 'delete',
  bs: 'backspace',
  ins: 'insert',
  ' ': 'space',
  '↑': 'up',
  '↓': 'down',
  '←': 'left',
  '→': 'right',
};

const MODIFIERS: Record<string, 'ctrl' | 'meta' | 'shift'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  c: 'ctrl',
  alt: 'meta',
  meta: 'meta',
  option: 'meta',
  m: 'meta',
  a: 'meta',
  shift: 'shift',
  s: 'shift',
};

/**
 * Reads a key as a person writes it in a config file ("m", "A", "ctrl-p",
 * "Ctrl+P", "alt-enter", "shift-tab", "pgdn", "escape") and returns its
 * canonical name, or undefined when it names no key a terminal can send.
 */
export function parseKeyName(text: string): string | undefined {
  const raw = text.trim();
  if (raw.length === 0) return undefined;
  const chars = [...raw];
  if (chars.length === 1) return canonicalSingle(raw);
  const parts = raw.split(/[-+](?=.)/);
  const last = parts.pop() ?? '';
  const modifiers = { ctrl: false, meta: false, shift: false };
  for (const part of parts) {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (!modifier || modifiers[modifier]) return undefined;
    modifiers[modifier] = true;
  }
  let name = ALIASES[last.toLowerCase()] ?? last;
  if ([...name].length > 1) {
    name = name.toLowerCase();
    if (!NAMED.has(name)) return undefined;
  } else if (name === ' ') {
    name = 'space';
  }
  const single = [...name].length === 1;
  if (single && !isPrintable(name)) return undefined;
  if (modifiers.shift && single) {
    // "shift-a" is "A"; shift with a symbol cannot be told apart from the symbol itself.
    if (modifiers.ctrl) return undefined;
    if (name.toUpperCase() === name.toLowerCase()) return undefined;
    name = name.toUpperCase();
    modifiers.shift = false;
  }
  if (modifiers.ctrl && single && !/^[a-z\\\]^_]$/i.test(name)) return undefined;
  // A terminal sends these as enter, tab, backspace and escape: they cannot be bound apart from those keys.
  if (modifiers.ctrl && single && /^[mih[]$/i.test(name)) return undefined;
  return keyName({ name, ...modifiers });
}

function canonicalSingle(char: string): string | undefined {
  const alias = ALIASES[char];
  if (alias) return alias;
  return isPrintable(char) ? char : undefined;
}

/** One character a key can type: no control, separator or unassigned code point. */
function isPrintable(char: string): boolean {
  return !/[\p{Cc}\p{Cs}\p{Cn}\p{Z}]/u.test(char);
}

/** How a key is written for people: arrows as arrows, the rest as its name. */
export function displayKey(name: string): string {
  const shown: Record<string, string> = { up: '↑', down: '↓', left: '←', right: '→' };
  return shown[name] ?? name;
}
