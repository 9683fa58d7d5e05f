/**
 * The decisions of the send flow, pure: given what the inbox has read and an
 * answer, the next question or what to do. Nothing here reads the clock,
 * writes the store or talks to the shop (send-flow.ts does, with these).
 *
 * enter → the question (or refused: findings no word overrides)
 * y / the typed word → asked again when another terminal writes to the contact;
 *   else the thread is read again (`reread`), or sent when no thread of the
 *   contact was ever read (nothing could have been seen, so nothing can have arrived)
 * the thread read again → sent when nothing arrived; asked again with the new
 *   texts as findings when something did; asked again, saying why, when it
 *   could not be read (then y sends without that check: staff decided knowingly)
 * n → the text goes back to the composer
 */
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { Message } from '../contract/resources.js';
import { confirmationFor, preSendChecks, preSendSummary } from '../rules/pre-send-checks.js';
import type { AppState, ComposerTarget, ConfirmSend } from '../store/app-store.js';
import { emptyLine, type LineText } from '../store/line-editor.js';
import { sanitize } from '../text/sanitize.js';
import { arrivedSince, preSendFacts, withSeenTexts } from './pre-send-facts.js';
import type { SendOutcome } from './send-outcome.js';

export type SendFlowState = Pick<
  AppState,
  | 'leads'
  | 'texting'
  | 'me'
  | 'configTimeZone'
  | 'machineTimeZone'
  | 'phoneZones'
  | 'presence'
  | 'composer'
  | 'composerWaiting'
  | 'composed'
>;

/** What to do next: an outcome to show, or a step with the shop (read the thread again, send). */
export type SendStep =
  | SendOutcome
  | { kind: 'reread'; leadId: string; prompt: ConfirmSend }
  | { kind: 'deliver'; target: ComposerTarget; body: string; checked: boolean };

/** The answer to a send question. */
export type SendAnswer = { kind: 'yes' } | { kind: 'no' } | { kind: 'typed' };

/** The result of reading the thread again before sending. */
export type Reread = { ok: true } | { ok: false; why: string };

/** A read that failed, and why in plain words, safe for the screen. */
export function rereadFailed(error: unknown): Reread {
  const why =
    error instanceof ApiError
      ? explainApiError(error)
      : sanitize(error instanceof Error ? error.message : String(error), { singleLine: true });
  return { ok: false, why };
}

/**
 * What reading the thread again before sending leads to, wherever the question is asked (the composer, the
 * command line): texts that arrived are shown and asked about (even when the read failed: they are known);
 * a read that failed is asked about, saying why; otherwise the text is sent.
 */
export type RereadVerdict<T> =
  | { kind: 'send' }
  | { kind: 'arrived'; texts: readonly T[] }
  | { kind: 'reread-failed'; why: string };

export function rereadVerdict<T>(arrived: readonly T[], reread: Reread): RereadVerdict<T> {
  if (arrived.length > 0) return { kind: 'arrived', texts: arrived };
  if (!reread.ok) return { kind: 'reread-failed', why: reread.why };
  return { kind: 'send' };
}

/**
 * The question for a text, with what the checks found, bound to `target` as it is now (its texts read so
 * far counted as seen); refused when a finding that no word overrides is among them.
 */
export function questionFor(
  state: SendFlowState,
  target: ComposerTarget,
  body: string,
  now: number,
): Extract<SendOutcome, { kind: 'asked' | 'refused' }> {
  const facts = preSendFacts(state, target, body, now);
  const findings = preSendChecks(facts);
  const confirmation = confirmationFor(findings);
  if (confirmation.kind === 'refused')
    return { kind: 'refused', target, reason: { kind: 'findings', findings: confirmation.reasons } };
  return {
    kind: 'asked',
    prompt: {
      kind: 'confirm-send',
      // Texts that arrived meanwhile are among the findings: from now on they count as seen.
      target: withSeenTexts(state, target),
      body,
      findings,
      summary: preSendSummary(facts),
      ...(confirmation.kind === 'typed' ? { word: confirmation.word, typed: emptyLine } : {}),
    },
  };
}

/** enter in the composer: the question for its exact text, bound to its contact. */
export function askToSend(state: SendFlowState, now: number): SendOutcome {
  if (state.composerWaiting) return { kind: 'not-asked', why: 'contact-loading' };
  const opened = state.composer;
  if (!opened) return { kind: 'not-asked', why: 'no-text' };
  const body = state.composed[opened.contactId]?.text ?? '';
  if (body.trim().length === 0) return { kind: 'not-asked', why: 'no-text' };
  // No thread was read when the composer opened: what is read now is what staff see.
  const target = opened.seenTextIds ? opened : withSeenTexts(state, opened);
  return questionFor(state, target, body, now);
}

/** The lead to read again before sending: the target's, else a loaded lead of this contact. */
export function leadToReread(state: Pick<AppState, 'leads'>, target: ComposerTarget): string | undefined {
  if (target.leadId) return target.leadId;
  for (const [id, lead] of Object.entries(state.leads))
    if (lead.data?.contact.id === target.contactId) return id;
  return undefined;
}

/** The question asked once more as a plain y/n: any word asked for was typed already. */
const asPlainQuestion = (prompt: ConfirmSend): ConfirmSend => {
  const { word: _word, typed: _typed, checking: _checking, ...rest } = prompt;
  return { ...rest, mistyped: false };
};

/** What an answer to the send question on screen leads to. */
export function answerSend(
  state: SendFlowState,
  prompt: ConfirmSend,
  answer: SendAnswer,
  now: number,
): SendStep {
  // No (n, esc) always answers, even while the thread is read again: nothing is sent then.
  if (answer.kind === 'no') return { kind: 'declined', target: prompt.target };
  if (prompt.checking) return { kind: 'ignored' };
  if (answer.kind === 'yes' && prompt.word !== undefined) return { kind: 'ignored' };
  if (answer.kind === 'typed') {
    if (prompt.word === undefined) return { kind: 'ignored' };
    if ((prompt.typed?.text ?? '').trim().toLowerCase() !== prompt.word)
      return { kind: 'refused', target: prompt.target, reason: { kind: 'word-missing', word: prompt.word } };
  }
  const { target, body } = prompt;
  if (!prompt.again && !prompt.rereadFailed && state.presence.composingElsewhere.includes(target.contactId))
    return {
      kind: 'ask-again',
      prompt: { ...asPlainQuestion(prompt), again: true },
      because: { kind: 'replied-elsewhere' },
    };
  if (prompt.rereadFailed) {
    // Sent without reading the thread again, as staff chose; but not past texts the inbox has read since.
    const arrived = arrivedSince(state, target);
    if (arrived.length === 0) return { kind: 'deliver', target, body, checked: false };
    return askAgainWith(state, prompt, arrived, now);
  }
  const leadId = leadToReread(state, target);
  if (!leadId) return { kind: 'deliver', target, body, checked: false };
  return { kind: 'reread', leadId, prompt: { ...prompt, checking: true } };
}

/** The question asked anew, the texts that arrived among its findings (or refused, if they make it so). */
function askAgainWith(
  state: SendFlowState,
  prompt: ConfirmSend,
  arrived: readonly Message[],
  now: number,
): SendStep {
  const again = questionFor(state, prompt.target, prompt.body, now);
  if (again.kind === 'refused') return again;
  return { kind: 'ask-again', prompt: again.prompt, because: { kind: 'arrived', texts: arrived } };
}

/**
 * The thread was read again (or not) after yes: sent when nothing arrived; asked again with what arrived,
 * or with why it could not be read. Texts the inbox read meanwhile by other means count as arrived either way.
 */
export function afterReread(
  state: SendFlowState,
  prompt: ConfirmSend,
  reread: Reread,
  now: number,
): SendStep {
  const { target, body } = prompt;
  const verdict = rereadVerdict(arrivedSince(state, target), reread);
  switch (verdict.kind) {
    case 'arrived':
      return askAgainWith(state, prompt, verdict.texts, now);
    case 'reread-failed':
      return {
        kind: 'ask-again',
        prompt: { ...asPlainQuestion(prompt), rereadFailed: verdict.why },
        because: verdict,
      };
    case 'send':
      return { kind: 'deliver', target, body, checked: true };
  }
}

/** An edit of the word typed at a question that wants one; undefined when there is none to edit now. */
export function editTypedWord(
  prompt: ConfirmSend,
  edit: (line: LineText) => LineText,
): ConfirmSend | undefined {
  if (prompt.word === undefined || prompt.checking) return undefined;
  return { ...prompt, typed: edit(prompt.typed ?? emptyLine), mistyped: false };
}
