import { execFileSync } from 'node:child_process';
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { readKeyFile, readKeyFileIfPresent, writeKeyFile } from '../../src/config/key-file.js';

const KEY = 'shk_live_9f8e7d6c5b4a3928';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shop-inbox-key-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keyFileWithMode(mode: number, content = `${KEY}\n`): Promise<string> {
  const path = join(dir, 'key');
  await writeFile(path, content, { mode: 0o600 });
  await chmod(path, mode);
  return path;
}

/** The ConfigError readKeyFile throws, checked to never carry the key. */
async function refusal(path: string): Promise<string> {
  const error = await readKeyFile(path).then(
    () => expect.fail('the key file was accepted'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message).not.toContain(KEY);
  expect(message).not.toContain(KEY.slice(0, 12));
  return message;
}

describe('readKeyFile', () => {
  it('reads a 0600 file, trimming the trailing newline', async () => {
    expect(await readKeyFile(await keyFileWithMode(0o600))).toBe(KEY);
  });

  it('trims surrounding white space and CRLF', async () => {
    expect(await readKeyFile(await keyFileWithMode(0o600, `  ${KEY}\r\n\n`))).toBe(KEY);
  });

  it('accepts 0400 (read-only for the owner)', async () => {
    expect(await readKeyFile(await keyFileWithMode(0o400))).toBe(KEY);
  });

  it.each([0o640, 0o644, 0o604, 0o660, 0o602])(
    'refuses mode %o with the chmod fix, like ssh',
    async (mode) => {
      const path = await keyFileWithMode(mode);
      const message = await refusal(path);
      expect(message).toContain(`mode 0${mode.toString(8)}`);
      expect(message).toContain('other users');
      expect(message).toContain(`chmod 600 ${path}`);
    },
  );

  it('quotes a path with spaces in the chmod fix', async () => {
    const path = join(dir, 'my keys', 'shop key');
    await mkdir(join(dir, 'my keys'));
    await writeFile(path, KEY, { mode: 0o644 });
    await chmod(path, 0o644);
    expect(await refusal(path)).toContain(`chmod 600 '${path}'`);
  });

  it('says when there is no file', async () => {
    const path = join(dir, 'absent');
    expect(await refusal(path)).toBe(`there is no key file at ${path}`);
    expect(await readKeyFileIfPresent(path)).toBeUndefined();
  });

  it('refuses an empty file', async () => {
    expect(await refusal(await keyFileWithMode(0o600, ''))).toMatch(/is empty/);
    expect(await refusal(await keyFileWithMode(0o600, ' \n\n'))).toMatch(/is empty/);
  });

  it('refuses a directory', async () => {
    const path = join(dir, 'keydir');
    await mkdir(path, { mode: 0o700 });
    expect(await refusal(path)).toMatch(/is not a regular file/);
  });

  it('refuses a named pipe without waiting for a writer', async () => {
    const path = join(dir, 'fifo');
    execFileSync('mkfifo', ['-m', '600', path]);
    expect(await refusal(path)).toMatch(/is not a regular file/);
  });

  it('refuses a symlink to /dev/zero without reading from it', { timeout: 5_000 }, async () => {
    const path = join(dir, 'zero');
    await symlink('/dev/zero', path);
    expect(await refusal(path)).toMatch(/is not a regular file \(it is a character device\)/);
  });

  it('refuses a file over 4 KiB as no key file, without reading it as one', async () => {
    expect(await refusal(await keyFileWithMode(0o600, 'k'.repeat(5000)))).toMatch(
      /too large to be a key file/,
    );
  });

  it('refuses white space inside the key without showing it', async () => {
    const message = await refusal(await keyFileWithMode(0o600, `${KEY} ${KEY}\n`));
    expect(message).toMatch(/white space inside the key/);
  });

  it('refuses two lines (a key and something else)', async () => {
    expect(await refusal(await keyFileWithMode(0o600, `${KEY}\nexport X=1\n`))).toMatch(/white space/);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a file owned by another user', async () => {
    const path = await keyFileWithMode(0o600);
    await chown(path, 4242, 4242);
    expect(await refusal(path)).toMatch(/belongs to another user \(uid 4242\)/);
  });
});

describe('writeKeyFile', () => {
  it('creates a 0700 directory and a 0600 file holding the key', async () => {
    const path = join(dir, 'config', 'shop-inbox', 'key');
    await writeKeyFile(path, `${KEY}\n`);
    expect((await stat(join(dir, 'config', 'shop-inbox'))).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe(`${KEY}\n`);
    expect(await readKeyFile(path)).toBe(KEY);
  });

  it('tightens an existing 0755 directory to 0700', async () => {
    const keyDir = join(dir, 'shop-inbox');
    await mkdir(keyDir);
    await chmod(keyDir, 0o755);
    await writeKeyFile(join(keyDir, 'key'), KEY);
    expect((await stat(keyDir)).mode & 0o777).toBe(0o700);
  });

  it('replaces an old key, also one with loose permissions, leaving no temp file', async () => {
    const path = await keyFileWithMode(0o644, 'old_key\n');
    await writeKeyFile(path, KEY);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readKeyFile(path)).toBe(KEY);
    expect(await readdir(dir)).toEqual(['key']);
  });

  it('refuses to write an empty key or one with white space inside', async () => {
    const path = join(dir, 'key');
    await expect(writeKeyFile(path, '  \n')).rejects.toThrow(ConfigError);
    await expect(writeKeyFile(path, `${KEY} x`)).rejects.toThrow(/white space/);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });
});
