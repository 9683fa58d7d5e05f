/**
 * The API key in a file of its own. As ssh does with a private key, a file
 * that anyone but its owner could read or change is refused: whoever has the
 * key can text the shop's customers. No message ever contains the key.
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { ConfigError } from './config-error.js';
import { writePrivateFile } from './private-file.js';

/** Far more than any key: a larger file is not a key file. */
const MAX_KEY_FILE_BYTES = 4096;

/** The path as it can be pasted into a shell. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/** The key without surrounding white space; throws when the text cannot be one key. `where` names it in messages. */
export function checkKey(text: string, where: string): string {
  const key = text.trim();
  if (key === '') throw new ConfigError(`${where} is empty`);
  if (/\s/.test(key)) {
    throw new ConfigError(`${where} has white space inside the key; it must hold the key alone, on one line`);
  }
  return key;
}

/** The key in the file, or undefined when nothing exists at the path; refuses an unsafe or malformed file. */
export async function readKeyFileIfPresent(path: string): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (the check below then refuses it).
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot open the key file ${path} (${code ?? 'unknown error'})`);
  }
  try {
    // Checked on the open file, so what is checked is what is read.
    const info = await handle.stat();
    if (!info.isFile()) throw new ConfigError(`the key file ${path} is not a regular file`);
    if ((info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
      throw new ConfigError(
        `the key file ${path} has mode ${mode}: other users of this machine can read or change it, so it is not used. Make it private with: chmod 600 ${shellWord(path)}`,
      );
    }
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) {
      throw new ConfigError(
        `the key file ${path} belongs to another user (uid ${info.uid}); use a key file of your own`,
      );
    }
    if (info.size > MAX_KEY_FILE_BYTES) {
      throw new ConfigError(`the key file ${path} is too large to be a key file; it must hold the key alone`);
    }
    return checkKey(await handle.readFile('utf8'), `the key file ${path}`);
  } finally {
    await handle.close();
  }
}

export async function readKeyFile(path: string): Promise<string> {
  const key = await readKeyFileIfPresent(path);
  if (key === undefined) throw new ConfigError(`there is no key file at ${path}`);
  return key;
}

/** Saves the key with mode 0600 in a 0700 directory, replacing any old key atomically. */
export async function writeKeyFile(path: string, key: string): Promise<void> {
  await writePrivateFile(path, `${checkKey(key, 'the key')}\n`);
}
