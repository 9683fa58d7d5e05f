/**
 * `shop-inbox status`: checks that the key and base URL work and prints the
 * shop's state in a few lines, through the same client the inbox uses.
 * Like `gh auth status`: the first thing to run against a real shop.
 */
import { parseArgs } from 'node:util';
import { BaseUrlError } from '../api/base-url.js';
import { createShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { capText } from '../api/limits.js';
import type { Billing, ShopOverview, TextingSetup } from '../contract/resources.js';
import { sanitize } from '../text/sanitize.js';
import { STATUS_USAGE } from './usage.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

/** Longest value printed from the server: a name of a megabyte must not fill the terminal. */
const MAX_VALUE_CHARS = 120;

/** The day part of an ISO timestamp, or the text as given when it is not one. */
const day = (value: string | null | undefined) =>
  value ? sanitize(capText(value, 32), { singleLine: true }).slice(0, 10) : 'n/a';
/** A server string as printed: cut first (cheap on a huge one), then made safe for a terminal. */
const text = (value: unknown) =>
  sanitize(capText(String(value ?? 'n/a'), MAX_VALUE_CHARS), { singleLine: true });

export function formatStatus(
  baseUrl: string,
  me: ShopOverview,
  billing: Billing,
  texting: TextingSetup,
): string {
  const card = billing.payment_method
    ? `${text(billing.payment_method.brand)} ending ${text(billing.payment_method.last4)}`
    : 'no card on file';
  const rows: Array<[string, string]> = [
    ['API', `${baseUrl} (key accepted)`],
    [
      'Billing',
      `${text(billing.subscription.status)}, ${text(billing.subscription.plan)} plan, period ends ${day(billing.subscription.current_period_end)}, ${card}`,
    ],
    [
      'Texting',
      `${text(texting.texting_status)}, ${texting.texting_number ? text(texting.texting_number) : 'no number yet'}, campaign ${texting.campaign_approved ? 'approved' : 'not approved'}, forwarding ${texting.forwarding_verified_at ? `verified ${day(texting.forwarding_verified_at)}` : 'not verified'}`,
    ],
    [
      'Inbox',
      `${me.inbox_pulse.open_leads} open leads, ${me.inbox_pulse.needs_callback} missed calls with no reply`,
    ],
    ['Reviews', `${me.reviews_pulse.unreplied} unreplied`],
    ['Actions', `${me.pending_actions} pending approval`],
    [
      'Credits',
      `${me.credits_pulse.used} of ${me.credits_pulse.included} used, ${me.credits_pulse.remaining} left`,
    ],
    ['Google', me.google_pulse.connected ? 'connected' : 'not connected'],
  ];
  const title = `${text(me.identity.business_name)} (${text(me.identity.first_name)}, ${text(me.identity.email)})`;
  return `${title}\n${rows.map(([label, value]) => `  ${label.padEnd(8)} ${value}`).join('\n')}\n`;
}

export async function runStatusCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    process.stdout.write(STATUS_USAGE);
    return 0;
  }
  const baseUrl = values['base-url'] ?? env.SHOP_API_BASE_URL;
  const apiKey = env.SHOP_API_KEY?.trim();
  if (!baseUrl) {
    throw new UsageError('no base URL: pass --base-url https://host/…/v1 or set SHOP_API_BASE_URL');
  }
  if (!apiKey) {
    throw new UsageError(
      'no API key: set SHOP_API_KEY (a key is never accepted as a flag). To try the tool without a shop, run `shop-inbox sim` and use its write token.',
    );
  }
  let client: ReturnType<typeof createShopClient>;
  try {
    client = createShopClient({ baseUrl, apiKey, readOnly: true, userAgent: `shop-inbox/${VERSION}` });
  } catch (error) {
    if (error instanceof BaseUrlError) throw new UsageError(error.message);
    throw error;
  }
  try {
    const [me, billing, texting] = await Promise.all([
      client.getMe(),
      client.getBilling(),
      client.getTexting(),
    ]);
    process.stdout.write(formatStatus(client.baseUrl, me, billing, texting));
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    process.stderr.write(`shop-inbox: ${explainApiError(error)}\n`);
    return 1;
  }
}
