/**
 * What the inbox says to the terminal besides drawing: the window title, a
 * desktop notification (OSC 9, and OSC 777 for the terminals that use that),
 * the bell. Each is built here from text that has passed the sanitizer and
 * been cut short, so no customer's bytes can end a sequence early or start
 * one of their own.
 */
import { sanitize } from '../text/sanitize.js';

const ESC = '\u001B';
const BEL = '\u0007';

/** Keeps the user's title on the terminal's stack (xterm, tmux, most emulators), to be put back on exit. */
export const PUSH_TITLE = `${ESC}[22;0t`;
/** Puts back the title pushed at start. */
export const POP_TITLE = `${ESC}[23;0t`;
export const BELL = BEL;

/** Longest notification text, in characters: terminals and desktops show little more, and less is safer. */
export const NOTIFICATION_MAX = 100;

/**
 * Untrusted text made safe for the inside of an OSC sequence: escape sequences removed and other
 * controls made visible by the sanitizer, on one line, every control character left dropped,
 * cut to `max` characters (whole characters, ending in "…").
 */
export function safeText(text: string, max = NOTIFICATION_MAX): string {
  const clean = sanitize(text, { singleLine: true })
    .replace(/\p{Cc}/gu, '')
    .trim();
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

/** OSC 2: the window title. */
export const titleSequence = (title: string): string => `${ESC}]2;${safeText(title, 120)}${BEL}`;

/**
 * Inside tmux, a sequence tmux does not know itself goes through to the terminal outside (the
 * user's own, over SSH too) only wrapped for passthrough: every ESC doubled, between "ESC P tmux;"
 * and "ESC \\". tmux 3.3 and later pass it only with `set -g allow-passthrough on`.
 */
export const tmuxPassthrough = (sequence: string): string =>
  `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\`;

/** A desktop notification as OSC 9 (iTerm2, WezTerm, Windows Terminal, kitty) and OSC 777 (foot, Ghostty, urxvt). */
export function desktopNotification(body: string, options: { tmux: boolean }): string {
  const text = safeText(body);
  const sequences = [`${ESC}]9;${text}${BEL}`, `${ESC}]777;notify;shop-inbox;${text}${BEL}`];
  return sequences.map((sequence) => (options.tmux ? tmuxPassthrough(sequence) : sequence)).join('');
}
