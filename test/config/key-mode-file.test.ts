/**
 * The remembered mode of a key: one private file per shop API and key in the
 * state directory, holding a fingerprint and never the key; read at once for
 * the first frame; a file that cannot be believed is not; a newer answer is
 * never replaced by an older one; and other terminals see a change.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/config/key-fingerprint.js';
import { KeyModeFile, type RememberedKeyMode } from '../../src/config/key-mode-file.js';
import { stateDir } from '../../src/config/paths.js';
import { until } from '../support/until.js';

const KEY = 'shk_the_secret_key_value_0123456789';
const BASE = 'https://api.shop.example/v1';
let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'key-mode-'));
  env = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const read: RememberedKeyMode = { mode: 'read', how: 'probe', at: 1_000 };

describe('the remembered mode of a key', () => {
  it('is kept 0600 in a 0700 directory, with the fingerprint and never the key, and read back at once', async () => {
    const file = KeyModeFile.forKey(env, BASE, KEY);
    expect(file.recall()).toBeUndefined();
    await file.remember(read);
    expect(file.recall()).toEqual(read);
    expect(file.path.startsWith(stateDir(env))).toBe(true);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    expect((await stat(stateDir(env))).mode & 0o777).toBe(0o700);
    const text = await readFile(file.path, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ version: 1, keyId: keyFingerprint(KEY), ...read });
    // A new instance (the next start) reads the same.
    expect(KeyModeFile.forKey(env, BASE, KEY).recall()).toEqual(read);
  });

  it('is per key and per API', async () => {
    await KeyModeFile.forKey(env, BASE, KEY).remember(read);
    expect(KeyModeFile.forKey(env, BASE, `${KEY}x`).recall()).toBeUndefined();
    expect(KeyModeFile.forKey(env, 'https://other.example/v1', KEY).recall()).toBeUndefined();
    // Another key's answer renamed into this key's place says nothing about this key.
    const other = KeyModeFile.forKey(env, BASE, 'shk_another_key');
    await other.remember({ mode: 'write', how: 'probe', at: 5 });
    const mine = KeyModeFile.forKey(env, BASE, KEY);
    await writeFile(mine.path, await readFile(other.path, 'utf8'), { mode: 0o600 });
    expect(mine.recall()).toBeUndefined();
  });

  it('keeps the newer answer when an older one arrives late', async () => {
    const file = KeyModeFile.forKey(env, BASE, KEY);
    await file.remember({ mode: 'read', how: 'refused', at: 2_000 });
    await file.remember({ mode: 'write', how: 'probe', at: 1_500 });
    expect(file.recall()).toEqual({ mode: 'read', how: 'refused', at: 2_000 });
    await file.remember({ mode: 'write', how: 'probe', at: 2_500 });
    expect(file.recall()).toEqual({ mode: 'write', how: 'probe', at: 2_500 });
  });

  it('does not believe a file others can change, a link, a directory, a big or a broken file', async () => {
    const file = KeyModeFile.forKey(env, BASE, KEY);
    await file.remember(read);
    await chmod(file.path, 0o666);
    expect(file.recall()).toBeUndefined();
    await chmod(file.path, 0o620);
    expect(file.recall()).toBeUndefined();
    await chmod(file.path, 0o600);
    expect(file.recall()).toEqual(read);

    const elsewhere = join(home, 'elsewhere.json');
    await writeFile(elsewhere, await readFile(file.path, 'utf8'), { mode: 0o600 });
    await rm(file.path);
    await symlink(elsewhere, file.path);
    expect(file.recall()).toBeUndefined();
    await rm(file.path);

    await mkdir(file.path, { mode: 0o700 });
    expect(file.recall()).toBeUndefined();
    await rm(file.path, { recursive: true });
    // A named pipe would block a read forever: it is not a file.
    execFileSync('mkfifo', ['-m', '600', file.path]);
    expect(file.recall()).toBeUndefined();
    await rm(file.path);

    const valid = JSON.stringify({ version: 1, keyId: keyFingerprint(KEY), ...read });
    for (const text of [
      'not json',
      '{}',
      valid.replace('"read"', '"admin"'),
      valid.replace('"version":1', '"version":2'),
      `${valid}${' '.repeat(5_000)}`,
    ]) {
      await writeFile(file.path, text, { mode: 0o600 });
      expect(file.recall(), text.slice(0, 40)).toBeUndefined();
    }
    // A broken file is replaced by the next answer.
    await file.remember(read);
    expect(file.recall()).toEqual(read);
  });

  it('tells a watcher what another process remembers, and nothing after it stops', async () => {
    const mine = KeyModeFile.forKey(env, BASE, KEY, { watchMs: 20 });
    const theirs = KeyModeFile.forKey(env, BASE, KEY);
    const seen: RememberedKeyMode[] = [];
    const stop = mine.watch((answer) => seen.push(answer));
    await theirs.remember(read);
    await until(() => (seen.length === 1 ? true : undefined), 3_000);
    expect(seen).toEqual([read]);
    const refused: RememberedKeyMode = { mode: 'read', how: 'refused', at: 3_000 };
    await theirs.remember(refused);
    await until(() => (seen.length === 2 ? true : undefined), 3_000);
    expect(seen[1]).toEqual(refused);
    stop();
    await theirs.remember({ mode: 'write', how: 'probe', at: 4_000 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen).toHaveLength(2);
    // Nothing but the file (and no temporary file) is left in the directory.
    expect(await readdir(stateDir(env))).toEqual([mine.path.split('/').at(-1)]);
  });
});
