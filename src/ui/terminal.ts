/**
 * The terminal while the inbox runs: the alternate screen (so the shell's
 * scrollback is untouched), bracketed paste (so a pasted line break is text,
 * not Enter), mouse reporting when it is on, and the way back. `restore()` is safe to call from every exit
 * path, any number of times, even when the terminal is already gone (a
 * dropped SSH session).
 */

const ENTER = '\u001B[?1049h\u001B[?2004h';
/** Mouse clicks and the wheel, reported as SGR sequences (never the raw X10 bytes). */
const MOUSE_ON = '\u001B[?1000h\u001B[?1006h';
/** Mouse reporting off (always sent: harmless when it was never on), bracketed paste off, cursor shown, attributes reset, main screen back. */
const LEAVE = '\u001B[?1006l\u001B[?1000l\u001B[?2004l\u001B[0m\u001B[?25h\u001B[?1049l';

export interface TerminalStreams {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

export interface FullScreen {
  restore(): void;
}

function safeWrite(stream: NodeJS.WriteStream, text: string): void {
  try {
    if (!stream.destroyed && stream.writable) stream.write(text);
  } catch {
    // The terminal is gone (EIO/EPIPE after a hang-up): nothing left to restore.
  }
}

export function enterFullScreen(
  { stdout, stdin }: TerminalStreams,
  options: { mouse?: boolean } = {},
): FullScreen {
  // A write to a terminal that hung up must not become an uncaught error.
  const ignore = () => {};
  stdout.on('error', ignore);
  safeWrite(stdout, options.mouse ? ENTER + MOUSE_ON : ENTER);
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      try {
        if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
      } catch {
        // As above: the terminal may be gone.
      }
      safeWrite(stdout, LEAVE);
    },
  };
}
