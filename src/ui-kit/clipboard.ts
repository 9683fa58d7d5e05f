/**
 * Copying to the clipboard of the terminal staff sit at, also over SSH and in
 * tmux: OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`), which the terminal itself
 * handles. Inside tmux ($TMUX set) the sequence is wrapped for passthrough
 * (`ESC P tmux ; …ESC doubled… ESC \`), which tmux lets through with
 * `set -g allow-passthrough on`; with `set -g set-clipboard on` tmux also
 * understands the bare sequence.
 *
 * What is copied is text as the screen shows it: sanitized (no escape
 * sequences, no control characters, no bidi overrides), cut to a length, then
 * base64-encoded, so nothing in it can end the sequence or start another.
 * (No npm package does only this; the sequence is a few bytes.)
 */

import { sanitize } from '../text/sanitize.js';
import { tmuxPassthrough } from './terminal-signals.js';

/** At most this many characters are copied (a text is at most 1600; links and phones far less). */
export const COPY_LIMIT = 4_000;

const ESC = '\u001B';
const BEL = '\u0007';

/** The text that will be copied: sanitized as on screen, whole characters, at most COPY_LIMIT. */
export function copyableText(text: string): string {
  const clean = sanitize(text);
  const chars = [...clean];
  return chars.length > COPY_LIMIT ? chars.slice(0, COPY_LIMIT).join('') : clean;
}

/** The bytes that put `text` on the terminal's clipboard (already copyable: see copyableText). */
export function osc52(text: string, { tmux }: { tmux: boolean }): string {
  const sequence = `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;
  return tmux ? tmuxPassthrough(sequence) : sequence;
}
