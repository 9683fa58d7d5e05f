/**
 * A program in a real pseudo-terminal, seen through a headless xterm of the
 * same size: what a user would see (`screenText()`), which modes the program
 * left the terminal in (alternate screen, cursor, bracketed paste), and how
 * it exited. Everything the program writes is also kept raw (`output()`).
 *
 * What a program wrote before it ended is read however late this process reads it (node-pty gave up on
 * it 200 ms after the end before patches/node-pty+1.1.0.patch). Linux may still drop what is left unread
 * when the pty's last slave closes, as when this process catches up with a backlog just as the program
 * ends: to read what such a program wrote last, run it in a shell that stays until told
 * (stalled-terminal-pty.test.ts).
 */
import { readFileSync } from 'node:fs';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xtermHeadless, { type Terminal as XTerm } from '@xterm/headless';
import pty, { type IPty } from 'node-pty';

export interface PtyExit {
  exitCode: number;
  /** The signal that ended the process, if one did (0 or undefined when none). */
  signal?: number | undefined;
}

export interface PtyTerminalOptions {
  cols: number;
  rows: number;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Character widths of Unicode 11 (emoji two columns wide, as modern terminals and tmux have them); default xterm.js's Unicode 6. */
  unicode11?: boolean;
}

export interface PtyTerminal {
  /** The pty process (its pid is the spawned program's). */
  readonly pty: IPty;
  /** The headless xterm the output is fed into. */
  readonly term: XTerm;
  readonly pid: number;
  /** Resolves once the program has exited and all of its output has been parsed by the xterm. */
  readonly exited: Promise<PtyExit>;
  /** Everything the program wrote to the terminal, unparsed. */
  output(): string;
  /** The visible lines of the active buffer, right-trimmed. */
  lines(): string[];
  /** `lines()` joined with newlines. */
  screenText(): string;
  /** The visible text with rows that auto-wrapped joined back into one line each. */
  unwrappedText(): string;
  /**
   * Every time a row of the alternate screen auto-wrapped (text wider than the terminal), as seen
   * right after each chunk of output was parsed: the row and its text then.
   */
  overflows(): Array<{ row: number; text: string }>;
  /** Visible rows that continue the row above because it overflowed the width (auto-wrap). */
  wrappedRows(): number[];
  /** The inverse-video text of each visible row that has some (the focused tab, a selected row), by row. */
  inverseText(): Map<number, string>;
  /** Waits until the screen shows `text` (or matches it), or throws with the screen after `timeoutMs`. */
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Waits until `check()` is true, re-checking whenever output arrives. */
  waitFor(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Types keys into the terminal, as a user would. */
  send(keys: string): void;
  /** Resolves once the xterm has parsed everything received so far. */
  settle(): Promise<void>;
  /** The xterm's alternate screen is showing. */
  isAlternateScreen(): boolean;
  isCursorHidden(): boolean;
  isBracketedPaste(): boolean;
  /** Kills the process and its process group (if still running) and disposes the xterm; safe to call twice. */
  kill(): void;
}

/** Named keys as a terminal sends them. */
/**
 * The composer once its contact's lead is read (its consent record shows). Before, enter only keeps the
 * text ("Still reading this lead's contact…"): a test that types and sends waits for this first.
 */
export const COMPOSER_READY = /To .+ characters[\s\S]*(consent given|consent not given|no consent record)/;

export const KEYS = {
  tab: '\t',
  shiftTab: '\u001B[Z',
  escape: '\u001B',
  enter: '\r',
  up: '\u001B[A',
  down: '\u001B[B',
  ctrlC: '\u0003',
} as const;

const DEFAULT_TIMEOUT_MS = 10_000;

/** The xterm's cursor-hidden flag (DECTCEM): not in the public API of @xterm/headless 6. */
function cursorHidden(term: XTerm): boolean {
  const core = (term as unknown as { _core?: { coreService?: { isCursorHidden?: unknown } } })._core;
  const hidden = core?.coreService?.isCursorHidden;
  if (typeof hidden !== 'boolean')
    throw new Error('@xterm/headless no longer exposes coreService.isCursorHidden');
  return hidden;
}

export function spawnInTerminal(file: string, args: string[], options: PtyTerminalOptions): PtyTerminal {
  const term = new xtermHeadless.Terminal({
    cols: options.cols,
    rows: options.rows,
    allowProposedApi: true,
    scrollback: 1000,
  });
  if (options.unicode11) {
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
  }
  const child = pty.spawn(file, args, {
    name: 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd ?? process.cwd(),
    env: options.env,
  });
  let raw = '';
  let pending = 0;
  let disposed = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const overflows: Array<{ row: number; text: string }> = [];
  const onParsed = () => {
    pending -= 1;
    // A later frame may overwrite a wrapped row and clear its flag: look after every chunk.
    if (!disposed && term.buffer.active.type === 'alternate') {
      for (const row of wrappedRows()) {
        const above = term.buffer.active.getLine(term.buffer.active.viewportY + row - 1);
        const text = `${above?.translateToString(false, 0, term.cols) ?? ''}${lines()[row] ?? ''}`;
        if (!overflows.some((seen) => seen.row === row && seen.text === text)) overflows.push({ row, text });
      }
    }
    wake();
  };
  let lastDataAt = Date.now();
  const dataListener = child.onData((data) => {
    lastDataAt = Date.now();
    raw += data;
    if (disposed) return;
    pending += 1;
    term.write(data, onParsed);
  });

  const settle = () =>
    new Promise<void>((resolve) => {
      if (disposed) return resolve();
      term.write('', () => resolve());
    });

  let processExited = false;
  let outputDone = false;
  const exited = new Promise<PtyExit>((resolve) => {
    // node-pty can report the exit before the last of the output (a paused pty, resumed, still drains it):
    // wait until none has come for a while (at most 2 s), then let the xterm parse it all.
    const drained = async () => {
      const deadline = Date.now() + 2_000;
      while (Date.now() - lastDataAt < 150 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await settle();
    };
    child.onExit(({ exitCode, signal }) => {
      processExited = true;
      void drained().then(() => {
        outputDone = true;
        resolve({ exitCode, signal });
        wake();
      });
    });
  });

  // A row is read as wide as the screen: the alternate buffer keeps no scrollback, so xterm does not cut its
  // rows when the terminal narrows, and cells of an earlier, wider frame stay past the edge, out of sight
  // (a clear of the line clears only up to the edge); a read of the whole row showed them as on screen.
  const lines = () => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < term.rows; y += 1) {
      // Trimmed here: xterm trims a row only where its last cell holds nothing, past the edge too.
      out.push(
        (buffer.getLine(buffer.viewportY + y)?.translateToString(false, 0, term.cols) ?? '').replace(
          / +$/,
          '',
        ),
      );
    }
    return out;
  };
  const screenText = () => lines().join('\n');
  const trimmedUnless = (wrapped: boolean, text: string) => (wrapped ? text : text.replace(/ +$/, ''));
  const visibleRows = () => {
    const buffer = term.buffer.active;
    return Array.from({ length: term.rows }, (_, y) => buffer.getLine(buffer.viewportY + y));
  };
  const unwrappedText = () =>
    visibleRows()
      .map(
        (line, y) =>
          `${y > 0 && !line?.isWrapped ? '\n' : ''}${trimmedUnless(nextWrapped(y), line?.translateToString(false, 0, term.cols) ?? '')}`,
      )
      .join('');
  const nextWrapped = (y: number) =>
    Boolean(term.buffer.active.getLine(term.buffer.active.viewportY + y + 1)?.isWrapped);
  const wrappedRows = () => visibleRows().flatMap((line, y) => (line?.isWrapped ? [y] : []));
  const inverseText = () => {
    const found = new Map<number, string>();
    const cell = term.buffer.active.getNullCell();
    visibleRows().forEach((line, y) => {
      let text = '';
      for (let x = 0; line && x < Math.min(line.length, term.cols); x += 1) {
        if (line.getCell(x, cell)?.isInverse()) text += cell.getChars() || ' ';
      }
      if (text.trim()) found.set(y, text.trim());
    });
    return found;
  };

  const waitFor = async (check: () => boolean, what: string, timeoutMs = DEFAULT_TIMEOUT_MS) => {
    const deadline = Date.now() + timeoutMs;
    // Mid-frame (inside a synchronized update, or with output not yet parsed) the screen is half drawn.
    const settled = () => pending === 0 && !term.modes.synchronizedOutputMode;
    while (!(settled() && check())) {
      // Once the program has exited and its last output is parsed, nothing more will change.
      if (outputDone || Date.now() > deadline) {
        throw new Error(
          `${outputDone ? 'the program exited' : `timed out after ${timeoutMs} ms`} while waiting for ${what}; the screen:\n${screenText()}`,
        );
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, 100);
        waiters.add(done);
      });
    }
  };

  return {
    pty: child,
    term,
    pid: child.pid,
    exited,
    output: () => raw,
    lines,
    screenText,
    unwrappedText,
    overflows: () => [...overflows],
    wrappedRows,
    inverseText,
    waitFor,
    waitForText: (text, timeoutMs) =>
      waitFor(
        () => (typeof text === 'string' ? screenText().includes(text) : text.test(screenText())),
        typeof text === 'string' ? JSON.stringify(text) : String(text),
        timeoutMs,
      ),
    send: (keys) => child.write(keys),
    settle,
    isAlternateScreen: () => term.buffer.active.type === 'alternate',
    isCursorHidden: () => cursorHidden(term),
    isBracketedPaste: () => term.modes.bracketedPasteMode,
    kill: () => {
      if (disposed) return;
      disposed = true;
      dataListener.dispose();
      if (!processExited) {
        // The program leads its own session and process group (a pty's): end the group, so that a
        // shell's children go too rather than live on holding the terminal.
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          try {
            child.kill('SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
      wake();
      term.dispose();
    },
  };
}

/** The process exists and has not ended (an ended one may wait a while to be reaped: a zombie). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
