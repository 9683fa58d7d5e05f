/**
 * The one way a file of settings is read (the key file, config.json,
 * templates.json): a regular file only, through a cap that holds even when
 * the file's size says otherwise, and never waiting on a pipe or a device.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatBytes, readBoundedFile } from '../../src/config/bounded-file.js';

class Refused extends Error {}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shop-inbox-bounded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (path: string, maxBytes = 1024) =>
  readBoundedFile(path, { maxBytes, name: `the file ${path}`, fail: (message) => new Refused(message) });

async function refusal(path: string, maxBytes = 1024): Promise<string> {
  const error = await read(path, maxBytes).then(
    () => expect.fail('the file was read'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Refused);
  return (error as Refused).message;
}

describe('readBoundedFile', () => {
  it('reads a regular file, and a symlink to one', async () => {
    const path = join(dir, 'settings');
    await writeFile(path, 'hello');
    await symlink(path, join(dir, 'link'));
    expect((await read(path))?.toString()).toBe('hello');
    expect((await read(join(dir, 'link')))?.toString()).toBe('hello');
  });

  it('gives undefined when nothing is at the path, or a symlink points nowhere', async () => {
    expect(await read(join(dir, 'absent'))).toBeUndefined();
    await symlink(join(dir, 'gone'), join(dir, 'dangling'));
    expect(await read(join(dir, 'dangling'))).toBeUndefined();
  });

  it('refuses a named pipe at once, also one nobody will ever write to', { timeout: 5_000 }, async () => {
    const path = join(dir, 'fifo');
    execFileSync('mkfifo', [path]);
    expect(await refusal(path)).toBe(`the file ${path} is not a regular file (it is a named pipe)`);
  });

  it.each([
    ['/dev/zero', 'a character device'],
    ['/dev/null', 'a character device'],
    ['/dev/urandom', 'a character device'],
  ])('refuses a symlink to %s (%s)', { timeout: 5_000 }, async (device, kind) => {
    const path = join(dir, 'device');
    await symlink(device, path);
    expect(await refusal(path)).toBe(`the file ${path} is not a regular file (it is ${kind})`);
  });

  it('refuses a directory and a socket', async () => {
    expect(await refusal(dir)).toMatch(/\(it is a directory\)$/);
    const socketPath = join(dir, 'sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect(await refusal(socketPath)).toMatch(/\(it is a socket\)$/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a file over the cap by its size, saying both', async () => {
    const path = join(dir, 'big');
    await writeFile(path, 'x'.repeat(3000));
    expect(await refusal(path, 1024)).toBe(`the file ${path} is 2.9 KiB, over 1 KiB, the most it may hold`);
  });

  it('holds the cap when the size says 0 but the content is longer (a /proc file)', async () => {
    // /proc/self/status is a regular file of size 0 whose content is well over 64 bytes.
    const path = join(dir, 'status');
    await symlink('/proc/self/status', path);
    expect(await refusal(path, 64)).toBe(`the file ${path} is larger than 64 bytes, the most it may hold`);
    expect((await read(path, 64 * 1024))?.toString()).toMatch(/^Name:/);
  });

  it('reads any file of at most the cap whole, and refuses any larger one', async () => {
    const path = join(dir, 'any');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        async (size, cap) => {
          const content = Buffer.alloc(size, 0x61);
          await writeFile(path, content);
          const result = await read(path, cap).catch((error: unknown) => error);
          if (size <= cap) expect(result).toEqual(content);
          else expect(result).toBeInstanceOf(Refused);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('names sizes as people read them', () => {
    expect(formatBytes(64)).toBe('64 bytes');
    expect(formatBytes(256 * 1024)).toBe('256 KiB');
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(100 * 1024 * 1024 + 1)).toBe('100 MiB');
  });
});
