/**
 * `shop-inbox status`: checks that the key and base URL work and prints the
 * shop's state in a few lines, through the same client the inbox uses, with
 * what the key may do (write, read-only, or unknown and why) and what this
 * key's outbox holds (texts waiting, damage, damaged files kept aside). Like
 * `gh auth status`: the first thing to run against a real shop.
 */
import { createShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { KeyModeAnswer } from '../api/key-mode-probe.js';
import { capText } from '../api/limits.js';
import { KeyModeFile } from '../config/key-mode-file.js';
import type { ResolvedSettings } from '../config/settings.js';
import { type StatusOutput, StatusOutput as StatusSchema } from '../contract/cli-output.js';
import type { Billing, ShopOverview, TextingSetup } from '../contract/resources.js';
import { explainOutboxError } from '../outbox/outbox-error.js';
import { OutboxFile, type OutboxInspection } from '../outbox/outbox-file.js';
import { plural } from '../store/counts.js';
import { sanitize } from '../text/sanitize.js';
import { EXIT } from './exit-codes.js';
import { writeJson } from './json-output.js';
import { describeKeyMode, learnKeyMode } from './key-mode-words.js';
import { parseVerbArgs } from './parse-verb.js';
import { settingsOrExplain } from './shop-settings.js';
import { describeFailure, reportFailure } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';
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
  keySource: string,
  me: ShopOverview,
  billing: Billing,
  texting: TextingSetup,
  keyMode: string,
): string {
  const card = billing.payment_method
    ? `${text(billing.payment_method.brand)} ending ${text(billing.payment_method.last4)}`
    : 'no card on file';
  const rows: Array<[string, string]> = [
    ['API', `${baseUrl} (key from ${keySource}, accepted)`],
    ['Mode', keyMode],
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
      `${plural(me.inbox_pulse.open_leads, 'open lead')}, ${plural(me.inbox_pulse.needs_callback, 'missed call')} with no reply`,
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

/** A path as printed: whole (it is where to look), made safe for a terminal. */
const pathText = (path: string) => sanitize(path, { singleLine: true });

/** The outbox's rows: texts waiting, damage the next inbox recovers from, damaged files kept aside. */
export function formatOutbox(outbox: OutboxInspection | { path: string; problem: string }): string {
  const lines: string[] = [];
  if ('problem' in outbox) {
    lines.push(`cannot be read: ${sanitize(outbox.problem, { singleLine: true })}`);
  } else {
    lines.push(
      outbox.waiting === 0
        ? 'no text waiting'
        : `${plural(outbox.waiting, 'text')} confirmed and not yet known sent (the inbox with this key sends ${outbox.waiting === 1 ? 'it' : 'them'})`,
    );
    if (outbox.damage) {
      const unreadable =
        outbox.damage.unreadableBytes > 0
          ? `${plural(outbox.damage.unreadableBytes, 'byte')} cannot be read`
          : '';
      const cut = outbox.damage.incomplete ? 'it was cut short' : '';
      lines.push(
        `damaged: ${[unreadable, cut].filter(Boolean).join(', ')}; the next inbox with this key keeps what it can read and sets the file aside (${pathText(outbox.path)})`,
      );
    }
    for (const kept of outbox.keptAside) {
      lines.push(
        `kept aside: ${pathText(kept.path)} (${plural(kept.unreadableBytes, 'byte')} that could not be read; ${plural(kept.recovered, 'entry', 'entries')} recovered from it)`,
      );
    }
  }
  return lines.map((line, index) => `  ${(index === 0 ? 'Outbox' : '').padEnd(8)} ${line}\n`).join('');
}

async function inspectOutbox(env: NodeJS.ProcessEnv, settings: ResolvedSettings) {
  const file = OutboxFile.forKey(env, settings.baseUrl, settings.apiKey);
  return file.inspect().catch((error: unknown) => ({
    path: file.path,
    problem: explainOutboxError(error, file.path),
  }));
}

/** Where the key came from, in the words of docs/config.md. */
const KEY_SOURCE: Record<ResolvedSettings['keySource'], string> = {
  'key-file': '--key-file',
  env: 'SHOP_API_KEY',
  config: 'the saved login',
};

/** The outbox as --json gives it. */
function outboxOutput(outbox: OutboxInspection | { path: string; problem: string }): StatusOutput['outbox'] {
  if ('problem' in outbox) return outbox;
  return {
    path: outbox.path,
    waiting: outbox.waiting,
    others: outbox.others,
    damage: outbox.damage
      ? { unreadable_bytes: outbox.damage.unreadableBytes, cut_short: outbox.damage.incomplete }
      : null,
    kept_aside: outbox.keptAside.map((kept) => ({
      path: kept.path,
      unreadable_bytes: kept.unreadableBytes,
      recovered: kept.recovered,
    })),
  };
}

function keyModeOutput(answer: KeyModeAnswer | undefined): StatusOutput['key_mode'] {
  if (!answer) return { mode: 'read', why: 'read_only is set in config.json', source: 'config' };
  return { mode: answer.mode, why: answer.mode === 'unknown' ? answer.why : null, source: 'shop' };
}

export async function runStatusCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, help } = parseVerbArgs(VERBS.status, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.status));
    return 0;
  }
  const json = values.json === true;
  const io = { stdout: process.stdout, stderr: process.stderr };
  // Exactly as the inbox finds them: --base-url, --key-file, the environment, the saved login.
  let problem = '';
  const settings = await settingsOrExplain(values, env, (message) => {
    problem = message;
  });
  if (!settings) {
    reportFailure(io, json, { code: 'settings', message: problem, exitCode: EXIT.error });
    return EXIT.error;
  }
  const client = createShopClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    readOnly: true,
    userAgent: `shop-inbox/${VERSION}`,
  });
  // Read from the disk while the shop answers: it matters also when the shop cannot be reached.
  const outbox = inspectOutbox(env, settings);
  try {
    const [me, billing, texting, keyMode] = await Promise.all([
      client.getMe(),
      client.getBilling(),
      client.getTexting(),
      // A login kept read-only sends nothing but reads: its key's own mode is not asked.
      settings.readOnly
        ? undefined
        : learnKeyMode(client, KeyModeFile.forKey(env, settings.baseUrl, settings.apiKey)),
    ]);
    if (json) {
      writeJson(StatusSchema, {
        base_url: client.baseUrl,
        key_source: settings.keySource,
        key_mode: keyModeOutput(keyMode),
        me,
        billing,
        texting,
        outbox: outboxOutput(await outbox),
      });
      return EXIT.ok;
    }
    const mode = keyMode
      ? describeKeyMode(keyMode)
      : "read-only: read_only is set in config.json (the key's own mode is not asked, since that takes a write)";
    process.stdout.write(
      formatStatus(client.baseUrl, KEY_SOURCE[settings.keySource], me, billing, texting, text(mode)) +
        formatOutbox(await outbox),
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const failure = describeFailure(error);
    if (!failure) throw error;
    // The outbox matters most when the shop cannot be reached: said on stderr beside the failure.
    if (json) process.stderr.write(formatOutbox(await outbox));
    else process.stdout.write(formatOutbox(await outbox));
    reportFailure(io, json, failure);
    return failure.exitCode;
  }
}
