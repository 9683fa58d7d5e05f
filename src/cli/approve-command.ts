/**
 * `shop-inbox approve ACTION`: approves one action awaiting approval. It says
 * what it approves (kind, id, when it was made, and whatever else the shop
 * gives about it), asks on a terminal, and needs --yes otherwise (as gh asks
 * for its confirmation flags when no one can answer). The shop's decide takes
 * no Idempotency-Key, but approving is idempotent there: an action already
 * published answers published again, so a command run twice approves once.
 * When the answer is lost, the lists say whether it was published.
 */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { KeyModeFile } from '../config/key-mode-file.js';
import { type ApproveOutput, ApproveOutput as ApproveSchema } from '../contract/cli-output.js';
import type { Action } from '../contract/resources.js';
import { sanitize } from '../text/sanitize.js';
import { outcomeUnknown } from '../user-actions/outcome.js';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
import { cell, localTimeOf } from './human-output.js';
import { writeJson } from './json-output.js';
import { parseVerbArgs } from './parse-verb.js';
import { ask, canAsk } from './terminal-question.js';
import { CommandFailure, runShopVerb, type ShopVerbContext, type VerbIo } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';
import { refuseReadOnlyKey } from './write-gate.js';

const KNOWN_FIELDS = new Set(['id', 'kind', 'status', 'generated_at']);

/** The action as the shop lists it now: among those awaiting approval, else among all (newest 100). */
async function findAction(context: ShopVerbContext, actionId: string): Promise<Action | undefined> {
  const pending = await context.client.getActions({ status: 'pending_approval', limit: 100 });
  const found = pending.items.find((action) => action.id === actionId);
  if (found) return found;
  const all = await context.client.getActions({ limit: 100 });
  return all.items.find((action) => action.id === actionId);
}

/** What is approved, in lines for a person: every field the shop gives, the unknown ones too. */
export function describeAction(action: Action): string {
  const extra = Object.entries(action).filter(([key]) => !KNOWN_FIELDS.has(key));
  const lines = [
    `Action ${cell(action.id, 60)} · ${cell(action.kind, 40)} · ${cell(action.status, 30)} · made ${localTimeOf(action.generated_at)}`,
    ...extra.map(
      ([key, value]) =>
        `  ${cell(key, 30)}: ${sanitize(String(typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 2_000), { singleLine: true })}`,
    ),
  ];
  if (extra.length === 0)
    lines.push(
      "  The shop's API gives no more about it (which review, what reply): its dashboard shows the whole action.",
    );
  return `${lines.join('\n')}\n`;
}

export async function runApproveCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io?: VerbIo,
): Promise<ExitCode> {
  const { values, positionals, help } = parseVerbArgs(VERBS.approve, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.approve));
    return EXIT.ok;
  }
  const actionId = positionals[0] as string;
  const json = values.json === true;
  return runShopVerb({ env, values, json, readsOnly: false, ...(io ? { io } : {}) }, async (context) => {
    await refuseReadOnlyKey(context, 'nothing was approved');
    const action = await findAction(context, actionId);
    if (!action)
      throw new CommandFailure(
        `no action ${sanitize(actionId.slice(0, 80), { singleLine: true })} among the shop's 100 newest: it was removed, belongs to another shop, or is older`,
        'not_found',
        EXIT.error,
      );
    const finish = (output: ApproveOutput, code: ExitCode, words: string): ExitCode => {
      if (context.json) writeJson(ApproveSchema, output, context.stdout);
      if (code === EXIT.ok && !context.json) context.stdout.write(`${words}\n`);
      else if (code !== EXIT.ok) context.stderr.write(`shop-inbox: ${words}\n`);
      return code;
    };
    const status = String(action.status);
    if (status === 'published')
      return finish(
        { outcome: 'already_published', action, status, error: null },
        EXIT.ok,
        `Already published: action ${cell(action.id, 60)} was approved before; nothing changed.`,
      );
    if (status !== 'pending_approval')
      return finish(
        {
          outcome: 'not_approved',
          action,
          status,
          error: { code: 'not_pending', message: `the action is ${status}, not awaiting approval` },
        },
        EXIT.error,
        `not approved: action ${cell(action.id, 60)} is ${cell(status, 30)}, not awaiting approval.`,
      );

    if (!context.json) context.stderr.write(describeAction(action));
    if (!values.yes) {
      const answer = canAsk(context.json)
        ? await ask(`Approve ${cell(action.kind, 40)} ${cell(action.id, 60)}? [y/N] `)
        : undefined;
      if (!/^y(es)?$/i.test(answer ?? ''))
        return finish(
          { outcome: 'refused', action, status, error: null },
          EXIT.refused,
          canAsk(context.json)
            ? 'not approved: the answer was not yes.'
            : 'not approved: approving needs --yes when no one is at a terminal to answer.',
        );
    }
    try {
      const result = await context.client.decideAction(action.id, 'approved');
      await KeyModeFile.forKey(context.env, context.settings.baseUrl, context.settings.apiKey)
        .remember({ mode: 'write', how: 'accepted', at: Date.now() })
        .catch(() => {});
      return finish(
        { outcome: 'approved', action, status: String(result.status), error: null },
        EXIT.ok,
        `Approved: action ${cell(action.id, 60)} is now ${cell(String(result.status).replaceAll('_', ' '), 30)}.`,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const failure = { code: error.code, message: explainApiError(error) };
      if (outcomeUnknown(error)) {
        // The shop may have published it before the answer was lost: it is asked.
        const now = await findAction(context, action.id).catch(() => undefined);
        if (now && String(now.status) === 'published')
          return finish(
            { outcome: 'approved', action: now, status: 'published', error: null },
            EXIT.ok,
            `Approved: the answer was lost, but the shop now lists action ${cell(action.id, 60)} as published.`,
          );
        return finish(
          {
            outcome: now ? 'not_approved' : 'unknown',
            action: now ?? action,
            status: String(now?.status ?? status),
            error: failure,
          },
          exitCodeOf(error),
          now
            ? `not approved: ${failure.message} The shop lists it as ${cell(now.status, 30)}.`
            : `not known whether it was approved: ${failure.message} Run \`shop-inbox actions\` before approving again.`,
        );
      }
      if (error.code === 'read_only' && error.fromService)
        await KeyModeFile.forKey(context.env, context.settings.baseUrl, context.settings.apiKey)
          .remember({ mode: 'read', how: 'refused', at: Date.now() })
          .catch(() => {});
      return finish(
        { outcome: 'not_approved', action, status, error: failure },
        exitCodeOf(error),
        `not approved: ${failure.message}`,
      );
    }
  });
}
