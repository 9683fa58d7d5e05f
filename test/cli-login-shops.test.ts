/**
 * `shop-inbox login --shop NAME`: each shop's key in its own private file, the shop in config.json's "shops",
 * the first one the default; a config of one unnamed shop is kept, as the shop "default".
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLoginCommand } from '../src/cli/login-command.js';
import { readConfig, writeConfig } from '../src/config/config-file.js';
import { writeKeyFile } from '../src/config/key-file.js';
import { configDir, configFilePath, keyFilePath } from '../src/config/paths.js';
import { resolveSettings } from '../src/config/settings.js';
import { shopKeyFilePath } from '../src/config/shops.js';
import { startSim } from './support/sim.js';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-login-shops-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: join(home, 'state') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function login(args: string[], input: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  stdin.end(input);
  const status = await runLoginCommand(args, { ...env, ...extraEnv }, { stdin, stdout, stderr });
  return { status, stdout: out, stderr: err };
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('shop-inbox login --shop NAME', () => {
  it('saves each shop with its own 0600 key file; the first is the default; runs find each by name', async () => {
    const north = await startSim();
    const south = await startSim({ seed: 2 });
    const first = await login(['--shop', 'north', '--base-url', north.baseUrl], north.sim.tokens.write);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(
      `Logged in to ${north.sim.shops.main.identity.businessName} as the shop "north" (the default shop).`,
    );
    const second = await login(
      ['--shop', 'south', '--base-url', south.baseUrl, '--read-only'],
      south.sim.tokens.read,
    );
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('as the shop "south" (use it with --shop south).');
    expect(second.stdout).toContain('Read-only: shop-inbox sends nothing but reads with this login.');

    expect(await readConfig(env)).toEqual({
      shops: {
        north: { base_url: north.baseUrl, key_file: shopKeyFilePath(env, 'north') },
        south: { base_url: south.baseUrl, key_file: shopKeyFilePath(env, 'south'), read_only: true },
      },
      default_shop: 'north',
    });
    expect(await readFile(shopKeyFilePath(env, 'north'), 'utf8')).toBe(`${north.sim.tokens.write}\n`);
    expect(await readFile(shopKeyFilePath(env, 'south'), 'utf8')).toBe(`${south.sim.tokens.read}\n`);
    expect(await mode(shopKeyFilePath(env, 'north'))).toBe(0o600);
    expect(await mode(shopKeyFilePath(env, 'south'))).toBe(0o600);
    expect(await mode(join(configDir(env), 'keys'))).toBe(0o700);
    await expect(stat(keyFilePath(env))).rejects.toThrow(/ENOENT/);
    // A read-only login asks the shop nothing but GET /me.
    expect((await south.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/me']);

    expect(await resolveSettings({}, env)).toMatchObject({ shop: 'north', apiKey: north.sim.tokens.write });
    expect(await resolveSettings({ shop: 'south' }, env)).toMatchObject({
      shop: 'south',
      baseUrl: south.baseUrl,
      apiKey: south.sim.tokens.read,
      readOnly: true,
    });
  });

  it('again for a saved shop: its base URL is kept, its key replaced, the read-only choice kept', async () => {
    const s = await startSim();
    await login(['--shop', 'north', '--base-url', s.baseUrl, '--read-only'], s.sim.tokens.read);
    s.sim.rotateToken('read');
    const again = await login(['--shop', 'north'], s.sim.tokens.read);
    expect(again.status).toBe(0);
    expect(await readFile(shopKeyFilePath(env, 'north'), 'utf8')).toBe(`${s.sim.tokens.read}\n`);
    expect((await readConfig(env))?.shops?.north).toEqual({
      base_url: s.baseUrl,
      key_file: shopKeyFilePath(env, 'north'),
      read_only: true,
    });
  });

  it('beside a config of one unnamed shop: that one becomes the shop "default" and stays the default', async () => {
    const old = await startSim();
    const added = await startSim({ seed: 2 });
    expect((await login(['--base-url', old.baseUrl], old.sim.tokens.write)).status).toBe(0);
    const result = await login(['--shop', 'south', '--base-url', added.baseUrl], added.sim.tokens.write);
    expect(result.status).toBe(0);
    expect(await readConfig(env)).toEqual({
      shops: {
        default: { base_url: old.baseUrl, key_file: keyFilePath(env) },
        south: { base_url: added.baseUrl, key_file: shopKeyFilePath(env, 'south') },
      },
      default_shop: 'default',
    });
    expect(await resolveSettings({}, env)).toMatchObject({ shop: 'default', apiKey: old.sim.tokens.write });
    expect(await resolveSettings({ shop: 'south' }, env)).toMatchObject({ apiKey: added.sim.tokens.write });
  });

  it('keeps the "$schema" an editor reads, as the first key, through each rewrite of config.json', async () => {
    const schema = 'https://shop-inbox.example/schema/config.schema.json';
    await writeConfig(env, { $schema: schema, base_url: 'https://api.shop.example/v1', mouse: false });
    const firstKey = async () => Object.keys(JSON.parse(await readFile(configFilePath(env), 'utf8')))[0];
    expect((await login(['--no-verify'], 'shk_one')).status).toBe(0);
    expect(await firstKey()).toBe('$schema');
    const added = ['--shop', 'south', '--base-url', 'https://api.other.example/v1', '--no-verify'];
    expect((await login(added, 'shk_two')).status).toBe(0);
    expect(await firstKey()).toBe('$schema');
    expect(await readConfig(env)).toMatchObject({ $schema: schema, mouse: false, default_shop: 'default' });
  });

  it('without --shop on a config with shops: logs in its default shop', async () => {
    const s = await startSim();
    await login(['--shop', 'north', '--base-url', s.baseUrl], s.sim.tokens.write);
    s.sim.rotateToken('write');
    const result = await login([], s.sim.tokens.write);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('as the shop "north" (the default shop).');
    expect(await readFile(shopKeyFilePath(env, 'north'), 'utf8')).toBe(`${s.sim.tokens.write}\n`);
    await expect(stat(keyFilePath(env))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a name that cannot be one, a new shop with no base URL, and several shops without a default', async () => {
    await expect(login(['--shop', '../key'], 'shk_x')).rejects.toThrow(/cannot be a shop's name/);
    await expect(
      login(['--shop', 'east'], 'shk_x', { SHOP_API_BASE_URL: 'https://env.example.com/v1' }),
    ).rejects.toThrow('no base URL for the shop "east": pass --base-url https://host/…/v1');
    await writeKeyFile(join(home, 'k'), 'shk_x');
    await writeConfig(env, {
      shops: {
        north: { base_url: 'https://n.example.com/v1' },
        south: { base_url: 'https://s.example.com/v1' },
      },
    });
    await expect(login([], 'shk_x')).rejects.toThrow(
      'config.json names several shops (north, south) and no default_shop: name one with --shop NAME',
    );
  });
});
