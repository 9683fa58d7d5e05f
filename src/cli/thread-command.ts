/** `shop-inbox thread LEAD`: one lead, its contact, texts, consent record, an opt-out, and who waits. */
import { type ThreadOutput, ThreadOutput as ThreadSchema } from '../contract/cli-output.js';
import type { LeadDetail } from '../contract/resources.js';
import { consentStatus, latestKeyword } from '../rules/pre-send-checks.js';
import { waitingInThread } from '../store/waiting.js';
import { recipientLabel } from '../text/recipient.js';
import { sanitize } from '../text/sanitize.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { age, cell, localTimeOf } from './human-output.js';
import { writeJson } from './json-output.js';
import { parseVerbArgs, wholeNumberOption } from './parse-verb.js';
import { runShopVerb, type VerbIo } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';

/** The longest text body printed (the shop cuts bodies itself; this bounds a hostile one). */
const MAX_BODY_CHARS = 2_000;

export function threadOutput(detail: LeadDetail, now: number): ThreadOutput {
  const record = detail.consent_latest;
  const keyword = latestKeyword(
    detail.messages.map((message) => ({
      direction: String(message.direction),
      body: message.body,
      occurredAt: message.occurred_at,
      id: message.id,
    })),
  );
  const optOut =
    keyword?.kind === 'opt-out'
      ? {
          message_id: (keyword.text as { id?: string }).id ?? null,
          occurred_at: keyword.text.occurredAt,
          body: keyword.text.body,
        }
      : null;
  return {
    ...detail,
    consent_status: consentStatus(
      record === null ? null : { given: record.sms_initial, recordedAt: record.recorded_at },
    ).label,
    opted_out: optOut,
    waiting: waitingInThread(detail, now),
  };
}

export async function runThreadCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, positionals, help } = parseVerbArgs(VERBS.thread, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.thread));
    return EXIT.ok;
  }
  const limit = wholeNumberOption('limit', values.limit, 100, [1, 100]);
  const leadId = positionals[0] as string;
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: true, ...(io ? { io } : {}) }, async (context) => {
    const detail = await context.client.getLead(leadId, { limit });
    const output = threadOutput(detail, context.now());
    if (context.json) writeJson(ThreadSchema, output, context.stdout);
    else context.stdout.write(formatThread(output));
    return EXIT.ok;
  });
}

export function formatThread(output: ThreadOutput): string {
  const { lead, contact } = output;
  const consent =
    output.consent_latest && output.consent_status !== 'no consent record'
      ? `${output.consent_status} ${localTimeOf(output.consent_latest.recorded_at)}`
      : output.consent_status;
  const lines = [
    `Thread — ${recipientLabel(contact)}`,
    `  lead ${cell(lead.id, 40)} · ${cell(lead.status, 16)} · ${cell(lead.urgency, 16)} · ${cell(lead.source, 20)} · opened ${localTimeOf(lead.created_at)}`,
    `  contact ${cell(contact.id, 40)} · ${cell(contact.stage, 16)} · ${consent}`,
  ];
  if (output.opted_out)
    lines.push(
      `  OPTED OUT: "${cell(output.opted_out.body, 40)}" (${localTimeOf(output.opted_out.occurred_at)}), no START or YES since`,
    );
  if (output.waiting) lines.push(`  waiting for a reply for ${age(output.waiting.seconds * 1000)}`);
  lines.push('');
  if (output.messages.length === 0) lines.push('  no texts');
  for (const message of output.messages) {
    const who =
      String(message.direction) === 'inbound'
        ? '◀ customer'
        : String(message.direction) === 'outbound'
          ? '▶ shop'
          : cell(message.direction, 16);
    lines.push(`${who} · ${localTimeOf(message.occurred_at)} · ${cell(message.id, 40)}`);
    const body = sanitize(message.body.slice(0, MAX_BODY_CHARS));
    for (const line of body.split('\n')) lines.push(`  ${line}`);
  }
  return `${lines.join('\n')}\n`;
}
