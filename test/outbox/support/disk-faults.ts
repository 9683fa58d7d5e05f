/**
 * Node's own file system for the outbox, with the faults of a real disk
 * where a test asks for them: a call fails with the errno the kernel gives
 * (ENOSPC from a write on a full disk, EROFS on a read-only mount, EIO…), or
 * waits until the test lets it go on. Everything else is node:fs/promises
 * itself; nothing of the outbox's own code is replaced.
 */
import type { FileHandle } from 'node:fs/promises';
import * as nodeFs from 'node:fs/promises';
import { constants } from 'node:os';
import type { PrivateFileSystem } from '../../../src/config/private-file.js';

/** The steps of a write, and the reads, as the kernel sees them. */
export type DiskStep =
  | 'mkdir'
  | 'read'
  /** Creating the temporary file the new content goes to. */
  | 'create'
  | 'write'
  | 'sync'
  | 'rename'
  /** Opening the directory to sync it after the rename. */
  | 'open-dir';

const DESCRIPTIONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'i/o error',
  EISDIR: 'illegal operation on a directory',
};

/** An error as node's fs gives it: message, errno, code, syscall, path. */
export function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const errno = (constants.errno as Record<string, number>)[code] ?? 0;
  return Object.assign(new Error(`${code}: ${DESCRIPTIONS[code] ?? 'error'}, ${syscall} '${path}'`), {
    errno: -errno,
    code,
    syscall,
    path,
  });
}

interface Fault {
  step: DiskStep;
  code?: string;
  /** Calls of this step let through first. */
  skip: number;
  /** How many calls it affects; Infinity until healed. */
  times: number;
  hold?: { reached: () => void; released: Promise<void> };
}

export interface FaultyDisk {
  fs: PrivateFileSystem;
  /** The next `times` calls of `step` (after `skip` more) fail with `code` (Infinity: until `heal()`). */
  fail(step: DiskStep, code: string, times?: number, skip?: number): void;
  /** The next call of `step` waits until `release()`; `reached` resolves once it waits. */
  hold(step: DiskStep): { reached: Promise<void>; release: () => void };
  /** No more faults. */
  heal(): void;
  /** Every step taken, in order, with its path. */
  readonly steps: Array<{ step: DiskStep; path: string }>;
}

export function faultyDisk(): FaultyDisk {
  let faults: Fault[] = [];
  const steps: FaultyDisk['steps'] = [];

  /** Applies the first fault of this step (a wait, then maybe an error). */
  const take = async (step: DiskStep, syscall: string, path: string) => {
    steps.push({ step, path });
    const fault = faults.find((candidate) => candidate.step === step);
    if (!fault) return;
    if (fault.skip > 0) {
      fault.skip -= 1;
      return;
    }
    fault.times -= 1;
    if (fault.times <= 0) faults = faults.filter((candidate) => candidate !== fault);
    if (fault.hold) {
      fault.hold.reached();
      await fault.hold.released;
    }
    if (fault.code) throw errnoError(fault.code, syscall, path);
  };

  const handleOf = (handle: FileHandle, path: string, step: 'create' | 'open-dir'): FileHandle =>
    new Proxy(handle, {
      get: (target, property) => {
        const value = Reflect.get(target, property);
        if (property === 'writeFile' && step === 'create') {
          return async (...args: Parameters<FileHandle['writeFile']>) => {
            await take('write', 'write', path);
            return target.writeFile(...args);
          };
        }
        if (property === 'sync') {
          return async () => {
            await take('sync', 'fsync', path);
            return target.sync();
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  const fs: PrivateFileSystem = {
    ...nodeFs,
    mkdir: (async (path: string, options?: Parameters<typeof nodeFs.mkdir>[1]) => {
      await take('mkdir', 'mkdir', path);
      return nodeFs.mkdir(path, options);
    }) as typeof nodeFs.mkdir,
    readFile: (async (path: string, options?: Parameters<typeof nodeFs.readFile>[1]) => {
      await take('read', 'open', path);
      return nodeFs.readFile(path, options);
    }) as typeof nodeFs.readFile,
    open: async (path, flags, mode) => {
      const step = flags === 'wx' ? 'create' : 'open-dir';
      await take(step, 'open', String(path));
      return handleOf(await nodeFs.open(path, flags, mode), String(path), step);
    },
    rename: async (from, to) => {
      await take('rename', 'rename', String(to));
      return nodeFs.rename(from, to);
    },
  };

  return {
    fs,
    steps,
    fail: (step, code, times = Number.POSITIVE_INFINITY, skip = 0) => {
      faults.push({ step, code, times, skip });
    },
    hold: (step) => {
      let reached: () => void = () => {};
      let release: () => void = () => {};
      const reachedPromise = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      faults.push({ step, times: 1, skip: 0, hold: { reached, released } });
      return { reached: reachedPromise, release };
    },
    heal: () => {
      faults = [];
    },
  };
}
