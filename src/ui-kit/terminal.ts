/**
 * The terminal while the inbox runs: the alternate screen (so the shell's
 * screen and scrollback are untouched), bracketed paste (so a pasted line
 * break is text, not Enter), mouse reporting when it is on, the user's window
 * title kept aside while the inbox sets its own, and the way back. `restore()` is safe to call
 * from every exit path, any number of times, even when the terminal is
 * already gone (a dropped SSH session). Everything is written through one
 * writer that never stops the process (terminal-writer.ts).
 */
import { closeSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';
import { POP_TITLE, PUSH_TITLE } from './terminal-signals.js';
import { createTerminalWriter, setTerminalBlocking } from './terminal-writer.js';

/** Alternate screen, then bracketed paste. */
const ENTER = '\u001B[?1049h\u001B[?2004h';
/** Mouse clicks and the wheel, reported as SGR sequences (never the raw X10 bytes). */
const MOUSE_ON = '\u001B[?1000h\u001B[?1006h';
/**
 * Mouse reporting off (harmless when it was never on), bracketed paste off, attributes reset, the
 * alternate screen erased, cursor shown, main screen back.
 *
 * The erase matters in tmux (3.3a at least): when the window has grown while the alternate screen
 * was up, tmux reflows the alternate screen to the size it had when it was entered before it
 * switches back, and every row wider than that is split, the overflow landing in the main screen's
 * history and, once the pane grows back, on the shell's screen: a dozen rows of customers' names
 * and phone numbers left behind after quitting. Blank rows reflow to nothing. The attributes are
 * reset first so that the erase leaves default cells, which tmux does not count as text.
 */
const LEAVE = '\u001B[?1006l\u001B[?1000l\u001B[?2004l\u001B[0m\u001B[H\u001B[2J\u001B[?25h\u001B[?1049l';

/**
 * Erase the scrollback. Ink sends it (inside its "clear terminal") whenever a frame is as tall as
 * the terminal, which happens once after every shrink in height. On the alternate screen there is
 * no scrollback of ours to erase: tmux applies it to the pane's history, the shell's.
 */
const ERASE_SCROLLBACK = '\u001B[3J';

export interface TerminalStreams {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Also watched for the terminal going away, when it is the same terminal. */
  stderr?: NodeJS.WriteStream;
}

export interface FullScreenOptions {
  /**
   * Called once when the terminal has gone away (an error on one of its streams: EIO once an SSH
   * session dropped or the pty closed, EPIPE): the program should end, quietly.
   */
  onGone?: () => void;
  /** Report clicks and the wheel (SGR mouse reporting). */
  mouse?: boolean;
  /** The program sets the window title: the user's is pushed at start and popped on the way out. */
  title?: boolean;
}

export interface FullScreen {
  /**
   * The stream to draw through: the terminal, less the one sequence that would erase the shell's
   * history; frames wait while the terminal does not read (see terminal-writer.ts).
   */
  readonly output: NodeJS.WriteStream;
  /** Writes beside the frames (title, notifications, bell, clipboard); never blocks, bounded while the terminal does not read. */
  write(text: string): void;
  /**
   * Resolves true once the terminal has taken everything written (after `restore()`: its modes back),
   * false once it has taken nothing for `stallMs` (TerminalWriter.whenTakenOrStalled).
   */
  whenTakenOrStalled(stallMs: number): Promise<boolean>;
  restore(): void;
  /**
   * Gives the terminal to another program (an editor): raw mode, mouse, paste and the alternate screen
   * off. Resolves once the terminal has taken all of it, so that nothing of ours lands among the
   * other program's output.
   */
  suspend(): Promise<void>;
  /** Takes it back after `suspend()`: the alternate screen (blank, to be drawn whole), paste and mouse on again. */
  resume(): void;
}

const fdOf = (stream: unknown): number | undefined => {
  const fd = (stream as { fd?: unknown } | undefined)?.fd;
  return typeof fd === 'number' ? fd : undefined;
};

/**
 * At exit Node puts each standard descriptor that was a terminal at start-up back into its
 * start-up mode, and Node 20 aborts with an assertion and a native stack when that fails, which it
 * does with EIO once the terminal has hung up (nodejs/node#51519). A descriptor whose terminal is
 * gone is pointed at /dev/null instead: Node skips a descriptor that no longer names the same file,
 * and nothing written to it later can land in a file opened meanwhile.
 */
function releaseVanishedTerminal(fds: number[]): void {
  for (const fd of fds) {
    // isatty() asks the terminal for its mode: a hung-up terminal answers EIO, so false.
    if (isatty(fd)) continue;
    try {
      closeSync(fd);
      // open() takes the lowest free descriptor: the one just closed.
      const reopened = openSync('/dev/null', 'r+');
      if (reopened !== fd) closeSync(reopened);
    } catch {
      // Nothing more can be done this late; Node's own check decides.
    }
  }
}

export function enterFullScreen(
  { stdout, stdin, stderr }: TerminalStreams,
  { onGone, mouse, title }: FullScreenOptions = {},
): FullScreen {
  let gone = false;
  // A terminal that hung up fails reads and writes (EIO, EPIPE): that ends the program, quietly,
  // rather than becoming an uncaught error (whose report could not be shown anyway).
  const lost = () => {
    if (gone) return;
    gone = true;
    onGone?.();
  };
  const streams = [stdin, stdout, ...(stderr?.isTTY ? [stderr] : [])];
  for (const stream of streams) stream.on('error', lost);
  // A hung-up terminal reads as end of file (in raw mode, ctrl-d is a key, not an end).
  stdin.on('end', lost);
  const terminalFds = streams.flatMap((stream) => {
    const fd = fdOf(stream);
    return fd !== undefined && fd <= 2 && stream.isTTY ? [fd] : [];
  });
  if (terminalFds.length > 0) process.once('exit', () => releaseVanishedTerminal(terminalFds));

  const writer = createTerminalWriter(stdout, {
    rewriteFrame: (text) => text.replaceAll(ERASE_SCROLLBACK, ''),
  });
  // What goes to stderr on the same terminal must not wait for it either: a crash report, and the
  // cursor Ink's cli-cursor shows again at exit; the process would hang there, and with it the hub of
  // the other terminals. Node puts the mode back at exit.
  if (stderr?.isTTY) setTerminalBlocking(stderr, false);
  writer.direct(`${title ? PUSH_TITLE : ''}${ENTER}${mouse ? MOUSE_ON : ''}`);
  let restored = false;
  const rawOff = () => {
    try {
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
    } catch {
      // As below: the terminal may be gone.
    }
  };
  return {
    output: writer.frames,
    write: (text) => {
      if (!restored) writer.aside(text);
    },
    whenTakenOrStalled: (stallMs) => writer.whenTakenOrStalled(stallMs),
    restore() {
      if (restored) return;
      restored = true;
      rawOff();
      // After the frame the terminal may still be taking, so that the way back is the last thing it gets.
      writer.dispose();
      writer.direct(title ? LEAVE + POP_TITLE : LEAVE);
    },
    async suspend() {
      if (restored) return;
      rawOff();
      writer.direct(LEAVE);
      await writer.whenDrained();
      // The editor inherits this descriptor: it writes as programs expect, waiting for the terminal.
      writer.setBlocking(true);
    },
    resume() {
      if (restored) return;
      writer.setBlocking(false);
      writer.direct(`${mouse ? ENTER + MOUSE_ON : ENTER}\u001B[H\u001B[2J`);
    },
  };
}
