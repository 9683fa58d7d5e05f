/**
 * Where a user's hubs meet: one directory per user and machine, whatever the
 * terminal's environment says, made safely in a sticky /tmp where another
 * user may have put something of that name first. A stand-in directory
 * plays /tmp here.
 */
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHubDir, hubDir, hubListenPath, hubSocketPath } from '../../src/hub/hub-paths.js';

const uid = process.getuid?.() as number;
const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function fakeTmp(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hub-paths-'));
  roots.push(root);
  // Like /tmp: anyone may create, only the owner of an entry may remove it.
  await chmod(root, 0o1777);
  return root;
}

const path = fc.stringMatching(/^\/[a-z0-9/._-]{0,40}$/);
const env = fc.record(
  {
    XDG_RUNTIME_DIR: fc.oneof(path, fc.constant('relative/run'), fc.constant('')),
    TMPDIR: path,
    XDG_STATE_HOME: path,
    HOME: path,
  },
  { requiredKeys: [] },
);

describe('the hub directory of a user', () => {
  it('is /tmp/shop-inbox-UID, whatever XDG_RUNTIME_DIR, TMPDIR, XDG_STATE_HOME or HOME say', () => {
    fc.assert(
      fc.property(env, env, (one, other) => {
        expect(hubDir(one)).toBe(`/tmp/shop-inbox-${uid}`);
        const socket = hubSocketPath(one, 'https://api.example/v1', 'sk_live_secret');
        expect(hubSocketPath(other, 'https://api.example/v1', 'sk_live_secret')).toBe(socket);
        expect(socket).not.toContain('sk_live_secret');
      }),
    );
  });

  it('has one socket per API and key, and a hub binds first under a name of its own (by pid)', () => {
    const socket = hubSocketPath({}, 'https://api.example/v1', 'sk_one');
    expect(hubSocketPath({}, 'https://api.example/v1', 'sk_two')).not.toBe(socket);
    expect(hubSocketPath({}, 'https://other.example/v1', 'sk_one')).not.toBe(socket);
    expect(hubListenPath(socket, 4242)).toBe(socket.replace(/\.sock$/, '.4242.sock'));
  });

  it('is made 0700 by the first terminal, even under a umask that takes its own bits', async () => {
    const root = await fakeTmp();
    const dir = hubDir({}, root);
    const before = process.umask(0o277);
    try {
      await checkHubDir(dir, join(dir, 'hub-a-b.sock'));
    } finally {
      process.umask(before);
    }
    const info = await lstat(dir);
    expect([info.isDirectory(), info.uid, info.mode & 0o7777]).toEqual([true, uid, 0o700]);
    // And used as it is by the next.
    await checkHubDir(dir, join(dir, 'hub-a-b.sock'));
  });

  describe('refuses, and never uses, what another put there first', () => {
    it('a symbolic link, even to a private directory of this user, whose target it leaves alone', async () => {
      const root = await fakeTmp();
      const target = join(root, 'elsewhere');
      await mkdir(target, { mode: 0o700 });
      await symlink(target, hubDir({}, root));
      const dir = hubDir({}, root);
      await expect(checkHubDir(dir, join(dir, 'hub-a-b.sock'))).rejects.toThrow(/symbolic link/);
      expect(await readdir(target)).toEqual([]);
      expect((await lstat(target)).mode & 0o777).toBe(0o700);
    });

    it('a directory others can enter, left as it is', async () => {
      const root = await fakeTmp();
      const dir = hubDir({}, root);
      await mkdir(dir);
      await chmod(dir, 0o777);
      await expect(checkHubDir(dir, join(dir, 'hub-a-b.sock'))).rejects.toThrow(
        /can be entered by other users \(mode 777\)/,
      );
      expect((await lstat(dir)).mode & 0o777).toBe(0o777);
    });

    it('a file', async () => {
      const root = await fakeTmp();
      const dir = hubDir({}, root);
      await writeFile(dir, 'not a directory');
      await expect(checkHubDir(dir, join(dir, 'hub-a-b.sock'))).rejects.toThrow(/not a directory/);
    });

    it.skipIf(uid !== 0)('a directory of another user, even one with mode 0700', async () => {
      const root = await fakeTmp();
      const dir = hubDir({}, root);
      await mkdir(dir, { mode: 0o700 });
      await chown(dir, 65534, 65534);
      await expect(checkHubDir(dir, join(dir, 'hub-a-b.sock'))).rejects.toThrow(/belongs to another user/);
    });
  });

  it('refuses a socket path too long to bind, counting the hub’s own name', async () => {
    const root = await fakeTmp();
    const dir = hubDir({}, join(root, 'x'.repeat(40)));
    await expect(checkHubDir(dir, join(dir, `hub-${'a'.repeat(16)}-${'b'.repeat(16)}.sock`))).rejects.toThrow(
      /too long/,
    );
  });
});
