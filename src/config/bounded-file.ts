/**
 * Reading a small file of this user's settings (the key file, config.json,
 * templates.json) without trusting what is at the path: only a regular file
 * (a symlink to one is fine) is read, never more than a cap, and nothing waits.
 * A named pipe would block start-up until someone writes to it, and a symlink
 * to /dev/zero would be read until memory runs out: both, and every other
 * device, socket or directory, are refused before a byte is read.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

export interface BoundedReadOptions {
  /** The most the file may hold; a larger one is refused, not cut. */
  maxBytes: number;
  /** How messages name the file: "the key file /home/ann/key". */
  name: string;
  /** Checks on the opened file itself (its mode, its owner): the problem in words, or undefined (or it throws its own error). */
  check?: (info: Stats) => string | undefined;
  /** Says that the file is over the cap, in the caller's words (default: its size and the cap). */
  tooLarge?: string;
  /** Makes the error thrown for any problem (a ConfigError, a TemplatesError…). */
  fail: (message: string) => Error;
}

/** What a path holds, when it is not a regular file, in the words `ls -l` users know. */
export function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** "256 KiB", "1 MiB", "100.0 MiB": a size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

function notRegular(options: BoundedReadOptions, info: Stats): Error {
  return options.fail(`${options.name} is not a regular file (it is ${fileKind(info)})`);
}

function overCap(options: BoundedReadOptions, size?: number): Error {
  return options.fail(
    options.tooLarge ??
      `${options.name} is ${size === undefined ? 'larger than' : `${formatBytes(size)}, over`} ${formatBytes(options.maxBytes)}, the most it may hold`,
  );
}

/** Reads at most `limit` bytes from the file's start. */
async function readUpTo(handle: FileHandle, limit: number): Promise<Buffer> {
  const buffer = Buffer.alloc(limit);
  let filled = 0;
  while (filled < limit) {
    const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** The file's bytes, or undefined when nothing is at the path; refuses anything else with `options.fail`. */
export async function readBoundedFile(
  path: string,
  options: BoundedReadOptions,
): Promise<Buffer | undefined> {
  // A first look, following symlinks, so that a device or a pipe is never even opened.
  let target: Stats;
  try {
    target = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw options.fail(`cannot open ${options.name} (${code ?? 'unknown error'})`);
  }
  if (!target.isFile()) throw notRegular(options, target);

  let handle: FileHandle;
  try {
    // O_NONBLOCK: if the path was swapped for a named pipe since the look above, opening it must
    // not wait for a writer (the check below then refuses it). O_NOCTTY: a terminal device never
    // becomes this process's controlling terminal.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw options.fail(`cannot open ${options.name} (${code ?? 'unknown error'})`);
  }
  try {
    // Checked on the open file, so what is checked is what is read.
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(options, info);
    const problem = options.check?.(info);
    if (problem !== undefined) throw options.fail(problem);
    if (info.size > options.maxBytes) throw overCap(options, info.size);
    // One byte more than the cap: a file that grew since its size was read is refused, not cut.
    const bytes = await readUpTo(handle, options.maxBytes + 1);
    if (bytes.length > options.maxBytes) throw overCap(options);
    return bytes;
  } finally {
    await handle.close();
  }
}
