/**
 * What a careful person checks before texting a customer, as a pure function
 * of what the inbox knows: each check that has something to say gives a
 * finding, and the findings decide the confirmation.
 *
 * - `block`: not sent as it is. With an `override` word, staff may still send
 *   it by typing that word; without one, it cannot be sent at all.
 * - `strong`: sent only after staff type `send` (not a single `y`).
 * - `warn`: said in the confirmation; `y` sends.
 *
 * New checks (another terminal replying to the same customer, say) add a
 * function to CHECKS; the composer, the confirmation and the tests read the
 * findings, never the checks.
 */
import type { CustomerZones } from './customer-zones.js';
import { type CustomerTime, customerTime, QUIET_END_HOUR, QUIET_START_HOUR } from './quiet-hours.js';

export type FindingLevel = 'block' | 'strong' | 'warn';

export interface Finding {
  /** Which check found it (stable: tests and the UI may look for it). */
  check: string;
  level: FindingLevel;
  /** In plain words, for staff. */
  message: string;
  /** A few words for a one-line summary beside the others ("opted out", "quiet hours"). */
  tag: string;
  /** For a block that staff may still override: the word they type to send anyway. */
  override?: string;
}

/** A text of the thread, as the API gives it (bodies may be truncated). */
export interface KnownText {
  direction: string;
  body: string;
  occurredAt: string;
}

export interface PreSendFacts {
  /** The exact text that would be sent. */
  body: string;
  /** The latest consent record: null when there is none, undefined when none could be seen. */
  consent: { given: boolean; recordedAt: string } | null | undefined;
  /** Every text of this contact's threads the inbox has read (any order). */
  thread: readonly KnownText[];
  /** GET /texting, when it was read. */
  texting?: { number: string | null | undefined; status: string } | undefined;
  now: number;
  /** The customer's time zone(s) for quiet hours, and where they come from. */
  customerZones: CustomerZones;
  /** Texts that arrived in the thread after the composer opened. */
  arrivedSince?: readonly KnownText[];
}

/** Carrier opt-out keywords (CTIA): a text that is exactly one of these stops texts to that number. */
export const OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
/** Keywords that opt a number back in. */
export const OPT_IN_WORDS = ['START', 'YES'] as const;

/** Override word for an opt-out refusal. */
export const OPT_OUT_OVERRIDE = 'override';

/**
 * Whether a text is a keyword: the whole text, ignoring case, spaces,
 * punctuation and a trailing "…" of a truncated body, is one opt-out or
 * opt-in word ("Stop.", " STOP!! ", "stop" count; "stop by at 3" and "stop all" do not).
 */
export function keywordOf(body: string): 'opt-out' | 'opt-in' | undefined {
  // Only what surrounds the word goes: "STOP all" (two words) is not STOPALL.
  const word = body
    .normalize('NFKC')
    .replace(/^[\s\p{P}\p{S}\p{Cc}\p{Cf}]+|[\s\p{P}\p{S}\p{Cc}\p{Cf}]+$/gu, '')
    .toUpperCase();
  if ((OPT_OUT_WORDS as readonly string[]).includes(word)) return 'opt-out';
  if ((OPT_IN_WORDS as readonly string[]).includes(word)) return 'opt-in';
  return undefined;
}

/** The customer's latest inbound keyword text, newest first: an opt-out unless a later START/YES undid it. */
export function latestKeyword(
  thread: readonly KnownText[],
): { kind: 'opt-out' | 'opt-in'; text: KnownText } | undefined {
  // Newest first; of two texts with the same time, the one listed later is the newer.
  const inbound = thread
    .map((text, index) => ({ text, index }))
    .filter(({ text }) => text.direction === 'inbound')
    .sort((a, b) => Date.parse(b.text.occurredAt) - Date.parse(a.text.occurredAt) || b.index - a.index)
    .map(({ text }) => text);
  for (const text of inbound) {
    const kind = keywordOf(text.body);
    if (kind) return { kind, text };
  }
  return undefined;
}

/** A {variable} still in the text: template variables are lower-case words in braces. */
const VARIABLE = /\{([a-z][a-z0-9_]*)\}/g;

export function unfilledVariables(body: string): string[] {
  return [...new Set([...body.matchAll(VARIABLE)].map((match) => match[1] as string))];
}

const quote = (body: string) => {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
};

const when = (timestamp: string) => {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? timestamp : new Date(at).toISOString().slice(0, 16).replace('T', ' ');
};

type Check = (facts: PreSendFacts) => Finding | Finding[] | undefined;

const unfilled: Check = ({ body }) => {
  const names = unfilledVariables(body);
  if (names.length === 0) return undefined;
  return {
    check: 'unfilled-variable',
    level: 'block',
    tag: `${names.map((name) => `{${name}}`).join(', ')} unfilled`,
    message: `The text still has ${names.map((name) => `{${name}}`).join(', ')}: nothing fills ${names.length === 1 ? 'it' : 'them'} for this customer. Write ${names.length === 1 ? 'it' : 'them'} out or remove ${names.length === 1 ? 'it' : 'them'}.`,
  };
};

const optOut: Check = ({ thread }) => {
  const latest = latestKeyword(thread);
  if (latest?.kind !== 'opt-out') return undefined;
  return {
    check: 'opt-out',
    level: 'block',
    tag: 'opted out',
    override: OPT_OUT_OVERRIDE,
    message: `The customer opted out: their text "${quote(latest.text.body)}" (${when(latest.text.occurredAt)} UTC) is an opt-out word, and no START or YES came after it (texts as the API gives them; bodies may be truncated, so check the thread). Type ${OPT_OUT_OVERRIDE} to send anyway.`,
  };
};

const consent: Check = ({ consent: record }) => {
  if (record === undefined)
    return {
      check: 'consent',
      level: 'strong',
      tag: 'consent unknown',
      message: 'Consent unknown: no consent record of this number has been seen. Type send to send anyway.',
    };
  if (record === null)
    return {
      check: 'consent',
      level: 'strong',
      tag: 'no consent record',
      message: 'No consent on record for this number. Type send to send anyway.',
    };
  if (!record.given)
    return {
      check: 'consent',
      level: 'strong',
      tag: 'consent not given',
      message: `Consent NOT given (recorded ${when(record.recordedAt)} UTC). Type send to send anyway.`,
    };
  return undefined;
};

const texting: Check = ({ texting: setup }) => {
  if (!setup) return undefined;
  if (!setup.number)
    return {
      check: 'texting',
      level: 'warn',
      tag: 'texting not live',
      message: 'Texting is not live: the shop has no texting number, so the shop will refuse this text.',
    };
  if (setup.status !== 'active')
    return {
      check: 'texting',
      level: 'warn',
      tag: 'texting not live',
      message: `Texting is not live (status "${quote(setup.status)}"): the shop will likely refuse this text.`,
    };
  return undefined;
};

const quietHours: Check = ({ now, customerZones }) => {
  const time = customerTime(now, customerZones);
  if (!time.quiet) return undefined;
  const quietIn = time.times.filter((zone) => zone.quiet).map((zone) => zone.zone);
  const where = time.times.length > 1 ? ` It is quiet in ${quietIn.join(' and ')}.` : '';
  return {
    check: 'quiet-hours',
    level: 'warn',
    tag: 'quiet hours',
    message: `Quiet hours (${hour(QUIET_START_HOUR)}–${hour(QUIET_END_HOUR)} their time): it is ${time.text}.${where}`,
  };
};

const hour = (value: number) => `${String(value).padStart(2, '0')}:00`;

const arrived: Check = ({ arrivedSince }) => {
  if (!arrivedSince || arrivedSince.length === 0) return undefined;
  const latest = [...arrivedSince].sort((a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt));
  return latest.map((text) => ({
    check: 'arrived',
    level: 'warn' as const,
    tag: text.direction === 'inbound' ? 'the customer wrote' : 'someone else sent',
    message: `${text.direction === 'inbound' ? 'The customer wrote' : 'Someone else sent'} since you started (${when(text.occurredAt)} UTC): "${quote(text.body)}"`,
  }));
};

/** Every check, in the order its finding is shown. */
const CHECKS: readonly Check[] = [unfilled, optOut, consent, texting, quietHours, arrived];

export function preSendChecks(facts: PreSendFacts): Finding[] {
  return CHECKS.flatMap((check) => {
    const found = check(facts);
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  });
}

/** The consent record in a few words, always shown beside the findings. */
export type ConsentStatus =
  | { label: 'consent given'; given: true; recordedAt: string }
  | { label: 'consent not given'; given: false; recordedAt: string }
  | { label: 'no consent record' | 'consent unknown'; given: false };

export function consentStatus(record: PreSendFacts['consent']): ConsentStatus {
  if (record === undefined) return { label: 'consent unknown', given: false };
  if (record === null) return { label: 'no consent record', given: false };
  return record.given
    ? { label: 'consent given', given: true, recordedAt: record.recordedAt }
    : { label: 'consent not given', given: false, recordedAt: record.recordedAt };
}

/** What is said whatever the findings: the consent record and the customer's local time. */
export interface PreSendSummary {
  consent: ConsentStatus;
  customerTime: CustomerTime;
}

export const preSendSummary = (facts: PreSendFacts): PreSendSummary => ({
  consent: consentStatus(facts.consent),
  customerTime: customerTime(facts.now, facts.customerZones),
});

/** What the confirmation asks for, given the findings. */
export type Confirmation =
  | { kind: 'refused'; reasons: Finding[] }
  | { kind: 'typed'; word: string }
  | { kind: 'yes-no' };

export function confirmationFor(findings: readonly Finding[]): Confirmation {
  const blocks = findings.filter((finding) => finding.level === 'block');
  const final = blocks.filter((finding) => finding.override === undefined);
  if (final.length > 0) return { kind: 'refused', reasons: final };
  const override = blocks.find((finding) => finding.override !== undefined)?.override;
  if (override) return { kind: 'typed', word: override };
  if (findings.some((finding) => finding.level === 'strong')) return { kind: 'typed', word: 'send' };
  return { kind: 'yes-no' };
}
