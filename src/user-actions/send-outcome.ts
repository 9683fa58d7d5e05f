/**
 * What came of a step of sending a text, as values: the question asked, the
 * thread being read again, the question asked again and why, a refusal and
 * its reason, the text sent, replayed or parked for retry. The send flow
 * (send-flow.ts) returns them; the shell renders them (the question, a
 * notice, the composer back).
 */
import type { Message } from '../contract/resources.js';
import type { Finding } from '../rules/pre-send-checks.js';
import type { ComposerTarget, ConfirmSend, OutgoingText } from '../store/app-store.js';

/** Why a text was not sent. */
export type Refusal =
  /** The checks found what no answer overrides (a template variable left). */
  | { kind: 'findings'; findings: readonly Finding[] }
  /** Enter on a question that wants a word, with something else typed. */
  | { kind: 'word-missing'; word: string }
  /** The key cannot write (the shop said so, or this process knows it). */
  | { kind: 'read-only'; why: string }
  /** The text could not be written to the outbox first, so it was not sent at all. */
  | { kind: 'not-recorded'; why: string }
  /** The shop refused the text (no number, texting not active…). */
  | { kind: 'shop'; why: string };

/** Why a question that was answered yes is asked once more. */
export type AskAgainBecause =
  /** Texts arrived in the thread since the composer opened (from the customer or another terminal). */
  | { kind: 'arrived'; texts: readonly Message[] }
  /** Another terminal of this box is writing to the same contact. */
  | { kind: 'replied-elsewhere' }
  /** The thread could not be read again to check for new texts. */
  | { kind: 'reread-failed'; why: string };

/** What became of a confirmed text's first attempt (later attempts are the sender's to tell). */
export type Delivery =
  | { kind: 'sent'; text: OutgoingText }
  /** The shop knew the Idempotency-Key: the text was sent before, nothing new was sent. */
  | { kind: 'replayed'; text: OutgoingText }
  /** Not known sent (no answer, a 5xx, a pause, a refused key): it waits in the outbox with its key. */
  | { kind: 'parked'; text: OutgoingText; reason: string; retryAt?: number }
  | { kind: 'refused'; target: ComposerTarget; reason: Refusal };

export type SendOutcome =
  /** Nothing to ask: no composer, an empty text, or the lead's contact still being read. */
  | { kind: 'not-asked'; why: 'no-text' | 'contact-loading' }
  /** The question, with the exact text and every finding, bound to its contact. */
  | { kind: 'asked'; prompt: ConfirmSend }
  /** Answered yes: the thread is read again before sending; `result` is what comes of it. */
  | { kind: 'checking'; prompt: ConfirmSend; result: Promise<SendOutcome> }
  | { kind: 'ask-again'; prompt: ConfirmSend; because: AskAgainBecause }
  /** Handed to the sender (the question and the composer are closed); `result` is its first attempt's. */
  | {
      kind: 'sending';
      target: ComposerTarget;
      /** Whether the thread was read again just before (false: none was read, or staff chose to send without). */
      checked: boolean;
      result: Promise<Delivery>;
    }
  /** Answered no: the text goes back to its composer. */
  | { kind: 'declined'; target: ComposerTarget }
  /** The answer does not apply to the question on screen (y where a word is asked, a key while checking). */
  | { kind: 'ignored' }
  /** The question was closed while the thread was read again: nothing is sent, nothing more is said. */
  | { kind: 'withdrawn' }
  | Delivery;
