/**
 * Which shop, which key and which mode a run uses. Each comes from the most
 * specific place that gives one: a flag, then the environment, then the
 * user's saved config.
 */
import { BaseUrlError, parseBaseUrl } from '../api/base-url.js';
import { ConfigError } from './config-error.js';
import { readConfig, type ShopInboxConfig } from './config-file.js';
import { readKeyFile, readKeyFileIfPresent } from './key-file.js';
import { keyFilePath } from './paths.js';

export interface SettingsOptions {
  baseUrl?: string;
  keyFile?: string;
  readOnly?: boolean;
}

export interface ResolvedSettings {
  baseUrl: string;
  apiKey: string;
  readOnly: boolean;
  /** Where the key came from: SHOP_API_KEY, --key-file, or the saved config (its key_file or the default key file). */
  keySource: 'env' | 'key-file' | 'config';
  /** The user's keys (command id → keys) from the config file. */
  keys?: ShopInboxConfig['keys'];
  /** Mouse reporting, unless the config says "mouse": false. */
  mouse: boolean;
  /** On a read-only screen, "new" marks fade after this long ("new_marks_fade_minutes" in the config). */
  newMarksFadeMs?: number;
  /** The shop's time zone from the config (absent: this machine's). */
  timeZone?: string;
  /** The --key-file path, when the key came from there. */
  keyFile?: string;
  /** The config's view, theme and notifications, when it has them. */
  view?: ShopInboxConfig['view'];
  theme?: ShopInboxConfig['theme'];
  notify?: ShopInboxConfig['notify'];
}

export class MissingKeyError extends ConfigError {
  override name = 'MissingKeyError';
  constructor() {
    super(
      [
        'no API key. Give one in any of these ways:',
        '  shop-inbox login             save the key for this user (asked for without echo, or piped in)',
        '  SHOP_API_KEY=… shop-inbox    for this run only',
        '  --key-file PATH              a file holding the key that only you can read (chmod 600)',
        'Or try the built-in demo shop, no key needed: shop-inbox --demo',
        'A key is never accepted as a flag: other users of this machine can see flags with ps.',
      ].join('\n'),
    );
  }
}

export class MissingBaseUrlError extends ConfigError {
  override name = 'MissingBaseUrlError';
  constructor() {
    super(
      [
        "no base URL (the shop's API root, https://host/…/v1). Give one in any of these ways:",
        '  shop-inbox login --base-url URL    save it for this user',
        '  SHOP_API_BASE_URL=URL              for this shell',
        '  --base-url URL                     for this run only',
      ].join('\n'),
    );
  }
}

/** A non-empty, trimmed value, or undefined. */
function given(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

async function resolveKey(
  options: SettingsOptions,
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
): Promise<Pick<ResolvedSettings, 'apiKey' | 'keySource' | 'keyFile'>> {
  if (options.keyFile !== undefined)
    return { apiKey: await readKeyFile(options.keyFile), keySource: 'key-file', keyFile: options.keyFile };
  const fromEnv = given(env.SHOP_API_KEY);
  if (fromEnv) return { apiKey: fromEnv, keySource: 'env' };
  const fromConfig = await readSavedKey(env, config);
  if (fromConfig === undefined) throw new MissingKeyError();
  return { apiKey: fromConfig, keySource: 'config' };
}

/** The saved login's key: a key file the config names must exist; the default one is optional. */
export async function readSavedKey(
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
): Promise<string | undefined> {
  return config?.key_file ? readKeyFile(config.key_file) : readKeyFileIfPresent(keyFilePath(env));
}

function resolveBaseUrl(
  options: SettingsOptions,
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
): string {
  const candidates: Array<[string | undefined, string]> = [
    [given(options.baseUrl), '--base-url'],
    [given(env.SHOP_API_BASE_URL), 'SHOP_API_BASE_URL'],
    [given(config?.base_url), 'base_url in config.json'],
  ];
  const found = candidates.find(([value]) => value !== undefined);
  if (!found?.[0]) throw new MissingBaseUrlError();
  try {
    return parseBaseUrl(found[0]);
  } catch (error) {
    if (error instanceof BaseUrlError) throw new ConfigError(`${error.message} (from ${found[1]})`);
    throw error;
  }
}

/** "new_marks_fade_minutes" of the config, as the inbox takes it. */
export const fadeOf = (config: ShopInboxConfig | undefined): { newMarksFadeMs?: number } =>
  config?.new_marks_fade_minutes !== undefined
    ? { newMarksFadeMs: config.new_marks_fade_minutes * 60_000 }
    : {};

export async function resolveSettings(
  options: SettingsOptions,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedSettings> {
  const config = await readConfig(env);
  const key = await resolveKey(options, env, config);
  return {
    baseUrl: resolveBaseUrl(options, env, config),
    ...key,
    readOnly: options.readOnly === true || config?.read_only === true,
    ...(config?.keys ? { keys: config.keys } : {}),
    mouse: config?.mouse !== false,
    ...(config?.view ? { view: config.view } : {}),
    ...(config?.theme ? { theme: config.theme } : {}),
    ...(config?.notify ? { notify: config.notify } : {}),
    ...fadeOf(config),
    ...(config?.timezone ? { timeZone: config.timezone } : {}),
  };
}
