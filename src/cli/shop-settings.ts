/**
 * Which shop and key a command that talks to a shop uses: its flags, then the environment, then the
 * saved login (`resolveSettings`). One rule and one set of messages for the inbox and `status`.
 */
import { BaseUrlError } from '../api/base-url.js';
import { ConfigError } from '../config/config-error.js';
import { type ResolvedSettings, resolveSettings } from '../config/settings.js';
import { checkShopName } from '../config/shops.js';
import { UsageError } from './usage-error.js';
import { SHOP_OPTIONS } from './verb-table.js';

/** The flags that choose the shop and the key, for `parseArgs` (every command's table has them). */
export const SHOP_FLAGS = SHOP_OPTIONS;

export interface ShopFlagValues {
  shop?: string | undefined;
  'base-url'?: string | undefined;
  'key-file'?: string | undefined;
  'read-only'?: boolean | undefined;
}

/**
 * The settings to run with, or undefined once stderr says what is missing or wrong (a missing key
 * or base URL, an unsafe key file, a refused URL): the command then exits 1. Never prints the key.
 */
export async function settingsOrExplain(
  values: ShopFlagValues,
  env: NodeJS.ProcessEnv,
  explain: (message: string) => void = (message) => process.stderr.write(`shop-inbox: ${message}\n`),
): Promise<ResolvedSettings | undefined> {
  if (values.shop !== undefined) checkShopFlag(values);
  try {
    return await resolveSettings(
      {
        ...(values.shop !== undefined ? { shop: values.shop } : {}),
        ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
        ...(values['key-file'] ? { keyFile: values['key-file'] } : {}),
        readOnly: values['read-only'] === true,
      },
      env,
    );
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BaseUrlError) {
      explain(error.message);
      return undefined;
    }
    throw error;
  }
}

/** --shop names the base URL and the key file itself: a second source beside it is a mistake (exit 2). */
function checkShopFlag(values: ShopFlagValues): void {
  const beside = (['base-url', 'key-file'] as const).find((flag) => values[flag] !== undefined);
  if (beside) throw new UsageError(`--shop and --${beside} cannot be given together: the shop names its own`);
  if (values.shop?.includes(','))
    throw new UsageError('--shop names one shop here (several, separated by commas, only with --wallboard)');
  try {
    checkShopName(values.shop ?? '');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
