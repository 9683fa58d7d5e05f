import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { CONFIG_FILE_MAX_BYTES, readConfig, writeConfig } from '../../src/config/config-file.js';
import { holdingDirectoryProblem, othersCanChangeProblem } from '../../src/config/file-permissions.js';
import { configDir, configFilePath, keyFilePath } from '../../src/config/paths.js';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-config-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function writeRaw(text: string) {
  await mkdir(configDir(env), { recursive: true });
  await writeFile(configFilePath(env), text);
}

describe('config paths', () => {
  it('use $XDG_CONFIG_HOME/shop-inbox when it is absolute', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/ann' })).toBe('/x/cfg/shop-inbox');
    expect(configFilePath({ XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/shop-inbox/config.json');
    expect(keyFilePath({ XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/shop-inbox/key');
  });

  it('fall back to $HOME/.config/shop-inbox when XDG_CONFIG_HOME is unset or relative', () => {
    expect(configDir({ HOME: '/home/ann' })).toBe('/home/ann/.config/shop-inbox');
    expect(configDir({ XDG_CONFIG_HOME: 'cfg', HOME: '/home/ann' })).toBe('/home/ann/.config/shop-inbox');
    expect(configDir({})).toMatch(/\/\.config\/shop-inbox$/);
  });
});

describe('config.json', () => {
  it('is undefined when absent', async () => {
    expect(await readConfig(env)).toBeUndefined();
  });

  it('round-trips with mode 0600 in a 0700 directory, keeping unknown fields', async () => {
    await writeConfig(env, { base_url: 'https://shop.example.com/v1', read_only: true, later: 1 });
    expect((await stat(configDir(env))).mode & 0o777).toBe(0o700);
    expect((await stat(configFilePath(env))).mode & 0o777).toBe(0o600);
    expect(await readConfig(env)).toEqual({
      base_url: 'https://shop.example.com/v1',
      read_only: true,
      later: 1,
    });
    expect(await readFile(configFilePath(env), 'utf8')).toMatch(/\n$/);
  });

  it('refuses invalid JSON in plain words', async () => {
    await writeRaw('{ "base_url": ');
    await expect(readConfig(env)).rejects.toThrow(ConfigError);
    await expect(readConfig(env)).rejects.toThrow(
      /config\.json is not valid JSON at line 1, column 15: a value was expected; fix it, or delete it/,
    );
  });

  it('takes a config with no base URL (keys and mouse only); the inbox then asks for one', async () => {
    await writeRaw('{ "keys": { "compose": "m" }, "mouse": false }');
    expect(await readConfig(env)).toEqual({ keys: { compose: 'm' }, mouse: false });
  });

  it('takes the view, the theme and the notifications', async () => {
    await writeRaw(
      '{ "view": "wallboard", "theme": "light", "notify": { "desktop": true, "bell": false, "events": ["missed_call"] } }',
    );
    expect(await readConfig(env)).toEqual({
      view: 'wallboard',
      theme: 'light',
      notify: { desktop: true, bell: false, events: ['missed_call'] },
    });
  });

  it('takes the shop time zone for quiet hours', async () => {
    await writeRaw('{ "timezone": "America/Los_Angeles" }');
    expect(await readConfig(env)).toEqual({ timezone: 'America/Los_Angeles' });
  });

  it('takes the "$schema" an editor reads, and writes it back first', async () => {
    const schema = 'https://shop-inbox.example/schema/config.schema.json';
    await writeRaw(`{ "theme": "dark", "$schema": "${schema}" }`);
    const config = await readConfig(env);
    expect(config).toEqual({ $schema: schema, theme: 'dark' });
    await writeConfig(env, config ?? {});
    expect(await readFile(configFilePath(env), 'utf8')).toMatch(/^\{\n {2}"\$schema": /);
  });

  it.each([
    ['{ "timezone": "Pacific Standard" }', /timezone: must be an IANA time zone/],
    ['[]', /\(top level\)/],
    ['{ "view": "board" }', /view/],
    ['{ "theme": "solarized" }', /theme/],
    ['{ "notify": { "events": ["new_review"] } }', /notify\.events\.0/],
    ['{ "notify": { "sound": true } }', /notify/],
    ['{ "notify": { "title": "yes" } }', /notify\.title/],
    ['{ "keys": { "compose": 5 } }', /keys\.compose/],
    ['{ "mouse": "off" }', /mouse/],
    ['{ "$schema": 5 }', /\$schema/],
    ['{ "base_url": 1 }', /base_url/],
    ['{ "base_url": "https://s.example.com/v1", "read_only": "yes" }', /read_only/],
    [
      '{ "base_url": "https://s.example.com/v1", "key_file": "keys/shop" }',
      /key_file: must be an absolute path/,
    ],
  ])('refuses the shape %s', async (text, message) => {
    await writeRaw(text);
    await expect(readConfig(env)).rejects.toThrow(message);
  });
});

/** The ConfigError readConfig throws for the config as it is now. */
async function configRefusal(): Promise<string> {
  const error = await readConfig(env).then(
    () => expect.fail('the config was accepted'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe('config.json: only a small regular file is read, and nothing waits', () => {
  // Each would hang start-up or fill memory if the file were read whole: a short timeout shows a hang.
  it('refuses a named pipe at once, without waiting for a writer', { timeout: 5_000 }, async () => {
    await mkdir(configDir(env), { recursive: true });
    execFileSync('mkfifo', ['-m', '600', configFilePath(env)]);
    expect(await configRefusal()).toBe(`${configFilePath(env)} is not a regular file (it is a named pipe)`);
  });

  it('refuses a symlink to /dev/zero without reading from it', { timeout: 5_000 }, async () => {
    await mkdir(configDir(env), { recursive: true });
    await symlink('/dev/zero', configFilePath(env));
    expect(await configRefusal()).toMatch(/config\.json is not a regular file \(it is a character device\)/);
  });

  it('refuses a directory', async () => {
    await mkdir(configFilePath(env), { recursive: true });
    expect(await configRefusal()).toMatch(/config\.json is not a regular file \(it is a directory\)/);
  });

  it('refuses a 100 MB config that is valid JSON, by its size, saying the cap', async () => {
    await writeRaw(`{ "base_url": "https://shop.example.com/v1" }${' '.repeat(100 * 1024 * 1024)}`);
    expect(await configRefusal()).toBe(
      `${configFilePath(env)} is 100 MiB, over 256 KiB, the most it may hold`,
    );
  });

  it('takes a config of exactly the cap, and refuses one byte more', async () => {
    const head = '{ "mouse": false }';
    await writeRaw(head + ' '.repeat(CONFIG_FILE_MAX_BYTES - head.length));
    expect(await readConfig(env)).toEqual({ mouse: false });
    await writeRaw(head + ' '.repeat(CONFIG_FILE_MAX_BYTES - head.length + 1));
    expect(await configRefusal()).toMatch(/over 256 KiB/);
  });

  it('takes a symlink to a regular file of this user (a config kept with dotfiles)', async () => {
    const kept = join(home, 'dotfiles', 'shop-inbox.json');
    await mkdir(join(home, 'dotfiles'));
    await writeFile(kept, '{ "theme": "dark" }');
    await mkdir(configDir(env), { recursive: true });
    await symlink(kept, configFilePath(env));
    expect(await readConfig(env)).toEqual({ theme: 'dark' });
  });
});

describe('config.json: nobody else may change it, as ssh requires of ~/.ssh/config', () => {
  const path = () => configFilePath(env);

  it.each([
    ['0664', 'its group'],
    ['0646', 'others'],
    ['0666', 'its group and others'],
    ['0620', 'its group'],
  ])('refuses mode %s (writable by %s), saying chmod go-w', async (mode, writers) => {
    await writeRaw('{ "base_url": "https://elsewhere.example/v1" }');
    await chmod(path(), Number.parseInt(mode, 8));
    expect(await configRefusal()).toBe(
      `${path()} is writable by ${writers} (mode ${mode}): whoever can change it decides where your API key is sent, so it is not used. Fix it with: chmod go-w ${path()}`,
    );
  });

  it('takes modes that only its owner can change (0644, 0600, 0444)', async () => {
    await writeRaw('{ "mouse": true }');
    for (const mode of [0o644, 0o600, 0o444]) {
      await chmod(path(), mode);
      expect(await readConfig(env)).toEqual({ mouse: true });
    }
  });

  it.skipIf(process.geteuid?.() !== 0)('refuses a config that belongs to another user', async () => {
    await writeRaw('{ "base_url": "https://elsewhere.example/v1" }');
    await chown(path(), 65534, 65534);
    const message = await configRefusal();
    expect(message).toMatch(
      /config\.json belongs to another user \(uid 65534\): whoever owns it decides where your API key is sent, so it is not used\. Remove it, or make it yours \(as root: chown \S+ \//,
    );
  });

  it.each([
    [0o775, 'its group'],
    [0o757, 'others'],
    [0o777, 'its group and others'],
  ])(
    'refuses a config directory of mode %o (writable by %s): it could replace the file',
    async (mode, writers) => {
      await writeRaw('{ "mouse": true }');
      await chmod(configDir(env), mode);
      expect(await configRefusal()).toBe(
        `the directory ${configDir(env)} is writable by ${writers} (mode 0${mode.toString(8)}): they can replace config.json, which decides where your API key is sent, so it is not used. Fix it with: chmod go-w ${configDir(env)}`,
      );
    },
  );

  it.skipIf(process.geteuid?.() !== 0)(
    'refuses a config directory that belongs to another user',
    async () => {
      await writeRaw('{ "mouse": true }');
      await chown(configDir(env), 65534, 65534);
      expect(await configRefusal()).toMatch(
        new RegExp(
          `^the directory ${configDir(env)} belongs to another user \\(uid 65534\\): they can replace config\\.json`,
        ),
      );
    },
  );

  it("checks the directory a symlinked config's target is in too", async () => {
    const shared = join(home, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o777);
    await writeFile(join(shared, 'team.json'), '{ "mouse": true }');
    await mkdir(configDir(env), { recursive: true });
    await symlink(join(shared, 'team.json'), configFilePath(env));
    expect(await configRefusal()).toMatch(
      new RegExp(
        `^the directory ${shared} is writable by its group and others \\(mode 0777\\): they can replace team\\.json`,
      ),
    );
  });

  it.skipIf(process.geteuid?.() !== 0)(
    "takes root's files and directories, as ssh does, for any user",
    async () => {
      // This process is root: what user 1000 would be told about a root-owned config.
      await writeRaw('{ "mouse": true }');
      const role = { power: 'decides where your API key is sent', outcome: 'it is not used' };
      expect(othersCanChangeProblem(await stat(path()), path(), role, 1000)).toBeUndefined();
      expect(await holdingDirectoryProblem(path(), role, 1000)).toBeUndefined();
      await chown(path(), 65534, 65534);
      expect(othersCanChangeProblem(await stat(path()), path(), role, 1000)).toMatch(
        /belongs to another user/,
      );
      await chown(configDir(env), 65534, 65534);
      expect(await holdingDirectoryProblem(path(), role, 1000)).toMatch(
        /^the directory .* belongs to another user/,
      );
    },
  );

  it('a config written by login passes the checks (0600 in a 0700 directory)', async () => {
    await writeConfig(env, { base_url: 'https://shop.example.com/v1' });
    expect(await readConfig(env)).toEqual({ base_url: 'https://shop.example.com/v1' });
  });

  it.skipIf(process.geteuid?.() !== 0)(
    'accepts exactly the files whose writers are this user and root: any mode, any owner',
    async () => {
      await writeRaw('{ "mouse": false }');
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0o400, max: 0o777 }),
          fc.constantFrom(0, 65534, 4242),
          async (mode, owner) => {
            await chown(path(), owner, owner);
            await chmod(path(), mode);
            const accepted = await readConfig(env).then(
              () => true,
              (error: unknown) => {
                expect(error).toBeInstanceOf(ConfigError);
                return false;
              },
            );
            // Running as root: root is this user, so any owner but root is another user.
            expect(accepted).toBe((mode & 0o022) === 0 && owner === 0);
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});
