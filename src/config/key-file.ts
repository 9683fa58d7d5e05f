/**
 * The API key in a file of its own. As ssh does with a private key, a file
 * that anyone but its owner could read or change is refused: whoever has the
 * key can text the shop's customers. No message ever contains the key.
 */
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';
import { privateFileProblem } from './file-permissions.js';
import { writePrivateFile } from './private-file.js';

/** Far more than any key: a larger file is not a key file. */
const MAX_KEY_FILE_BYTES = 4096;

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
  const name = `the key file ${path}`;
  const bytes = await readBoundedFile(path, {
    maxBytes: MAX_KEY_FILE_BYTES,
    name,
    check: (info) => privateFileProblem(info, path),
    tooLarge: `${name} is too large to be a key file; it must hold the key alone`,
    fail: (message) => new ConfigError(message),
  });
  return bytes === undefined ? undefined : checkKey(bytes.toString('utf8'), name);
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
