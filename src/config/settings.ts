/**
 * Which shop, which key and which mode a run uses. Each comes from the most
 * specific place that gives one: a flag, then the environment, then the
 * user's saved config.
 *
 * With --shop NAME, that shop of config.json alone decides the base URL and
 * the key: SHOP_API_BASE_URL and SHOP_API_KEY are not used (a key exported
 * for one shop is never sent to another), and --base-url / --key-file are
 * refused beside it (src/cli/shop-settings.ts).
 */
import { BaseUrlError, parseBaseUrl } from '../api/base-url.js';
import { ConfigError } from './config-error.js';
import { readConfig, type ShopInboxConfig } from './config-file.js';
import { readKeyFile, readKeyFileIfPresent } from './key-file.js';
import { keyFilePath } from './paths.js';
import { checkShopName, defaultShopName, shopEntry, shopNames } from './shops.js';

export interface SettingsOptions {
  /** A shop of config.json by name (--shop). */
  shop?: string;
  baseUrl?: string;
  keyFile?: string;
  readOnly?: boolean;
}

export interface ResolvedSettings {
  /** The config's name of the shop, when its base URL came from one of config.json's "shops". */
  shop?: string;
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

/** The shop of the saved config a run uses unless flags or the environment say otherwise. */
interface SavedShop {
  /** Its name in "shops" (none for a config of one unnamed shop). */
  name?: string;
  baseUrl?: string;
  readOnly: boolean;
  timeZone?: string;
  /** The key file it names; absent, the default key file (a config without "shops" only). */
  keyFile?: string;
}

/** The shop `name`, else the default shop; undefined when config.json names several and none is the default. */
function savedShop(config: ShopInboxConfig | undefined, name: string | undefined): SavedShop | undefined {
  const chosen = name ?? (config?.shops ? defaultShopName(config) : undefined);
  if (chosen === undefined) {
    if (config?.shops) return undefined;
    return {
      ...(config?.base_url ? { baseUrl: config.base_url } : {}),
      ...(config?.key_file ? { keyFile: config.key_file } : {}),
      readOnly: config?.read_only === true,
      ...(config?.timezone ? { timeZone: config.timezone } : {}),
    };
  }
  const entry = shopEntry(config, chosen);
  const timeZone = entry.timezone ?? config?.timezone;
  return {
    name: chosen,
    baseUrl: entry.base_url,
    ...(entry.key_file ? { keyFile: entry.key_file } : {}),
    readOnly: entry.read_only === true || config?.read_only === true,
    ...(timeZone ? { timeZone } : {}),
  };
}

/** Said when config.json names several shops, none is the default, and nothing else gives what is needed. */
function chooseAShopError(config: ShopInboxConfig | undefined): ConfigError {
  return new ConfigError(
    `config.json names several shops (${shopNames(config).join(', ')}) and no default_shop: ` +
      'choose one with --shop NAME, or set "default_shop" in config.json',
  );
}

async function resolveKey(
  options: SettingsOptions,
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
  shop: SavedShop | undefined,
): Promise<Pick<ResolvedSettings, 'apiKey' | 'keySource' | 'keyFile'>> {
  if (options.keyFile !== undefined)
    return { apiKey: await readKeyFile(options.keyFile), keySource: 'key-file', keyFile: options.keyFile };
  const fromEnv = options.shop === undefined ? given(env.SHOP_API_KEY) : undefined;
  if (fromEnv) return { apiKey: fromEnv, keySource: 'env' };
  if (shop === undefined) throw chooseAShopError(config);
  const fromConfig = await readShopKey(env, shop);
  if (fromConfig === undefined) {
    if (shop.name !== undefined)
      throw new ConfigError(
        `the shop "${shop.name}" has no key saved: run shop-inbox login --shop ${shop.name}`,
      );
    throw new MissingKeyError();
  }
  return { apiKey: fromConfig, keySource: 'config' };
}

/** A shop's saved key: a key file it names must exist; the default one (one unnamed shop) is optional. */
async function readShopKey(env: NodeJS.ProcessEnv, shop: SavedShop): Promise<string | undefined> {
  if (shop.keyFile) return readKeyFile(shop.keyFile);
  return shop.name === undefined ? readKeyFileIfPresent(keyFilePath(env)) : undefined;
}

/** The saved login's key (of the shop `shopName`, else the default shop), or undefined when none is saved. */
export async function readSavedKey(
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
  shopName?: string,
): Promise<string | undefined> {
  const shop = savedShop(config, shopName);
  return shop ? readShopKey(env, shop) : undefined;
}

function resolveBaseUrl(
  options: SettingsOptions,
  env: NodeJS.ProcessEnv,
  config: ShopInboxConfig | undefined,
  shop: SavedShop | undefined,
): { baseUrl: string; fromShop: boolean } {
  const named = shop?.name !== undefined ? `base_url of the shop "${shop.name}" in config.json` : undefined;
  const candidates: Array<[string | undefined, string]> =
    options.shop !== undefined
      ? [[given(shop?.baseUrl), named ?? 'config.json']]
      : [
          [given(options.baseUrl), '--base-url'],
          [given(env.SHOP_API_BASE_URL), 'SHOP_API_BASE_URL'],
          [given(shop?.baseUrl), named ?? 'base_url in config.json'],
        ];
  const found = candidates.find(([value]) => value !== undefined);
  if (!found?.[0]) {
    if (shop === undefined) throw chooseAShopError(config);
    throw new MissingBaseUrlError();
  }
  try {
    return { baseUrl: parseBaseUrl(found[0]), fromShop: found[1] === named };
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
  const shop = savedShop(config, options.shop === undefined ? undefined : checkShopName(options.shop));
  const key = await resolveKey(options, env, config, shop);
  const { baseUrl, fromShop } = resolveBaseUrl(options, env, config, shop);
  const timeZone = fromShop ? shop?.timeZone : config?.timezone;
  return {
    ...(fromShop && shop?.name !== undefined ? { shop: shop.name } : {}),
    baseUrl,
    ...key,
    readOnly:
      options.readOnly === true || config?.read_only === true || (fromShop && shop?.readOnly === true),
    ...(config?.keys ? { keys: config.keys } : {}),
    mouse: config?.mouse !== false,
    ...(config?.view ? { view: config.view } : {}),
    ...(config?.theme ? { theme: config.theme } : {}),
    ...(config?.notify ? { notify: config.notify } : {}),
    ...fadeOf(config),
    ...(timeZone ? { timeZone } : {}),
  };
}
