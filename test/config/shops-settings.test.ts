/**
 * Several shops in config.json: which shop, base URL and key a run uses with and without --shop, how the
 * environment is kept from another shop, and that a config of one unnamed shop reads as it always did.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, SHOP_NAME_PATTERN, writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { keyFilePath } from '../../src/config/paths.js';
import { readSavedKey, resolveSettings } from '../../src/config/settings.js';
import { checkShopName, defaultShopName, shopKeyFilePath } from '../../src/config/shops.js';

const NORTH = 'https://north.example.com/v1';
const SOUTH = 'https://south.example.com/v1';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-shops-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function twoShops(extra: Record<string, unknown> = {}) {
  const northKey = shopKeyFilePath(env, 'north');
  const southKey = shopKeyFilePath(env, 'south');
  await writeKeyFile(northKey, 'key_of_north');
  await writeKeyFile(southKey, 'key_of_south');
  await writeConfig(env, {
    shops: {
      north: { base_url: NORTH, key_file: northKey },
      south: { base_url: SOUTH, key_file: southKey, read_only: true, timezone: 'America/Chicago' },
    },
    default_shop: 'north',
    timezone: 'America/Los_Angeles',
    ...extra,
  });
}

describe('several shops', () => {
  it('without --shop, the default shop: its base URL, its key, its name', async () => {
    await twoShops();
    expect(await resolveSettings({}, env)).toMatchObject({
      shop: 'north',
      baseUrl: NORTH,
      apiKey: 'key_of_north',
      keySource: 'config',
      readOnly: false,
      timeZone: 'America/Los_Angeles',
    });
  });

  it('--shop NAME: that shop, its read_only and its own time zone', async () => {
    await twoShops();
    expect(await resolveSettings({ shop: 'south' }, env)).toMatchObject({
      shop: 'south',
      baseUrl: SOUTH,
      apiKey: 'key_of_south',
      readOnly: true,
      timeZone: 'America/Chicago',
    });
  });

  it('--shop NAME: SHOP_API_KEY and SHOP_API_BASE_URL are not used (a key of one shop never goes to another)', async () => {
    await twoShops();
    const withEnv = { ...env, SHOP_API_KEY: 'key_exported_for_north', SHOP_API_BASE_URL: NORTH };
    expect(await resolveSettings({ shop: 'south' }, withEnv)).toMatchObject({
      baseUrl: SOUTH,
      apiKey: 'key_of_south',
      keySource: 'config',
    });
    // Without --shop the environment still comes first, as it always did.
    expect(await resolveSettings({}, withEnv)).toMatchObject({
      apiKey: 'key_exported_for_north',
      keySource: 'env',
    });
  });

  it('a shop config.json does not name: refused, listing the shops there are', async () => {
    await twoShops();
    await expect(resolveSettings({ shop: 'east' }, env)).rejects.toThrow(
      'config.json names no shop "east"; its shops: north, south (add one with shop-inbox login --shop east)',
    );
  });

  it('a shop with no key saved: says how to save one', async () => {
    await writeConfig(env, { shops: { north: { base_url: NORTH } } });
    await expect(resolveSettings({}, env)).rejects.toThrow(
      'the shop "north" has no key saved: run shop-inbox login --shop north',
    );
  });

  it('several shops and no default_shop: a run without --shop must choose, unless flags and env say it all', async () => {
    await twoShops();
    const config = await readConfig(env);
    await writeConfig(env, { ...config, default_shop: undefined });
    await expect(resolveSettings({}, env)).rejects.toThrow(
      'config.json names several shops (north, south) and no default_shop: choose one with --shop NAME',
    );
    expect(await resolveSettings({ shop: 'south' }, env)).toMatchObject({ apiKey: 'key_of_south' });
    expect(await resolveSettings({ baseUrl: NORTH }, { ...env, SHOP_API_KEY: 'from_env' })).toMatchObject({
      baseUrl: NORTH,
      apiKey: 'from_env',
    });
  });

  it('one shop in "shops" is the default without default_shop', async () => {
    await writeKeyFile(shopKeyFilePath(env, 'north'), 'key_of_north');
    await writeConfig(env, {
      shops: { north: { base_url: NORTH, key_file: shopKeyFilePath(env, 'north') } },
    });
    expect(await resolveSettings({}, env)).toMatchObject({ shop: 'north', apiKey: 'key_of_north' });
    expect(defaultShopName(await readConfig(env))).toBe('north');
  });

  it('the key watch reads the key of the shop it was started with', async () => {
    await twoShops();
    const config = await readConfig(env);
    expect(await readSavedKey(env, config, 'south')).toBe('key_of_south');
    expect(await readSavedKey(env, config)).toBe('key_of_north');
  });

  it('--base-url with a default shop: not that shop (no name in the header), the base URL given', async () => {
    await twoShops();
    const settings = await resolveSettings({ baseUrl: SOUTH }, { ...env, SHOP_API_KEY: 'k' });
    expect(settings.shop).toBeUndefined();
    expect(settings.baseUrl).toBe(SOUTH);
  });
});

describe('config.json with "shops": what is refused', () => {
  const refused = async (config: Record<string, unknown>, message: RegExp) => {
    await writeConfig(env, config);
    await expect(readConfig(env)).rejects.toThrow(message);
  };

  it('a default_shop that names no shop', () =>
    refused(
      { shops: { north: { base_url: NORTH } }, default_shop: 'south' },
      /default_shop: names no shop of "shops" \(north\)/,
    ));
  it('base_url or key_file beside "shops"', () =>
    refused(
      { shops: { north: { base_url: NORTH } }, base_url: SOUTH },
      /base_url: belongs inside each of "shops"/,
    ));
  it('a shop without base_url', () => refused({ shops: { north: {} } }, /shops\.north\.base_url/));
  it('a relative key_file', () =>
    refused({ shops: { north: { base_url: NORTH, key_file: 'keys/north' } } }, /must be an absolute path/));
  it('a name with characters a shell or a file name would take apart', () =>
    refused({ shops: { 'north,south': { base_url: NORTH } } }, /a shop's name: letters, digits/));
});

describe('a config of one unnamed shop (every login before shops) reads as before', () => {
  it('base_url and the default key file; no shop name; --shop refused, saying how to name shops', async () => {
    await writeConfig(env, { base_url: NORTH, read_only: true, timezone: 'America/Denver' });
    await writeKeyFile(keyFilePath(env), 'the_old_key');
    expect(await resolveSettings({}, env)).toEqual({
      baseUrl: NORTH,
      apiKey: 'the_old_key',
      keySource: 'config',
      readOnly: true,
      mouse: true,
      timeZone: 'America/Denver',
    });
    await expect(resolveSettings({ shop: 'north' }, env)).rejects.toThrow(
      'config.json names no shops; add "north" with shop-inbox login --shop north --base-url URL',
    );
  });
});

describe('shop names', () => {
  it('a name is taken exactly when it matches the rule, before any file is read', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        const valid = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(name);
        expect(SHOP_NAME_PATTERN.test(name)).toBe(valid);
        if (valid) expect(checkShopName(name)).toBe(name);
        else expect(() => checkShopName(name)).toThrow(/cannot be a shop's name/);
      }),
    );
    for (const name of ['../key', 'a/b', 'north,south', '-x', '', 'a b', 'x'.repeat(33), 'é']) {
      expect(() => checkShopName(name)).toThrow(/cannot be a shop's name/);
      expect(() => shopKeyFilePath(env, name)).toThrow(/cannot be a shop's name/);
    }
  });
});
