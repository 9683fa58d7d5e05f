/**
 * Everything the inbox writes to its terminal, without ever stopping the
 * process. Node writes to a terminal synchronously: when the terminal stops
 * reading (a frozen SSH session, a pty whose other side is not read), a
 * write waits, and with it the whole process: its poller, its sends and the
 * hub every other terminal of the box is served by. Here the terminal is
 * written without blocking (libuv queues what the terminal has not taken
 * and writes it as the terminal reads), and what can queue is bounded:
 *
 * - frames: while the terminal has not taken everything written so far, no
 *   new frame is drawn; Ink is told to draw once it has (`deferFrame`). The
 *   renderer's memory of the screen is the last frame it wrote, which the
 *   terminal then has whole, so the frame it draws after the wait (the
 *   latest state, every frame in between skipped) is correct.
 * - what is written beside the frames (the window title, notifications, the
 *   bell, the clipboard): held meanwhile, at most ASIDE_LIMIT bytes of the
 *   newest, and written before that frame.
 * - the terminal's modes (the alternate screen on and off): written in order,
 *   as they are few and small.
 *
 * Non-blocking writes need a descriptor of this process's own: libuv opens
 * the terminal again for its TTY handle (so that the mode does not change
 * for the shell and other programs on the same terminal), and when it cannot
 * it falls back to blocking writes, under which a non-blocking descriptor
 * would make it retry in a busy loop. So the switch is made only where the
 * conditions of that reopening can be checked (Linux: the descriptor's path
 * names the terminal device, and it is not a pty's master side); elsewhere
 * the terminal is written as Node does, blocking.
 */
import { fstatSync, readlinkSync, statSync } from 'node:fs';

/** Characters of title, notification and clipboard sequences held while the terminal does not read. */
export const ASIDE_LIMIT = 4_096;

export interface TerminalWriter {
  /**
   * The stream the renderer draws through: the terminal in every respect, with `deferFrame(draw)`,
   * which is true (and `draw` kept, to be called once the terminal has taken everything) while the
   * terminal has not taken what was written so far.
   */
  readonly frames: NodeJS.WriteStream;
  /** Writes beside the frames: at once, or held (bounded, newest kept) while the terminal does not read. */
  aside(text: string): void;
  /** Writes in order after everything written so far (the terminal's modes). */
  direct(text: string): void;
  /** Whether the terminal has taken everything written so far. */
  readonly drained: boolean;
  /** Resolves once the terminal has taken everything written so far. */
  whenDrained(): Promise<void>;
  /**
   * Resolves true once the terminal has taken everything written so far, or false once it has taken
   * nothing for `stallMs`: a slow link that reads on is waited for, a frozen one is not.
   */
  whenTakenOrStalled(stallMs: number): Promise<boolean>;
  /** Whether writes never wait for the terminal (false where it cannot be arranged: see above). */
  readonly nonBlocking: boolean;
  /** Writes wait for the terminal again (another program is given the terminal), or not. */
  setBlocking(blocking: boolean): void;
  /** Forgets what is held: nothing more is drawn or said. */
  dispose(): void;
}

interface TtyHandle {
  setBlocking?(blocking: boolean): number;
}

const handleOf = (stream: NodeJS.WriteStream): TtyHandle | undefined =>
  (stream as unknown as { _handle?: TtyHandle })._handle;

const fdOf = (stream: NodeJS.WriteStream): number | undefined => {
  const fd = (stream as { fd?: unknown }).fd;
  return typeof fd === 'number' ? fd : undefined;
};

/**
 * Whether libuv gave this terminal stream a descriptor of its own (it does when it can open the
 * terminal again by its name: a terminal device that is not a pty's master side). Linux only: the
 * name comes from /proc.
 */
export function hasOwnTerminalDescriptor(stream: NodeJS.WriteStream): boolean {
  const fd = fdOf(stream);
  if (process.platform !== 'linux' || !stream.isTTY || fd === undefined) return false;
  try {
    const path = readlinkSync(`/proc/self/fd/${fd}`);
    if (!path.startsWith('/dev/') || path === '/dev/ptmx') return false;
    const named = statSync(path);
    const held = fstatSync(fd);
    return named.rdev === held.rdev && named.ino === held.ino && named.dev === held.dev;
  } catch {
    return false;
  }
}

type WriteCallback = (error?: Error | null) => void;

/**
 * Makes a terminal stream's writes never wait for the terminal, where that can be arranged (see
 * above); returns whether it was. `blocking: true` undoes it.
 */
export function setTerminalBlocking(stream: NodeJS.WriteStream, blocking: boolean): boolean {
  const handle = handleOf(stream);
  if (typeof handle?.setBlocking !== 'function' || !hasOwnTerminalDescriptor(stream)) return false;
  handle.setBlocking(blocking);
  return true;
}

export interface TerminalWriterOptions {
  /** Changes each text the renderer writes (a sequence it must not send). */
  rewriteFrame?: (text: string) => string;
}

export function createTerminalWriter(
  stdout: NodeJS.WriteStream,
  { rewriteFrame = (text) => text }: TerminalWriterOptions = {},
): TerminalWriter {
  const nonBlocking = setTerminalBlocking(stdout, false);
  const setBlocking = (blocking: boolean) => {
    if (nonBlocking) setTerminalBlocking(stdout, blocking);
  };

  let held: (() => void) | undefined;
  let heldAside: string[] = [];
  let disposed = false;
  const drained = () => stdout.writableLength === 0;

  const write = (chunk: unknown, encoding?: BufferEncoding, callback?: WriteCallback): boolean => {
    if (stdout.destroyed || !stdout.writable) {
      callback?.(null);
      return false;
    }
    const done: WriteCallback = (error) => {
      callback?.(error);
      if (!error) afterWrite();
    };
    try {
      return encoding ? stdout.write(chunk as string, encoding, done) : stdout.write(chunk as string, done);
    } catch (error) {
      // The terminal is gone (EIO/EPIPE after a hang-up): its 'error' ends the program.
      callback?.(error as Error);
      return false;
    }
  };

  /** The terminal has taken a write: once it has taken them all, what waited is written. */
  function afterWrite(): void {
    if (disposed || !drained()) return;
    if (heldAside.length > 0) {
      const text = heldAside.join('');
      heldAside = [];
      write(text);
      if (!drained()) return;
    }
    const draw = held;
    held = undefined;
    draw?.();
  }
  stdout.on('drain', afterWrite);

  const deferFrame = (draw: () => void): boolean => {
    if (disposed || drained()) return false;
    held = draw;
    return true;
  };

  const frames = new Proxy(stdout, {
    get(target, property) {
      if (property === 'write')
        return (
          chunk: unknown,
          encodingOrCallback?: BufferEncoding | WriteCallback,
          callback?: WriteCallback,
        ) => {
          const text = typeof chunk === 'string' ? rewriteFrame(chunk) : chunk;
          return typeof encodingOrCallback === 'function'
            ? write(text, undefined, encodingOrCallback)
            : write(text, encodingOrCallback, callback);
        };
      if (property === 'deferFrame') return deferFrame;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

  return {
    frames,
    aside(text) {
      if (disposed) return;
      if (drained() && heldAside.length === 0) {
        write(text);
        return;
      }
      heldAside.push(text);
      let bytes = heldAside.reduce((sum, each) => sum + each.length, 0);
      while (bytes > ASIDE_LIMIT && heldAside.length > 1) bytes -= heldAside.shift()?.length ?? 0;
      if (bytes > ASIDE_LIMIT) heldAside = [];
    },
    direct: (text) => {
      write(text);
    },
    get drained() {
      return drained();
    },
    whenDrained: () =>
      new Promise<void>((resolve) => {
        if (drained()) resolve();
        else write('', undefined, () => resolve());
      }),
    whenTakenOrStalled: (stallMs) =>
      new Promise<boolean>((resolve) => {
        if (drained()) return resolve(true);
        // What the terminal takes shows as a write finished: the queue gets shorter.
        let queued = stdout.writableLength;
        let tookAt = Date.now();
        const check = setInterval(
          () => {
            const now = Date.now();
            if (stdout.writableLength < queued) {
              queued = stdout.writableLength;
              tookAt = now;
            }
            if (queued === 0 || now - tookAt >= stallMs) {
              clearInterval(check);
              resolve(queued === 0);
            }
          },
          Math.max(10, Math.min(100, stallMs / 4)),
        );
      }),
    nonBlocking,
    setBlocking,
    dispose() {
      disposed = true;
      held = undefined;
      heldAside = [];
      stdout.off('drain', afterWrite);
    },
  };
}
