/**
 * Where a key's milliseconds go. With `SHOP_INBOX_TRACE_KEYS=<file>` the inbox appends one JSON line to
 * that file for each key it reads from the terminal, once the first write after it has returned:
 *
 * - `readAt`, `writtenAt`: when the key was read and when that write returned, in milliseconds since the
 *   epoch with a fraction (`performance.timeOrigin + performance.now()`), so that another process on the
 *   same machine (`npm run bench`, which pressed the key) can set them beside its own times;
 * - `waitingMs`: of the time between the two, how long the main thread was ready to run but waited for a CPU
 *   (Linux's `/proc/thread-self/schedstat`, its second field; absent elsewhere). The kernel adds a wait when
 *   the thread is put on a CPU, so the count is exact whenever the main thread reads it, running. Its time
 *   on a CPU is not given: the kernel's count of that (the first field) lags by up to a tick (4 ms at 250 Hz)
 *   for a running thread, too coarse for a key of a few milliseconds.
 *
 * Keys read before that write (a burst) count from the first of them. `npm run bench` reads the file into
 * its "where a key's milliseconds go" table. Unset, nothing is hooked.
 */
import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';

export interface KeyTraceLine {
  readAt: number;
  writtenAt: number;
  waitingMs?: number;
}

interface Streams {
  stdin: NodeJS.EventEmitter;
  stdout: NodeJS.WriteStream;
}

const epochNow = () => performance.timeOrigin + performance.now();

/**
 * The main thread's time spent waiting for a CPU, in ms, read from a descriptor opened once (a read of it
 * costs a few microseconds, inside the time measured). Opened on the main thread, so that `thread-self` is
 * that thread for as long as it is open.
 */
function mainThreadWaits(): { read(): number | undefined; close(): void } {
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
        const waitingNs = Number(buffer.toString('latin1', 0, length).split(' ')[1]);
        return Number.isFinite(waitingNs) ? waitingNs / 1e6 : undefined;
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
  const waits = mainThreadWaits();
  let pending: { readAt: number; waited: number | undefined } | undefined;
  const onKey = () => {
    pending ??= { readAt: epochNow(), waited: waits.read() };
  };
  const write = stdout.write;
  const ownWrite = Object.hasOwn(stdout, 'write');
  // The stream's own write, wrapped on this one stream only while tracing: the moment a frame's bytes are
  // handed to the terminal is the end of a key's time, whoever writes them.
  stdout.write = function tracedWrite(this: NodeJS.WriteStream, ...args: unknown[]) {
    const result = (write as (...a: unknown[]) => boolean).apply(this, args);
    if (pending) {
      const writtenAt = epochNow();
      const waited = waits.read();
      const line: KeyTraceLine = { readAt: pending.readAt, writtenAt };
      if (pending.waited !== undefined && waited !== undefined) line.waitingMs = waited - pending.waited;
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
    waits.close();
  };
}
