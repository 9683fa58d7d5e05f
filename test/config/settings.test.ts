import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { keyFilePath } from '../../src/config/paths.js';
import { MissingBaseUrlError, MissingKeyError, resolveSettings } from '../../src/config/settings.js';

const URL_FLAG = 'https://flag.example.com/v1';
const URL_ENV = 'https://env.example.com/v1';
const URL_CONFIG = 'https://config.example.com/v1';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-settings-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A private key file outside the config directory. */
async function keyFile(name: string, key: string): Promise<string> {
  const path = join(home, name);
  await writeKeyFile(path, key);
  return path;
}

describe('resolveSettings: the key', () => {
  it('--key-file wins over SHOP_API_KEY and the saved key', async () => {
    await writeConfig(env, { base_url: URL_CONFIG, key_file: await keyFile('config-key', 'from_config') });
    const flagKey = await keyFile('flag-key', 'from_flag');
    const settings = await resolveSettings({ keyFile: flagKey }, { ...env, SHOP_API_KEY: 'from_env' });
    expect(settings).toMatchObject({ apiKey: 'from_flag', keySource: 'key-file' });
  });

  it("SHOP_API_KEY wins over the config's key_file and the default key file", async () => {
    await writeConfig(env, { base_url: URL_CONFIG, key_file: await keyFile('config-key', 'from_config') });
    expect(await resolveSettings({}, { ...env, SHOP_API_KEY: ' from_env\n' })).toMatchObject({
      apiKey: 'from_env',
      keySource: 'env',
    });
    await writeConfig(env, { base_url: URL_CONFIG });
    await writeKeyFile(keyFilePath(env), 'from_default');
    expect(await resolveSettings({}, { ...env, SHOP_API_KEY: 'from_env' })).toMatchObject({
      apiKey: 'from_env',
      keySource: 'env',
    });
  });

  it("uses the config's key_file over the default key file", async () => {
    await writeKeyFile(keyFilePath(env), 'from_default');
    await writeConfig(env, { base_url: URL_CONFIG, key_file: await keyFile('config-key', 'from_config') });
    expect(await resolveSettings({}, env)).toMatchObject({ apiKey: 'from_config', keySource: 'config' });
  });

  it('uses the default key file when it exists', async () => {
    await writeConfig(env, { base_url: URL_CONFIG });
    await writeKeyFile(keyFilePath(env), 'from_default');
    expect(await resolveSettings({}, env)).toEqual({
      baseUrl: URL_CONFIG,
      apiKey: 'from_default',
      readOnly: false,
      mouse: true,
      keySource: 'config',
    });
  });

  it('treats an empty SHOP_API_KEY as unset', async () => {
    await writeKeyFile(keyFilePath(env), 'from_default');
    expect(await resolveSettings({ baseUrl: URL_FLAG }, { ...env, SHOP_API_KEY: '  ' })).toMatchObject({
      keySource: 'config',
    });
  });

  it('refuses an unsafe default key file instead of skipping it', async () => {
    await writeKeyFile(keyFilePath(env), 'from_default');
    await chmod(keyFilePath(env), 0o644);
    await expect(resolveSettings({ baseUrl: URL_FLAG }, env)).rejects.toThrow(/chmod 600/);
  });

  it('refuses a key_file the config names that does not exist', async () => {
    await writeConfig(env, { base_url: URL_CONFIG, key_file: join(home, 'gone') });
    await expect(resolveSettings({}, env)).rejects.toThrow(`there is no key file at ${join(home, 'gone')}`);
  });

  it('refuses a --key-file that does not exist, even with SHOP_API_KEY set', async () => {
    await expect(
      resolveSettings({ baseUrl: URL_FLAG, keyFile: join(home, 'gone') }, { ...env, SHOP_API_KEY: 'k' }),
    ).rejects.toThrow(/no key file/);
  });

  it('without any key, says the four ways to give one', async () => {
    const error = await resolveSettings({ baseUrl: URL_FLAG }, env).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingKeyError);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('shop-inbox login');
    expect(message).toContain('SHOP_API_KEY=…');
    expect(message).toContain('--key-file PATH');
    expect(message).toContain('shop-inbox --demo');
  });
});

describe('resolveSettings: the base URL', () => {
  const withKey = () => ({ ...env, SHOP_API_KEY: 'k' });

  it('--base-url wins over SHOP_API_BASE_URL and the config', async () => {
    await writeConfig(env, { base_url: URL_CONFIG });
    const settings = await resolveSettings(
      { baseUrl: URL_FLAG },
      { ...withKey(), SHOP_API_BASE_URL: URL_ENV },
    );
    expect(settings.baseUrl).toBe(URL_FLAG);
  });

  it('SHOP_API_BASE_URL wins over the config', async () => {
    await writeConfig(env, { base_url: URL_CONFIG });
    expect((await resolveSettings({}, { ...withKey(), SHOP_API_BASE_URL: URL_ENV })).baseUrl).toBe(URL_ENV);
  });

  it('comes from the config last, normalised', async () => {
    await writeConfig(env, { base_url: `${URL_CONFIG}/` });
    expect((await resolveSettings({}, withKey())).baseUrl).toBe(URL_CONFIG);
  });

  it('without one, says how to give one', async () => {
    const error = await resolveSettings({}, withKey()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingBaseUrlError);
    const message = (error as Error).message;
    expect(message).toContain('shop-inbox login --base-url URL');
    expect(message).toContain('SHOP_API_BASE_URL');
    expect(message).toContain('--base-url URL');
  });

  it('surfaces what is wrong with it, and where it came from', async () => {
    await expect(resolveSettings({ baseUrl: 'http://shop.example.com/v1' }, withKey())).rejects.toThrow(
      /refusing plain http to shop\.example\.com.*\(from --base-url\)/,
    );
    await writeConfig(env, { base_url: 'https://shop.example.com/api' });
    await expect(resolveSettings({}, withKey())).rejects.toThrow(/must end with \/v1.*config\.json/);
  });
});

describe('resolveSettings: read-only', () => {
  const withKey = () => ({ ...env, SHOP_API_KEY: 'k' });

  it('is on when the config says so, even without the flag', async () => {
    await writeConfig(env, { base_url: URL_CONFIG, read_only: true });
    expect((await resolveSettings({}, withKey())).readOnly).toBe(true);
    expect((await resolveSettings({ readOnly: false }, withKey())).readOnly).toBe(true);
  });

  it('is on with the flag, off when neither asks for it', async () => {
    await writeConfig(env, { base_url: URL_CONFIG, read_only: false });
    expect((await resolveSettings({ readOnly: true }, withKey())).readOnly).toBe(true);
    expect((await resolveSettings({}, withKey())).readOnly).toBe(false);
  });

  it('is off without any config', async () => {
    expect((await resolveSettings({ baseUrl: URL_FLAG }, withKey())).readOnly).toBe(false);
  });
});

describe('resolveSettings: a broken config', () => {
  it('is reported, not ignored', async () => {
    await mkdir(join(home, 'xdg', 'shop-inbox'), { recursive: true });
    await writeFile(join(home, 'xdg', 'shop-inbox', 'config.json'), 'not json');
    await expect(resolveSettings({ baseUrl: URL_FLAG }, { ...env, SHOP_API_KEY: 'k' })).rejects.toThrow(
      /not valid JSON/,
    );
  });
});
