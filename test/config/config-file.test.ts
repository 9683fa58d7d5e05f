import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { readConfig, writeConfig } from '../../src/config/config-file.js';
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
    await expect(readConfig(env)).rejects.toThrow(/config\.json is not valid JSON; fix it, or delete it/);
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
