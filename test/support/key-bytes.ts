/** What a terminal sends for a key name ("j", "ctrl-u", "alt-b", "shift-tab", "pgdn"): the inverse of the input layer. */

const ESC = '\u001B';

const NAMED: Record<string, string> = {
  enter: '\r',
  esc: ESC,
  tab: '\t',
  space: ' ',
  backspace: '\u007F',
  delete: `${ESC}[3~`,
  insert: `${ESC}[2~`,
  up: `${ESC}[A`,
  down: `${ESC}[B`,
  right: `${ESC}[C`,
  left: `${ESC}[D`,
  home: `${ESC}[H`,
  end: `${ESC}[F`,
  pgup: `${ESC}[5~`,
  pgdn: `${ESC}[6~`,
};

const ARROWS: Record<string, string> = { up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F' };

export function keyBytes(name: string): string {
  if (name === 'shift-tab') return `${ESC}[Z`;
  if (name === 'ctrl-j') return '\n';
  if (name === 'ctrl-space') return '\u0000';
  const ctrl = name.startsWith('ctrl-') && name.length > 5;
  const rest = ctrl ? name.slice(5) : name;
  const alt = rest.startsWith('alt-') && rest.length > 4;
  const base = alt ? rest.slice(4) : rest;
  if (ctrl && ARROWS[base]) return `${ESC}[1;${alt ? 7 : 5}${ARROWS[base]}`;
  if (alt && ARROWS[base]) return `${ESC}[1;3${ARROWS[base]}`;
  if (ctrl) {
    const code = base.toLowerCase().charCodeAt(0);
    const control = code >= 0x61 && code <= 0x7a ? code - 0x60 : code - 0x40;
    return (alt ? ESC : '') + String.fromCharCode(control);
  }
  const plain = NAMED[base] ?? base;
  return alt ? ESC + plain : plain;
}
