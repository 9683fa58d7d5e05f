/**
 * `shop-inbox send CONTACT`: texts one contact from a script or a shell, with
 * the composer's checks and its guarantee.
 *
 * - Before anything: a key known to be read-only is refused (write-gate.ts).
 * - The checks (send-findings.ts): on a terminal they are shown and a question
 *   is asked (y, or the word the composer asks for); otherwise each finding
 *   needs its flag, or nothing is sent (exit 3).
 * - Exactly once: the text is written to this key's outbox with its
 *   Idempotency-Key before it is sent, as the inbox does. A send that fails
 *   without knowing whether the text went out (or is killed at any moment)
 *   leaves it there: the same command run again takes that entry over and
 *   sends it with the same key (the same --idempotency-key, or without one the
 *   same contact and words), and so does any inbox of the key within a minute.
 *   The shop sends nothing new for a key it has seen in 24 h.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import { KeyModeFile } from '../config/key-mode-file.js';
import { type SendOutput, SendOutput as SendSchema } from '../contract/cli-output.js';
import type { Contact, Message } from '../contract/resources.js';
import { explainOutboxError } from '../outbox/outbox-error.js';
import { OutboxFile } from '../outbox/outbox-file.js';
import {
  confirmationFor,
  type Finding,
  type PreSendSummary,
  preSendSummary,
} from '../rules/pre-send-checks.js';
import type { OutgoingText } from '../store/app-store.js';
import { recipientLabel } from '../text/recipient.js';
import { sanitize } from '../text/sanitize.js';
import { type Reread, rereadFailed, rereadVerdict } from '../user-actions/send-decision.js';
import { AUTO_RETRY_WINDOW_MS } from '../user-actions/send-text.js';
import { findContact } from './contact-lookup.js';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
import { writeJson } from './json-output.js';
import { parseVerbArgs } from './parse-verb.js';
import { type ContactFacts, gatherContactFacts, rereadThreads, textsOf } from './send-facts.js';
import {
  allowedBy,
  flagFor,
  flagsOfAnswer,
  preSendFactsOf,
  type SendFlags,
  sendFindings,
  textsAfter,
  wordToAsk,
} from './send-findings.js';
import { ask, canAsk } from './terminal-question.js';
import { UsageError } from './usage-error.js';
import { CommandFailure, runShopVerb, type ShopVerbContext, type VerbIo } from './verb-runner.js';
import { VERBS, verbHelp } from './verb-table.js';
import { refuseReadOnlyKey } from './write-gate.js';

/** Far more than any text (the common carrier ceiling is 1600 characters): more on stdin is a mistake. */
const MAX_BODY_BYTES = 64 * 1024;
/** The service's rule for an Idempotency-Key (as the simulator keeps it): 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** Failures after which the text may have gone out, or may on a retry with its key: it waits in the outbox. */
const NOT_KNOWN = new Set(['network', 'timeout', 'server', 'rate_limited', 'bad_response']);
/** Questions asked again when texts keep arriving while one is open. */
const MAX_QUESTIONS = 5;

async function readStdin(): Promise<string> {
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    bytes += buffer.length;
    if (bytes > MAX_BODY_BYTES)
      throw new UsageError('standard input holds far more than a text (over 64 KiB)');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The text to send: --body, else standard input (one final line break dropped), checked as the composer would. */
export async function readBody(
  given: string | undefined,
  read: () => Promise<string> = readStdin,
): Promise<string> {
  let text: string;
  if (given !== undefined) text = given;
  else if (process.stdin.isTTY)
    throw new UsageError(
      'give the text with --body TEXT, or on standard input (… | shop-inbox send CONTACT)',
    );
  else text = (await read()).replace(/\r?\n$/, '');
  text = text.replace(/\r\n/g, '\n');
  const control = /(?!\n)\p{Cc}/u.exec(text);
  if (control)
    throw new UsageError(
      `the text holds a control character (U+${(control[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} at character ${control.index + 1}): only printable text and line breaks are sent`,
    );
  if (text.trim() === '') throw new UsageError('the text is empty');
  return text;
}

/** The composer's words for a finding, less its "Type … to send anyway" (a script gives a flag). */
const findingWords = (finding: Finding) => finding.message.replace(/ Type \w+ to send anyway\.$/, '');

function findingsOutput(findings: readonly Finding[], flags: SendFlags): SendOutput['findings'] {
  return findings.map((finding) => ({
    check: finding.check,
    level: finding.level,
    tag: finding.tag,
    message: findingWords(finding),
    flag: flagFor(finding),
    allowed: allowedBy(finding, flags),
  }));
}

function summaryOutput(summary: PreSendSummary): Pick<SendOutput, 'consent' | 'customer_time'> {
  const { consent, customerTime } = summary;
  return {
    consent: { status: consent.label, recorded_at: 'recordedAt' in consent ? consent.recordedAt : null },
    customer_time: {
      text: customerTime.text,
      quiet: customerTime.quiet,
      zones: customerTime.times.map((time) => ({ zone: time.zone, time: time.label, quiet: time.quiet })),
    },
  };
}

/** What is shown before the question, on stderr: the text, its recipient, the consent and time, each finding. */
function describeText(contact: Contact, body: string, summary: PreSendSummary, findings: readonly Finding[]) {
  const consent =
    'recordedAt' in summary.consent
      ? `${summary.consent.label} ${summary.consent.recordedAt.slice(0, 10)}`
      : summary.consent.label;
  const lines = [
    `To ${recipientLabel(contact)} · contact ${sanitize(contact.id.slice(0, 60), { singleLine: true })}`,
    ...sanitize(body)
      .split('\n')
      .map((line) => `  │ ${line}`),
    `  ${consent} · ${sanitize(summary.customerTime.text, { singleLine: true })}`,
    ...findings.map((finding) => `  ⚠ ${sanitize(findingWords(finding), { singleLine: true })}`),
  ];
  return `${lines.join('\n')}\n`;
}

interface Decision {
  send: boolean;
  findings: Finding[];
  flags: SendFlags;
  facts: ContactFacts;
}

/** On a terminal: shows what was found and asks, as the composer does; reads the threads again after the answer. */
async function askAtTerminal(
  context: ShopVerbContext,
  contact: Contact,
  body: string,
  start: Decision,
  findingsFor: (facts: ContactFacts, arrived: readonly Message[]) => Finding[],
): Promise<Decision> {
  let { facts, findings, flags } = start;
  for (let round = 0; round < MAX_QUESTIONS; round += 1) {
    const summary = preSendSummary(
      preSendFactsOf({ body, facts, now: context.now(), arrived: [], newKey: false }),
    );
    context.stderr.write(describeText(contact, body, summary, findings));
    if (confirmationFor(findings).kind === 'refused') return { send: false, findings, flags, facts };
    if (flags.yes && findings.every((finding) => allowedBy(finding, flags)))
      return { send: true, findings, flags, facts };
    const word = wordToAsk(findings, flags);
    const question =
      word === 'y'
        ? `Send to ${recipientLabel(contact)}? [y/N] `
        : `Type ${word} (then enter) to send to ${recipientLabel(contact)} anyway, anything else not to: `;
    const answer = await ask(question);
    const yes = word === 'y' ? /^y(es)?$/i.test(answer ?? '') : answer === word;
    if (!yes) return { send: false, findings, flags, facts };
    flags = flagsOfAnswer(word, flags);
    // Read again after the answer, and decided as the composer decides (user-actions/send-decision.ts).
    const seen = new Set(textsOf(facts.threads).map((message) => message.id));
    let reread: Reread = { ok: true };
    try {
      const threads = await rereadThreads(
        context.client,
        contact,
        facts.threads.map((thread) => thread.lead.id),
      );
      facts = { ...facts, threads };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reread = rereadFailed(error);
    }
    const arrived = textsOf(facts.threads).filter((message) => !seen.has(message.id));
    const verdict = rereadVerdict(arrived, reread);
    if (verdict.kind === 'send') return { send: true, findings, flags, facts };
    if (verdict.kind === 'reread-failed') {
      // Not sent without that check unless staff say so, knowing it was not made.
      context.stderr.write(
        `Could not read the thread again to check for new texts: ${verdict.why} Nothing was sent.\n`,
      );
      const again = await ask(`Send to ${recipientLabel(contact)} without that check? [y/N] `);
      return { send: /^y(es)?$/i.test(again ?? ''), findings, flags, facts };
    }
    context.stderr.write(
      `${verdict.texts.length === 1 ? 'A text' : `${verdict.texts.length} texts`} arrived meanwhile:\n`,
    );
    findings = findingsFor(facts, verdict.texts);
    flags = { ...flags, yes: false };
  }
  return { send: false, findings, flags, facts };
}

export async function runSendCommand(args: string[], env: NodeJS.ProcessEnv, io?: VerbIo): Promise<ExitCode> {
  const { values, positionals, help } = parseVerbArgs(VERBS.send, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.send));
    return EXIT.ok;
  }
  const givenKey = values['idempotency-key'];
  if (givenKey !== undefined && !IDEMPOTENCY_KEY.test(givenKey))
    throw new UsageError('--idempotency-key must be 1 to 255 visible ASCII characters (no spaces)');
  const body = await readBody(values.body);
  const json = values.json === true;
  const given: SendFlags = {
    yes: values.yes === true,
    consentOk: values['consent-ok'] === true,
    override: values.override === true,
  };
  return runShopVerb({ env, values, json, readsOnly: false, ...(io ? { io } : {}) }, async (context) => {
    await refuseReadOnlyKey(context, 'nothing was sent');
    const contact = await findContact(context.client, positionals[0] as string);
    const facts = await gatherContactFacts(context.client, contact, context.settings);
    let after: Message[] = [];
    if (values.after !== undefined) {
      const newer = textsAfter(facts.threads, values.after);
      if (!newer)
        throw new CommandFailure(
          `no thread of ${recipientLabel(contact)} read here holds the text ${sanitize(values.after.slice(0, 80), { singleLine: true })} (their newest ${facts.threads.length} listed leads were read): nothing was sent`,
          'not_found',
          EXIT.usage,
        );
      after = newer;
    }

    // The same text confirmed before and not known sent (a send killed or failed): resumed with its key.
    const outbox = OutboxFile.forKey(context.env, context.settings.baseUrl, context.settings.apiKey);
    let picked = false;
    const [resumed] = await outbox
      .take((text) => {
        if (picked) return false;
        const same =
          givenKey !== undefined
            ? text.idempotencyKey === givenKey
            : text.contactId === contact.id &&
              text.body === body &&
              Date.now() - text.confirmedAt < AUTO_RETRY_WINDOW_MS;
        picked = same;
        return same;
      })
      .catch((error: unknown) => {
        throw new CommandFailure(
          `not sent: the outbox could not be read (${explainOutboxError(error, outbox.path)})`,
          'outbox',
          EXIT.error,
        );
      });
    if (resumed && (resumed.contactId !== contact.id || resumed.body !== body)) {
      await outbox.release().catch(() => {});
      throw new CommandFailure(
        `the Idempotency-Key ${sanitize(givenKey ?? '', { singleLine: true })} belongs to another text still waiting in the outbox (to ${recipientLabel({ name: resumed.contactName, phone: resumed.phone })}): one key, one text. Nothing was sent.`,
        'idempotency_key_reused',
        EXIT.usage,
      );
    }
    const idempotencyKey = resumed?.idempotencyKey ?? givenKey ?? randomUUID();
    const newKey = resumed === undefined && givenKey === undefined;
    const findingsFor = (current: ContactFacts, arrived: readonly Message[]) =>
      sendFindings({ body, facts: current, now: context.now(), arrived, newKey });

    let decision: Decision = { send: true, findings: findingsFor(facts, after), flags: given, facts };
    if (canAsk(context.json)) decision = await askAtTerminal(context, contact, body, decision, findingsFor);
    else decision.send = decision.findings.every((finding) => allowedBy(finding, given));

    const result = (outcome: SendOutput['outcome'], error: SendOutput['error'] = null): SendOutput => ({
      outcome,
      contact: { id: contact.id, name: contact.name, phone: contact.phone },
      body,
      idempotency_key: outcome === 'refused' ? null : idempotencyKey,
      resumed: resumed !== undefined,
      ...summaryOutput(
        preSendSummary(
          preSendFactsOf({ body, facts: decision.facts, now: context.now(), arrived: [], newKey }),
        ),
      ),
      findings: findingsOutput(decision.findings, decision.flags),
      error,
    });
    const finish = (output: SendOutput, code: ExitCode, words: string): ExitCode => {
      if (context.json) writeJson(SendSchema, output, context.stdout);
      if (code === EXIT.ok && !context.json) context.stdout.write(`${words}\n`);
      else if (code !== EXIT.ok) context.stderr.write(`shop-inbox: ${words}\n`);
      return code;
    };

    if (!decision.send) {
      if (resumed) await outbox.release().catch(() => {});
      const open = decision.findings.filter((finding) => !allowedBy(finding, decision.flags));
      const reasons = open
        .map((finding) => {
          const flag = flagFor(finding);
          return `\n  - ${sanitize(findingWords(finding), { singleLine: true })} ${flag ? `(${flag} sends anyway)` : '(nothing sends it as it is)'}`;
        })
        .join('');
      return finish(
        result('refused'),
        EXIT.refused,
        `not sent to ${recipientLabel(contact)}: ${open.length > 0 ? `the checks before sending found:${reasons}` : 'the question was not answered yes.'}`,
      );
    }
    if (!canAsk(context.json))
      for (const finding of decision.findings)
        context.stderr.write(
          `shop-inbox: note: ${sanitize(findingWords(finding), { singleLine: true })} (sent anyway: ${flagFor(finding)})\n`,
        );

    const text: OutgoingText = resumed ?? {
      localId: randomUUID(),
      contactId: contact.id,
      contactName: contact.name,
      phone: contact.phone,
      ...(decision.facts.threads[0] ? { leadId: decision.facts.threads[0].lead.id } : {}),
      body,
      idempotencyKey,
      confirmedAt: Date.now(),
      state: 'sending',
      attempts: 0,
    };
    try {
      // On disk before the first attempt: whatever happens next, a retry uses this key and body.
      await outbox.save([{ ...text, attempts: text.attempts + 1 }]);
    } catch (error) {
      const why = explainOutboxError(error, outbox.path);
      return finish(
        result('not_sent', { code: 'outbox', message: why }),
        EXIT.error,
        `not sent to ${recipientLabel(contact)}: a text is sent only once it is saved in the outbox, and ${why}`,
      );
    }
    const memory = KeyModeFile.forKey(context.env, context.settings.baseUrl, context.settings.apiKey);
    try {
      const sent = await context.client.sendText(contact.id, body, { idempotencyKey });
      await memory.remember({ mode: 'write', how: 'accepted', at: Date.now() }).catch(() => {});
      const kept = await outbox.save([]).then(
        () => '',
        (error: unknown) =>
          ` (The outbox could not be updated: ${explainOutboxError(error, outbox.path)}. An inbox of this key may try it again with its key: the shop sends nothing new.)`,
      );
      return finish(
        result(sent.replayed ? 'replayed' : 'sent'),
        EXIT.ok,
        sent.replayed
          ? `Already sent to ${recipientLabel(contact)}: the shop knew this Idempotency-Key and sent nothing new.${kept}`
          : `Sent to ${recipientLabel(contact)}.${kept}`,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const why = explainApiError(error);
      const failure = { code: error.code, message: why };
      if (NOT_KNOWN.has(error.code) && !error.local) {
        // Not known sent: it stays in the outbox for whoever comes next with this key (this command again, an inbox).
        await outbox.release().catch(() => {});
        return finish(
          result('waiting', failure),
          exitCodeOf(error),
          `not known sent to ${recipientLabel(contact)}: ${why} It waits in the outbox with its Idempotency-Key ${idempotencyKey}: the same command again sends it (so does any inbox of this key, within a minute), never twice.`,
        );
      }
      // Refused by the shop: nothing was sent, and nothing is kept to send later.
      await outbox.save([]).catch(() => {});
      if (error.code === 'read_only' && error.fromService)
        await memory.remember({ mode: 'read', how: 'refused', at: Date.now() }).catch(() => {});
      return finish(
        result('not_sent', failure),
        exitCodeOf(error),
        `not sent to ${recipientLabel(contact)}: ${why}`,
      );
    }
  });
}
