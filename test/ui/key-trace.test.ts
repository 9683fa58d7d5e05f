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
  if (process.platform === 'linux') {
    expect(line?.onCpuMs).toBeGreaterThanOrEqual(0);
    expect(line?.waitingMs).toBeGreaterThanOrEqual(0);
  }
  expect(written).toEqual(['a frame before any key', 'the frame of j and k', 'a later frame, of no key']);
});

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
