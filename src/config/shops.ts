/**
 * The shops config.json names. A config without "shops" is one shop (its base_url and key_file, or the
 * default key file): the format of every login before several shops existed, read as it always was.
 */
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { SHOP_NAME_PATTERN, SHOP_NAME_RULE, type ShopEntry, type ShopInboxConfig } from './config-file.js';
import { configDir } from './paths.js';

/** The shops' names in the order config.json lists them (none for a config of one unnamed shop). */
export function shopNames(config: ShopInboxConfig | undefined): string[] {
  return Object.keys(config?.shops ?? {});
}

/** The shop used without --shop: "default_shop", else the only one; undefined when none or several without a default. */
export function defaultShopName(config: ShopInboxConfig | undefined): string | undefined {
  if (config?.default_shop !== undefined) return config.default_shop;
  const names = shopNames(config);
  return names.length === 1 ? names[0] : undefined;
}

/** Throws a ConfigError when `name` cannot be a shop's name (checked before any file is read). */
export function checkShopName(name: string): string {
  if (!SHOP_NAME_PATTERN.test(name))
    throw new ConfigError(`"${name.slice(0, 40)}" cannot be a shop's name: ${SHOP_NAME_RULE} characters`);
  return name;
}

/** The shop `name` of the config, or a ConfigError that lists the shops there are. */
export function shopEntry(config: ShopInboxConfig | undefined, name: string): ShopEntry {
  const shops = config?.shops;
  if (shops && Object.hasOwn(shops, name)) return shops[name] as ShopEntry;
  const known = shopNames(config);
  throw new ConfigError(
    known.length > 0
      ? `config.json names no shop "${name}"; its shops: ${known.join(', ')} (add one with shop-inbox login --shop ${name})`
      : `config.json names no shops; add "${name}" with shop-inbox login --shop ${name} --base-url URL`,
  );
}

/** Where `shop-inbox login --shop NAME` saves that shop's key (mode 0600, beside config.json). */
export function shopKeyFilePath(env: NodeJS.ProcessEnv, name: string): string {
  return join(configDir(env), 'keys', checkShopName(name));
}
