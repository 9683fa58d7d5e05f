/**
 * The key trace's hooks (src/ui-kit/key-trace.ts) on streams of Node's own: a key read and the write after
 * it make one line, a burst counts from its first key, and stopping leaves the streams as they were.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type KeyTraceLine, traceKeys } from '../../src/ui-kit/key-trace.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shop-inbox-key-trace-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const streams = () => {
  const written: string[] = [];
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stdin: new PassThrough(), stdout, written };
};
const traced = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as KeyTraceLine)
    : [];

it('writes one line per key once the write after it returns, a burst counted from its first key', async () => {
  const file = join(dir, 'keys.jsonl');
  const { stdin, stdout, written } = streams();
  // The inbox's own reader, which makes stdin flow.
  stdin.on('data', () => {});
  const stop = traceKeys({ SHOP_INBOX_TRACE_KEYS: file }, { stdin, stdout });
  stdout.write('a frame before any key');
  expect(traced(file)).toEqual([]);

  const before = performance.timeOrigin + performance.now();
  stdin.write('j');
  await new Promise((resolve) => setImmediate(resolve));
  const firstRead = performance.timeOrigin + performance.now();
  stdin.write('k');
  await new Promise((resolve) => setImmediate(resolve));
  stdout.write('the frame of j and k');
  stdout.write('a later frame, of no key');
  stop();

  const lines = traced(file);
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(line?.readAt).toBeGreaterThanOrEqual(before);
  expect(line?.readAt).toBeLessThanOrEqual(firstRead);
  expect(line?.writtenAt).toBeGreaterThanOrEqual(line?.readAt ?? Number.POSITIVE_INFINITY);
  if (process.platform === 'linux') expect(line?.waitingMs).toBeGreaterThanOrEqual(0);
  expect(written).toEqual(['a frame before any key', 'the frame of j and k', 'a later frame, of no key']);
});

/** The calling thread's count of times it was put on a CPU (the third field of its schedstat). */
const timesScheduled = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[2]);

it.runIf(process.platform === 'linux')(
  "counts the main thread's wait for a CPU, not its time on one: a key's busy work is not a wait",
  async () => {
    const file = join(dir, 'keys.jsonl');
    const { stdin, stdout } = streams();
    // The inbox's own reader, which makes stdin flow.
    stdin.on('data', () => {});
    const stop = traceKeys({ SHOP_INBOX_TRACE_KEYS: file }, { stdin, stdout });
    // A key whose work is 5 ms of running. Where the thread was never taken off its CPU from before the key
    // to after its frame (the kernel's count of times it was put on one did not move), it cannot have
    // waited: the wait must read exactly 0, while its time on a CPU would read 1 ms or more (the kernel's
    // count of that lags by up to a tick, 4 ms at 250 Hz). The busy work is timed by the wall clock, not by
    // the process's CPU time, which other threads of the process (V8's helpers) add to. On a machine too busy
    // for an undisturbed key in forty tries, only the bounds are checked.
    let undisturbed = 0;
    for (let attempt = 0; attempt < 40 && undisturbed === 0; attempt += 1) {
      const scheduledBefore = timesScheduled();
      stdin.write('j');
      await new Promise((resolve) => setImmediate(resolve));
      const busyFrom = performance.now();
      while (performance.now() - busyFrom < 5) {
        // the key's work
      }
      stdout.write('the frame of j');
      const scheduledAfter = timesScheduled();
      const line = traced(file).at(-1);
      const inside = (line?.writtenAt ?? 0) - (line?.readAt ?? 0);
      expect(inside).toBeGreaterThanOrEqual(5);
      expect(line?.waitingMs).toBeGreaterThanOrEqual(0);
      expect(line?.waitingMs).toBeLessThanOrEqual(inside);
      if (scheduledAfter === scheduledBefore) {
        expect(line?.waitingMs).toBe(0);
        undisturbed += 1;
      }
    }
    stop();
  },
);

it('leaves the streams as they were once stopped, and hooks nothing without the variable', async () => {
  const file = join(dir, 'keys.jsonl');
  const { stdin, stdout } = streams();
  const listeners = stdin.listenerCount('data');
  const stop = traceKeys({ SHOP_INBOX_TRACE_KEYS: file }, { stdin, stdout });
  expect(Object.hasOwn(stdout, 'write')).toBe(true);
  stop();
  expect(Object.hasOwn(stdout, 'write')).toBe(false);
  expect(stdin.listenerCount('data')).toBe(listeners);
  stdin.write('j');
  stdout.write('a frame');
  expect(traced(file)).toEqual([]);

  const untouched = streams();
  traceKeys({}, untouched)();
  expect(Object.hasOwn(untouched.stdout, 'write')).toBe(false);
  expect(untouched.stdin.listenerCount('data')).toBe(0);
});
