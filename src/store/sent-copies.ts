/**
 * Which of the service's messages is the copy of a text sent from here. The
 * API takes a text for a contact, not a lead, and lists it later inside one of
 * the contact's leads, with its own id and time and its body possibly
 * truncated: the two are paired by what they must share. Each sent text has
 * at most one copy and each message is the copy of at most one text, so a text
 * is never listed twice and a genuinely different text, however alike, is
 * never taken for one sent from here.
 */
import type { Message } from '../contract/resources.js';
import type { OutgoingText } from './app-store.js';

/**
 * How far the shop's clock may run behind this machine's: a copy cannot be older than its
 * confirmation by more than this. Wide enough for a badly set clock, narrow enough that a text
 * of the same words sent earlier in the day is not taken for it.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** A message of a lead's thread, with the lead that lists it. */
export interface ListedText {
  leadId: string;
  message: Message;
}

/** Where a text sent from here is listed by the service. */
export interface SentCopy {
  leadId: string;
  messageId: string;
}

/** The same words: the service trims a text, and may cut what it returns, ending it in "…". */
export function sameBody(listed: string, sent: string): boolean {
  const shown = listed.trim();
  const body = sent.trim();
  if (shown === body) return true;
  if (!shown.endsWith('…')) return false;
  const kept = shown.slice(0, -1);
  return kept.length > 0 && body.startsWith(kept);
}

const time = (at: string) => {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : ms;
};

/** Whether a message can be the service's copy of the text, leaving aside which other text may claim it. */
export function couldBeCopy(
  message: Message,
  text: OutgoingText,
  knownBefore?: ReadonlySet<string>,
): boolean {
  if (String(message.direction) !== 'outbound') return false;
  // A text the inbox had read before this one was confirmed is another text.
  if (knownBefore?.has(message.id)) return false;
  const at = time(message.occurred_at);
  if (at === undefined || at < text.confirmedAt - CLOCK_SKEW_MS) return false;
  return sameBody(message.body, text.body);
}

/**
 * Pairs each text sent (or replayed) from here with its copy among the listed messages of its
 * contact's threads, oldest text first; each takes the first message after its confirmation (else
 * the latest one within the clock's skew before it) that no earlier text took. Texts still sending,
 * waiting or failed have no copy to look for. `knownBefore`: the message ids the inbox had read
 * when each text was confirmed (by its localId).
 */
export function pairSentCopies(
  texts: readonly OutgoingText[],
  listed: readonly ListedText[],
  knownBefore: (localId: string) => ReadonlySet<string> | undefined = () => undefined,
): Map<string, SentCopy> {
  const pairs = new Map<string, SentCopy>();
  const taken = new Set<string>();
  const sent = texts
    .filter((text) => text.state === 'sent' || text.state === 'replayed')
    .sort((a, b) => a.confirmedAt - b.confirmedAt);
  for (const text of sent) {
    const known = knownBefore(text.localId);
    let best: { item: ListedText; at: number } | undefined;
    for (const item of listed) {
      if (taken.has(item.message.id) || !couldBeCopy(item.message, text, known)) continue;
      const at = time(item.message.occurred_at) ?? 0;
      if (!best || closer(at, best.at, text.confirmedAt)) best = { item, at };
    }
    if (!best) continue;
    taken.add(best.item.message.id);
    pairs.set(text.localId, { leadId: best.item.leadId, messageId: best.item.message.id });
  }
  return pairs;
}

/** `a` is a likelier copy than `b`: the earliest at or after the confirmation, else the latest before it. */
function closer(a: number, b: number, confirmedAt: number): boolean {
  const aAfter = a >= confirmedAt;
  const bAfter = b >= confirmedAt;
  if (aAfter !== bAfter) return aAfter;
  return aAfter ? a < b : a > b;
}
