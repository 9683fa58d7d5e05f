/**
 * The findings before `shop-inbox send`: the composer's checks
 * (src/user-actions/pre-send-checks.ts) on facts read from the shop, two that
 * a script needs besides (a text newer than the one it says it saw, the same
 * words already sent), and which flag lets each one go.
 */
import type { LeadDetail, Message } from '../contract/resources.js';
import { type Finding, type PreSendFacts, preSendChecks } from '../rules/pre-send-checks.js';
import { type ContactFacts, consentOf, knownText, textsOf } from './send-facts.js';

/** Outbound texts of the same words within this long before now are "sent before". */
export const SENT_BEFORE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface SendFlags {
  yes: boolean;
  consentOk: boolean;
  override: boolean;
}

/** The flag that sends despite a finding; null when nothing does (a template variable left). */
export function flagFor(finding: Finding): '--yes' | '--consent-ok' | '--override' | null {
  if (finding.check === 'opt-out') return '--override';
  if (finding.check === 'consent') return '--consent-ok';
  if (finding.level === 'block') return null;
  return '--yes';
}

export function allowedBy(finding: Finding, flags: SendFlags): boolean {
  switch (flagFor(finding)) {
    case '--override':
      return flags.override;
    case '--consent-ok':
      return flags.consentOk;
    case '--yes':
      return flags.yes;
    default:
      return false;
  }
}

/** What a word typed at the question allows, as in the composer: override > send > y. */
export function flagsOfAnswer(word: 'override' | 'send' | 'y', given: SendFlags): SendFlags {
  return {
    yes: true,
    consentOk: given.consentOk || word !== 'y',
    override: given.override || word === 'override',
  };
}

/** The word to ask for when some findings are not allowed yet, as the composer asks. */
export function wordToAsk(findings: readonly Finding[], flags: SendFlags): 'override' | 'send' | 'y' {
  const open = findings.filter((finding) => !allowedBy(finding, flags));
  if (open.some((finding) => finding.check === 'opt-out')) return 'override';
  if (open.some((finding) => finding.check === 'consent')) return 'send';
  return 'y';
}

const sameWords = (sent: string, body: string) =>
  sent === body || (sent.endsWith('…') && sent.length > 1 && body.startsWith(sent.slice(0, -1)));

/** The same words sent to this contact in the last 24 h: a second text would text them twice. */
export function sentBefore(texts: readonly Message[], body: string, now: number): Finding[] {
  const trimmed = body.trim();
  return texts
    .filter((message) => String(message.direction) === 'outbound' && sameWords(message.body.trim(), trimmed))
    .filter((message) => {
      const at = Date.parse(message.occurred_at);
      return !Number.isNaN(at) && now - at < SENT_BEFORE_WINDOW_MS;
    })
    .map((message) => ({
      check: 'sent-before',
      level: 'warn' as const,
      tag: 'sent before',
      message: `The same text was sent to them at ${message.occurred_at.slice(0, 16).replace('T', ' ')} UTC (${message.id.slice(0, 60)}): sending it again texts them twice.`,
    }));
}

/**
 * The texts of the threads newer than `messageId`: later, or at the same time and listed after it in its
 * thread (or in another). Undefined when no thread read holds that text.
 */
export function textsAfter(threads: readonly LeadDetail[], messageId: string): Message[] | undefined {
  const thread = threads.find((detail) => detail.messages.some((message) => message.id === messageId));
  if (!thread) return undefined;
  const index = thread.messages.findIndex((message) => message.id === messageId);
  const seen = thread.messages[index] as Message;
  const seenAt = Date.parse(seen.occurred_at);
  return textsOf(threads).filter((message) => {
    if (message.id === seen.id) return false;
    const at = Date.parse(message.occurred_at);
    if (Number.isNaN(at) || Number.isNaN(seenAt)) return true;
    if (at !== seenAt) return at > seenAt;
    const position = thread.messages.findIndex((other) => other.id === message.id);
    return position === -1 || position > index;
  });
}

export interface SendFindingsInput {
  body: string;
  facts: ContactFacts;
  now: number;
  /** Texts newer than the one the caller says it saw (--after), or what arrived while a question was open. */
  arrived: readonly Message[];
  /** A new Idempotency-Key: the same words sent before would be a second text (with a key seen before, a replay). */
  newKey: boolean;
}

export function preSendFactsOf(input: SendFindingsInput): PreSendFacts {
  const { facts } = input;
  return {
    body: input.body,
    consent: consentOf(facts.threads),
    thread: textsOf(facts.threads).map(knownText),
    texting: { number: facts.texting.texting_number, status: String(facts.texting.texting_status) },
    now: input.now,
    customerZones: facts.customerZones,
    arrivedSince: input.arrived.map(knownText),
  };
}

export function sendFindings(input: SendFindingsInput): Finding[] {
  const findings = preSendChecks(preSendFactsOf(input));
  return input.newKey
    ? [...findings, ...sentBefore(textsOf(input.facts.threads), input.body, input.now)]
    : findings;
}
