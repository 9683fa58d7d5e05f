/**
 * Writes a file only its owner can read, in a directory only its owner can
 * enter, replacing any old version atomically: a reader sees the old file or
 * the new one, never half of one, and nobody else sees either.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from './config-error.js';

/** Creates the directory with mode 0700, or tightens an existing one that others can enter. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (!info.isDirectory()) throw new ConfigError(`${dir} is not a directory`);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

export async function writePrivateFile(path: string, content: string): Promise<void> {
  const dir = dirname(path);
  await ensurePrivateDir(dir);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // Created with 0600 from the start (wx: never reuse an existing file), so
  // there is no moment in which the content is readable by anyone else.
  const handle = await open(temp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
