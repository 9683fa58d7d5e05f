/**
 * `shop-inbox contacts [QUERY]`, `reviews` and `actions`: one list read each,
 * printed as a table, or passed on whole with --json.
 */
import { ActionsOutput, ContactsOutput, ReviewsOutput } from '../contract/cli-output.js';
import { type ActionStatusValue, ActionStatusValues } from '../contract/resources.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { ageOf, cell, table } from './human-output.js';
import { writeJson } from './json-output.js';
import { choiceOption, parseVerbArgs, wholeNumberOption } from './parse-verb.js';
import { UsageError } from './usage-error.js';
import { runShopVerb, type VerbIo } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';

/** The shop's search takes at most this many characters (the simulator's rule; longer is refused). */
const MAX_QUERY_CHARS = 100;

export async function runContactsCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, positionals, help } = parseVerbArgs(VERBS.contacts, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.contacts));
    return EXIT.ok;
  }
  const limit = wholeNumberOption('limit', values.limit, 100, [1, 100]);
  const query = positionals[0]?.trim() || undefined;
  if (query && query.length > MAX_QUERY_CHARS)
    throw new UsageError(`QUERY must be at most ${MAX_QUERY_CHARS} characters`);
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: true, ...(io ? { io } : {}) }, async (context) => {
    const list = await context.client.getContacts({ ...(query ? { q: query } : {}), limit });
    const output = { query: query ?? null, complete: list.items.length < limit, items: list.items };
    if (context.json) writeJson(ContactsOutput, output, context.stdout);
    else {
      const now = context.now();
      context.stdout.write(
        `${query ? 'Contacts matching the search' : 'Contacts'} (${list.items.length})${output.complete ? '' : ' (the first of more)'}\n` +
          (list.items.length === 0
            ? '  none\n'
            : table(
                ['CONTACT', 'NAME', 'PHONE', 'EMAIL', 'STAGE', 'LAST CONTACT'],
                list.items.map((contact) => [
                  cell(contact.id, 24),
                  cell(contact.name, 28),
                  cell(contact.phone, 18),
                  cell(contact.email ?? '-', 28),
                  cell(contact.stage, 12),
                  contact.last_contact_at ? ageOf(contact.last_contact_at, now) : '-',
                ]),
              )),
      );
    }
    return EXIT.ok;
  });
}

export async function runReviewsCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, help } = parseVerbArgs(VERBS.reviews, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.reviews));
    return EXIT.ok;
  }
  const limit = wholeNumberOption('limit', values.limit, 100, [1, 100]);
  const unrepliedOnly = values.unreplied === true;
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: true, ...(io ? { io } : {}) }, async (context) => {
    const list = await context.client.getReviews({ limit });
    const items = unrepliedOnly ? list.items.filter((review) => review.replied_at === null) : list.items;
    const output = {
      unreplied_only: unrepliedOnly,
      complete: list.items.length < limit,
      unreplied_in_page: list.unreplied_in_page,
      items,
    };
    if (context.json) writeJson(ReviewsOutput, output, context.stdout);
    else {
      const now = context.now();
      context.stdout.write(
        `${unrepliedOnly ? 'Reviews with no reply' : 'Reviews'} (${items.length}; ${list.unreplied_in_page} unreplied)${output.complete ? '' : ' (the first of more)'}\n` +
          (items.length === 0
            ? '  none\n'
            : table(
                ['REVIEW', 'RATING', 'REVIEWER', 'AGE', 'REPLY', 'TEXT'],
                items.map((review) => [
                  cell(review.id, 24),
                  `${'★'.repeat(Math.max(0, Math.min(5, review.rating)))}${'☆'.repeat(Math.max(0, 5 - Math.max(0, Math.min(5, review.rating))))}`,
                  cell(review.reviewer_name, 24),
                  ageOf(review.created_at_google, now),
                  review.replied_at === null ? 'none' : `${ageOf(review.replied_at, now)} ago`,
                  cell(review.review_text, 60),
                ]),
              )),
      );
    }
    return EXIT.ok;
  });
}

export async function runActionsCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, help } = parseVerbArgs(VERBS.actions, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.actions));
    return EXIT.ok;
  }
  const limit = wholeNumberOption('limit', values.limit, 100, [1, 100]);
  const status =
    values.status === undefined
      ? undefined
      : choiceOption<ActionStatusValue>('status', values.status, ActionStatusValues, 'pending_approval');
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: true, ...(io ? { io } : {}) }, async (context) => {
    const list = await context.client.getActions({ ...(status ? { status } : {}), limit });
    const output = { status: status ?? null, complete: list.items.length < limit, items: list.items };
    if (context.json) writeJson(ActionsOutput, output, context.stdout);
    else {
      const now = context.now();
      const known = new Set(['id', 'kind', 'status', 'generated_at']);
      context.stdout.write(
        `${status ? `Actions ${status.replaceAll('_', ' ')}` : 'Actions'} (${list.items.length})${output.complete ? '' : ' (the first of more)'}\n` +
          (list.items.length === 0
            ? '  none\n'
            : table(
                ['ACTION', 'KIND', 'STATUS', 'AGE', 'DETAIL'],
                list.items.map((action) => [
                  cell(action.id, 24),
                  cell(action.kind, 20),
                  cell(action.status, 18),
                  ageOf(action.generated_at, now),
                  cell(
                    Object.entries(action)
                      .filter(([key]) => !known.has(key))
                      .map(
                        ([key, value]) =>
                          `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                      )
                      .join(' · ') || '-',
                    60,
                  ),
                ]),
              )),
      );
    }
    return EXIT.ok;
  });
}
