/**
 * Writes a file only its owner can read, in a directory only its owner can
 * enter, replacing any old version atomically and durably: a reader sees the
 * old file or the new one, never half of one, nobody else sees either, and
 * once the write resolved the new file survives a crash or a power cut (the
 * file is synced before the rename, the directory after it). Not
 * write-file-atomic: it does not sync the directory, and the outbox must read
 * its file again between preparing the new content and the rename.
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * The file system calls these writes make: node's, or (in tests) one that
 * fails where a full disk or a read-only mount would.
 */
export type PrivateFileSystem = Pick<
  typeof nodeFs,
  'chmod' | 'mkdir' | 'open' | 'readdir' | 'readFile' | 'rename' | 'stat' | 'unlink'
>;

export const nodeFileSystem: PrivateFileSystem = nodeFs;

/** Creates the directory with mode 0700, or tightens an existing one that others can enter. */
export async function ensurePrivateDir(dir: string, fs: PrivateFileSystem = nodeFileSystem): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await fs.stat(dir);
  if (!info.isDirectory()) throw new ConfigError(`${dir} is not a directory`);
  if ((info.mode & 0o077) !== 0) await fs.chmod(dir, 0o700);
}

/**
 * The file was renamed into place but its directory could not be synced: it
 * is there for every process to read, but may not survive a power cut.
 */
export class UnsyncedRenameError extends Error {
  readonly code: string | undefined;

  constructor(cause: unknown) {
    super((cause as Error).message, { cause });
    this.code = (cause as NodeJS.ErrnoException).code;
  }
}

/** The new content of `path` in a temporary file beside it, synced: `rename` it over the file to publish it. */
export interface PreparedFile {
  temp: string;
  /** Replaces the file with the prepared content and syncs the directory, so that the rename survives a crash. */
  publish(): Promise<void>;
  /** Removes the temporary file (nothing was published). */
  discard(): Promise<void>;
}

export async function preparePrivateFile(
  path: string,
  content: string | Uint8Array,
  fs: PrivateFileSystem = nodeFileSystem,
): Promise<PreparedFile> {
  const dir = dirname(path);
  await ensurePrivateDir(dir, fs);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const discard = () => fs.unlink(temp).catch(() => {});
  // Created with 0600 from the start (wx: never reuse an existing file), so
  // there is no moment in which the content is readable by anyone else.
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    temp,
    discard,
    publish: async () => {
      try {
        await fs.rename(temp, path);
      } catch (error) {
        await discard();
        throw error;
      }
      try {
        await syncDirectory(dir, fs);
      } catch (error) {
        throw new UnsyncedRenameError(error);
      }
    },
  };
}

export async function writePrivateFile(
  path: string,
  content: string | Uint8Array,
  fs: PrivateFileSystem = nodeFileSystem,
): Promise<void> {
  await (await preparePrivateFile(path, content, fs)).publish();
}

/** Makes the directory's entries (a rename into it) durable; a no-op where directories cannot be synced. */
async function syncDirectory(dir: string, fs: PrivateFileSystem): Promise<void> {
  let handle: nodeFs.FileHandle;
  try {
    handle = await fs.open(dir, 'r');
  } catch (error) {
    if (unsupported(error)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!unsupported(error)) throw error;
  } finally {
    await handle.close();
  }
}

/** Errors of systems that cannot open or sync a directory (Windows): nothing more can be done there. */
const unsupported = (error: unknown) =>
  ['EISDIR', 'EINVAL', 'ENOTSUP', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '') &&
  process.platform === 'win32';
