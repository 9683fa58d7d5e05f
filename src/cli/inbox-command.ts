/**
 * `shop-inbox inbox`: the open leads (or the missed calls with no reply) and
 * the newest inbound texts, with who wrote each text and who waits for a
 * reply, as far as the threads read (the newest --threads leads) tell.
 */
import type { InboxOutput } from '../contract/cli-output.js';
import { InboxOutput as InboxSchema } from '../contract/cli-output.js';
import type { InboxFilter, LeadDetail } from '../contract/resources.js';
import { waitingInThread, waitingSinceCall } from '../store/waiting.js';
import { recipientLabel } from '../text/recipient.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { age, ageOf, cell, table } from './human-output.js';
import { writeJson } from './json-output.js';
import { choiceOption, parseVerbArgs, wholeNumberOption } from './parse-verb.js';
import { runShopVerb, type VerbIo } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';
import { threadOfPreview } from './waiting.js';

export const MAX_THREADS = 25;

export async function runInboxCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, help } = parseVerbArgs(VERBS.inbox, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.inbox));
    return EXIT.ok;
  }
  const filter = choiceOption('filter', values.filter, ['open', 'callbacks'] as const, 'open');
  const limit = wholeNumberOption('limit', values.limit, 100, [1, 100]);
  const threads = wholeNumberOption('threads', values.threads, 10, [0, MAX_THREADS]);
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: true, ...(io ? { io } : {}) }, async (context) => {
    const inbox = await context.client.getInbox({ filter: filter satisfies InboxFilter, limit });
    const toRead = [...inbox.open_leads]
      .sort((a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0))
      .slice(0, threads);
    const details = await Promise.all(toRead.map((lead) => context.client.getLead(lead.id, { limit: 100 })));
    const read = new Map<string, LeadDetail>(
      toRead.map((lead, index) => [lead.id, details[index] as LeadDetail]),
    );
    const now = context.now();
    const output: InboxOutput = {
      filter: String(inbox.filter),
      complete: inbox.open_leads.length < limit && inbox.latest_inbound.length < limit,
      leads: inbox.open_leads.map((lead) => {
        const detail = read.get(lead.id);
        // A missed call on the callbacks list has had no text back: the customer waits since the call.
        const waiting =
          filter === 'callbacks'
            ? (waitingSinceCall(lead, now) ?? null)
            : detail
              ? waitingInThread(detail, now)
              : null;
        return { ...lead, thread_read: detail !== undefined, waiting };
      }),
      latest_inbound: inbox.latest_inbound.map((preview) => {
        const detail = threadOfPreview(preview, read);
        return {
          ...preview,
          sender: detail
            ? {
                lead_id: detail.lead.id,
                contact_id: detail.contact.id,
                name: detail.contact.name,
                phone: detail.contact.phone,
              }
            : null,
        };
      }),
      threads_read: read.size,
    };
    if (context.json) writeJson(InboxSchema, output, context.stdout);
    else context.stdout.write(formatInbox(output, filter, now));
    return EXIT.ok;
  });
}

export function formatInbox(output: InboxOutput, filter: 'open' | 'callbacks', now: number): string {
  const title = filter === 'callbacks' ? 'Missed calls with no reply' : 'Open leads';
  const more = output.complete ? '' : ' (the first of more; the rest on the dashboard)';
  const leads = table(
    ['LEAD', 'STATUS', 'URGENCY', 'NAME', 'PHONE', 'JOB', 'AGE', 'WAITING'],
    output.leads.map((lead) => [
      cell(lead.id, 24),
      cell(lead.status, 12),
      cell(String(lead.urgency) === 'same_day' ? 'SAME DAY' : lead.urgency, 12),
      cell(lead.contact_name, 24),
      cell(lead.caller_phone, 18),
      cell(lead.job_type, 24),
      ageOf(lead.created_at, now),
      lead.waiting
        ? age(lead.waiting.seconds * 1000)
        : lead.thread_read || filter === 'callbacks'
          ? '-'
          : '?',
    ]),
  );
  const texts = table(
    ['AGE', 'FROM', 'TEXT'],
    output.latest_inbound.map((preview) => [
      ageOf(preview.occurred_at, now),
      preview.sender ? cell(recipientLabel(preview.sender), 44) : 'lead not read',
      cell(preview.body_preview, 80),
    ]),
  );
  return [
    `${title} (${output.leads.length})${more}\n`,
    output.leads.length > 0 ? leads : '  none\n',
    '\n',
    `Latest inbound texts (${output.latest_inbound.length})\n`,
    output.latest_inbound.length > 0 ? texts : '  none\n',
  ].join('');
}
