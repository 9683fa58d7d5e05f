/**
 * `shop-inbox login`: checks the shop's API key and saves it for this user,
 * so later runs need no SHOP_API_KEY. Like `gh auth login --with-token`, a
 * piped key is read from stdin; in a terminal it is asked for without echo.
 * The key is never taken from argv and never printed.
 */
import { BaseUrlError, parseBaseUrl } from '../api/base-url.js';
import { createShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { ConfigError } from '../config/config-error.js';
import { readConfig, type ShopInboxConfig, writeConfig } from '../config/config-file.js';
import { checkKey, readKeyFileIfPresent, writeKeyFile } from '../config/key-file.js';
import { KeyModeFile } from '../config/key-mode-file.js';
import { configFilePath, keyFilePath } from '../config/paths.js';
import { checkShopName, defaultShopName, shopKeyFilePath, shopNames } from '../config/shops.js';
import { sanitize } from '../text/sanitize.js';
import { InputCancelled, isTerminal, readHiddenLine } from './hidden-input.js';
import { describeKeyMode, learnKeyMode } from './key-mode-words.js';
import { parseVerbArgs } from './parse-verb.js';

import { UsageError } from './usage-error.js';
import { VERBS, verbHelp } from './verb-table.js';
import { VERSION } from './version.js';

export interface LoginIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Far more than any key: more than this on stdin is not a key. */
const MAX_PIPED_BYTES = 64 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.length > MAX_PIPED_BYTES) throw new ConfigError('standard input holds far more than a key');
  }
  return text;
}

async function readKey(io: LoginIo): Promise<string> {
  if (isTerminal(io.stdin)) {
    return checkKey(await readHiddenLine(io.stdin, io.stderr, 'API key (input hidden): '), 'the key');
  }
  const text = await readAll(io.stdin);
  if (text.trim() === '') {
    throw new ConfigError(
      'no key on standard input: pipe it in (… | shop-inbox login), or run login in a terminal to type it',
    );
  }
  return checkKey(text, 'the key on standard input');
}

/** The saved config, or undefined when there is none or it is broken (login then replaces it). */
async function readExistingConfig(env: NodeJS.ProcessEnv, io: LoginIo): Promise<ShopInboxConfig | undefined> {
  try {
    return await readConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`shop-inbox: ${error.message}; login will replace it\n`);
    return undefined;
  }
}

function chooseBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv, saved: string | undefined): string {
  const input = [flag, env.SHOP_API_BASE_URL, saved].find((value) => value?.trim());
  if (!input) {
    throw new UsageError('no base URL: pass --base-url https://host/…/v1 or set SHOP_API_BASE_URL');
  }
  try {
    return parseBaseUrl(input);
  } catch (error) {
    if (error instanceof BaseUrlError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The shop this login saves: --shop NAME, else the default of a config that names shops, else none
 * (a config of one unnamed shop, as before shops existed).
 */
function shopToSave(flag: string | undefined, existing: ShopInboxConfig | undefined): string | undefined {
  if (flag !== undefined) {
    try {
      return checkShopName(flag);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (!existing?.shops) return undefined;
  const fallback = defaultShopName(existing);
  if (fallback === undefined)
    throw new UsageError(
      `config.json names several shops (${shopNames(existing).join(', ')}) and no default_shop: name one with --shop NAME`,
    );
  return fallback;
}

/** --base-url, else the one this shop was saved with (the environment's is for runs without --shop). */
function chooseShopBaseUrl(
  flag: string | undefined,
  shop: string,
  existing: ShopInboxConfig | undefined,
): string {
  const saved =
    existing?.shops && Object.hasOwn(existing.shops, shop) ? existing.shops[shop]?.base_url : undefined;
  const input = [flag, saved].find((value) => value?.trim());
  if (!input) throw new UsageError(`no base URL for the shop "${shop}": pass --base-url https://host/…/v1`);
  try {
    return parseBaseUrl(input);
  } catch (error) {
    if (error instanceof BaseUrlError) throw new UsageError(error.message);
    throw error;
  }
}

/** The config of one unnamed shop, as every login wrote before shops existed. */
function singleShopConfig(
  existing: ShopInboxConfig | undefined,
  baseUrl: string,
  readOnly: boolean,
): ShopInboxConfig {
  // The key goes to the default key file, so a key_file saved before must not shadow it.
  const { key_file: _shadowing, ...kept } = existing ?? {};
  return { ...kept, base_url: baseUrl, ...(readOnly ? { read_only: true } : {}) };
}

/**
 * The config with the shop `name` saved. A config of one unnamed shop becomes the shop "default" first
 * (its base URL, its key file, its read-only choice), which stays the default shop.
 */
async function withShop(
  env: NodeJS.ProcessEnv,
  existing: ShopInboxConfig | undefined,
  name: string,
  saved: { baseUrl: string; keyPath: string; readOnly: boolean },
): Promise<ShopInboxConfig> {
  const { base_url: oldBaseUrl, key_file: oldKeyFile, read_only: oldReadOnly, ...kept } = existing ?? {};
  const shops = { ...(existing?.shops ?? {}) };
  let defaultShop = existing?.default_shop ?? (existing?.shops ? defaultShopName(existing) : undefined);
  if (!existing?.shops && oldBaseUrl !== undefined) {
    const oldKeyPath = oldKeyFile ?? keyFilePath(env);
    const hasKey = await readKeyFileIfPresent(oldKeyPath).then(
      (key) => key !== undefined,
      () => false,
    );
    shops[LEGACY_SHOP_NAME] = {
      base_url: oldBaseUrl,
      ...(hasKey ? { key_file: oldKeyPath } : {}),
      ...(oldReadOnly ? { read_only: true } : {}),
    };
    defaultShop = LEGACY_SHOP_NAME;
  }
  // A read_only of the whole config still applies to every shop; one of an unnamed shop moved into it above.
  const keepsGlobalReadOnly = existing?.shops !== undefined && oldReadOnly === true;
  const before = Object.hasOwn(shops, name) ? shops[name] : undefined;
  shops[name] = {
    ...before,
    base_url: saved.baseUrl,
    key_file: saved.keyPath,
    ...(saved.readOnly ? { read_only: true } : {}),
  };
  return {
    ...kept,
    ...(keepsGlobalReadOnly ? { read_only: true } : {}),
    shops,
    default_shop: defaultShop ?? name,
  };
}

/** Whether runs on the shop `name` of `config` send nothing but reads. */
function shopIsReadOnly(config: ShopInboxConfig, name: string): boolean {
  return config.read_only === true || config.shops?.[name]?.read_only === true;
}

/** The name a config of one unnamed shop's shop takes when a second shop is saved beside it. */
const LEGACY_SHOP_NAME = 'default';

/** The business name the key belongs to, or the exit status after saying why the key cannot be used. */
async function verifyKey(baseUrl: string, apiKey: string, io: LoginIo): Promise<string | number> {
  const client = createShopClient({ baseUrl, apiKey, readOnly: true, userAgent: `shop-inbox/${VERSION}` });
  try {
    const me = await client.getMe();
    return sanitize(me.identity.business_name, { singleLine: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const retry = error.transient
      ? ' To save the key without checking it, run login again with --no-verify.'
      : '';
    io.stderr.write(`shop-inbox: ${explainApiError(error)} Nothing was saved.${retry}\n`);
    return 1;
  }
}

export async function runLoginCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: LoginIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const { values, help } = parseVerbArgs(VERBS.login, args);
  if (help) {
    io.stdout.write(verbHelp(VERBS.login));
    return 0;
  }
  const existing = await readExistingConfig(env, io);
  const shop = shopToSave(values.shop, existing);
  const baseUrl =
    shop === undefined
      ? chooseBaseUrl(values['base-url'], env, existing?.base_url)
      : chooseShopBaseUrl(values['base-url'], shop, existing);

  let apiKey: string;
  try {
    apiKey = await readKey(io);
  } catch (error) {
    if (error instanceof InputCancelled) return error.exitCode;
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`shop-inbox: ${error.message}\n`);
    return 1;
  }

  const keyPath = shop === undefined ? keyFilePath(env) : shopKeyFilePath(env, shop);
  const config =
    shop === undefined
      ? singleShopConfig(existing, baseUrl, values['read-only'] === true)
      : await withShop(env, existing, shop, { baseUrl, keyPath, readOnly: values['read-only'] === true });
  const readOnly = shop === undefined ? config.read_only === true : shopIsReadOnly(config, shop);

  let businessName: string | undefined;
  let keyMode: string;
  if (values['no-verify']) keyMode = 'unknown: not asked (--no-verify)';
  else {
    const verified = await verifyKey(baseUrl, apiKey, io);
    if (typeof verified === 'number') return verified;
    businessName = verified;
    // A login kept read-only sends nothing but reads: its key's own mode is not asked.
    keyMode = readOnly
      ? "read-only: this login is read-only (the key's own mode is not asked, since that takes a write)"
      : describeKeyMode(
          await learnKeyMode(
            createShopClient({ baseUrl, apiKey, readOnly: true, userAgent: `shop-inbox/${VERSION}` }),
            KeyModeFile.forKey(env, baseUrl, apiKey),
          ),
        );
  }
  try {
    await writeKeyFile(keyPath, apiKey);
    await writeConfig(env, config);
  } catch (error) {
    io.stderr.write(`shop-inbox: could not save the login: ${(error as Error).message}\n`);
    return 1;
  }

  const asShop =
    shop === undefined
      ? ''
      : ` as the shop "${shop}"${defaultShopName(config) === shop ? ' (the default shop)' : ` (use it with --shop ${shop})`}`;
  io.stdout.write(
    `${businessName ? `Logged in to ${businessName}${asShop}.` : `Saved without checking the key (--no-verify)${asShop}.`}\n` +
      `Key saved to ${keyPath} (only you can read it); base URL ${baseUrl} saved to ${configFilePath(env)}.\n` +
      `Key mode: ${sanitize(keyMode, { singleLine: true }).replace(/\.+$/, '')}.\n` +
      (readOnly ? 'Read-only: shop-inbox sends nothing but reads with this login.\n' : ''),
  );
  // SHOP_API_KEY is not used with --shop, but is without it: it then hides the default shop's saved key.
  if (env.SHOP_API_KEY?.trim() && (shop === undefined || defaultShopName(config) === shop)) {
    io.stderr.write(
      'shop-inbox: note: SHOP_API_KEY is set here and takes precedence over the saved key (but for --shop); unset it to use the saved one.\n',
    );
  }
  return 0;
}
