/**
 * Where a key's milliseconds go. With `SHOP_INBOX_TRACE_KEYS=<file>` the inbox appends one JSON line to
 * that file for each key it reads from the terminal, once the first write after it has returned:
 *
 * - `readAt`, `writtenAt`: when the key was read and when that write returned, in milliseconds since the
 *   epoch with a fraction (`performance.timeOrigin + performance.now()`), so that another process on the
 *   same machine (`npm run bench`, which pressed the key) can set them beside its own times;
 * - `onCpuMs`, `waitingMs`: of the time between the two, how long the main thread ran on a CPU and how long
 *   it was ready to run but waited for one (Linux's `/proc/thread-self/schedstat`; absent elsewhere). What
 *   is neither, the thread was asleep: waiting for a timer or for I/O.
 *
 * Keys read before that write (a burst) count from the first of them. `npm run bench` reads the file into
 * its "where a key's milliseconds go" table. Unset, nothing is hooked.
 */
import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';

export interface KeyTraceLine {
  readAt: number;
  writtenAt: number;
  onCpuMs?: number;
  waitingMs?: number;
}

interface Streams {
  stdin: NodeJS.EventEmitter;
  stdout: NodeJS.WriteStream;
}

const epochNow = () => performance.timeOrigin + performance.now();

/**
 * The main thread's time on a CPU and waiting for one, in ms, read from a descriptor opened once (a read
 * of it costs a few microseconds, inside the time measured). Opened on the main thread, so that
 * `thread-self` is that thread for as long as it is open.
 */
function mainThreadClock(): { read(): [number, number] | undefined; close(): void } {
  let fd: number | undefined;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    fd = undefined;
  }
  const buffer = Buffer.alloc(96);
  return {
    read() {
      if (fd === undefined) return undefined;
      try {
        const length = readSync(fd, buffer, 0, buffer.length, 0);
        const [onCpuNs, waitingNs] = buffer.toString('latin1', 0, length).split(' ');
        return [Number(onCpuNs) / 1e6, Number(waitingNs) / 1e6];
      } catch {
        return undefined;
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Starts the key trace when `SHOP_INBOX_TRACE_KEYS` names a file; returns how to stop it. */
export function traceKeys(env: NodeJS.ProcessEnv, { stdin, stdout }: Streams): () => void {
  const file = env.SHOP_INBOX_TRACE_KEYS;
  if (!file) return () => {};
  const clock = mainThreadClock();
  let pending: { readAt: number; clock: [number, number] | undefined } | undefined;
  const onKey = () => {
    pending ??= { readAt: epochNow(), clock: clock.read() };
  };
  const write = stdout.write;
  const ownWrite = Object.hasOwn(stdout, 'write');
  // The stream's own write, wrapped on this one stream only while tracing: the moment a frame's bytes are
  // handed to the terminal is the end of a key's time, whoever writes them.
  stdout.write = function tracedWrite(this: NodeJS.WriteStream, ...args: unknown[]) {
    const result = (write as (...a: unknown[]) => boolean).apply(this, args);
    if (pending) {
      const writtenAt = epochNow();
      const after = clock.read();
      const line: KeyTraceLine = { readAt: pending.readAt, writtenAt };
      if (pending.clock && after) {
        line.onCpuMs = after[0] - pending.clock[0];
        line.waitingMs = after[1] - pending.clock[1];
      }
      pending = undefined;
      try {
        appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      } catch {
        // A trace that cannot be written must not stop the inbox.
      }
    }
    return result;
  } as NodeJS.WriteStream['write'];
  stdin.prependListener('data', onKey);
  return () => {
    stdin.off('data', onKey);
    if (ownWrite) stdout.write = write;
    else delete (stdout as { write?: unknown }).write;
    clock.close();
  };
}
