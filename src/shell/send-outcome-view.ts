/**
 * The send flow's outcomes on screen (src/user-actions/send-flow.ts decides
 * them): the question and the question asked again, what is said about them,
 * and the composer back with its text. What becomes of a confirmed text is
 * said by the sender, for its first attempt and every retry alike.
 */
import type { AppStore, ComposerTarget, Notice } from '../store/app-store.js';
import { recipientLabel } from '../text/recipient.js';
import type { Refusal, SendOutcome } from '../user-actions/send-outcome.js';

export interface SendOutcomeScreen {
  store: AppStore;
  notify(text: string, tone?: Notice['tone']): void;
  /** The read of keys in which the question on screen was asked (undefined: none of them answers it). */
  askedIn(batch: number | undefined): void;
}

/** Shows `outcome`, the result of a key of read `batch` (undefined: it came later, of itself). */
export function showSendStep(
  outcome: SendOutcome,
  batch: number | undefined,
  screen: SendOutcomeScreen,
): void {
  const { store, notify } = screen;
  switch (outcome.kind) {
    case 'not-asked':
      if (outcome.why === 'contact-loading')
        notify("Still reading this lead's contact: the text can be sent once it is loaded.", 'info');
      return;
    case 'asked':
      screen.askedIn(batch);
      store.setState({ prompt: outcome.prompt, helpOpen: false, palette: undefined });
      return;
    case 'checking':
      screen.askedIn(undefined);
      store.setState({ prompt: outcome.prompt });
      // What it leads to comes later, of itself: no key of this read answers what is asked then.
      void outcome.result.then((next) => showSendStep(next, undefined, screen));
      return;
    case 'ask-again':
      // Keys read with the answer that led here are not the answer to this question.
      screen.askedIn(batch);
      store.setState({ prompt: outcome.prompt });
      if (outcome.because.kind === 'arrived') {
        const count = outcome.because.texts.length;
        notify(
          `${count === 1 ? 'A new text' : `${count} new texts`} in this thread since you started writing: read, then answer again.`,
          'warning',
        );
      } else if (outcome.because.kind === 'reread-failed') {
        notify(
          `Could not read the thread again to check for new texts, so nothing was sent: ${outcome.because.why} y sends without that check, n goes back to the text.`,
          'warning',
        );
      }
      return;
    case 'declined':
      screen.askedIn(undefined);
      // The composer comes back with its text after a "no" to sending it.
      store.setState({ prompt: undefined, composer: outcome.target });
      return;
    case 'refused':
      showRefusal(outcome.target, outcome.reason, screen);
      return;
    // The sender closed the question and the composer, and says what becomes of the text.
    case 'sending':
      screen.askedIn(undefined);
      return;
    case 'sent':
    case 'replayed':
    case 'parked':
    case 'ignored':
    case 'withdrawn':
      return;
  }
}

function showRefusal(target: ComposerTarget, reason: Refusal, screen: SendOutcomeScreen): void {
  const { store, notify } = screen;
  switch (reason.kind) {
    case 'word-missing':
      store.setState((state) =>
        state.prompt?.kind === 'confirm-send' ? { prompt: { ...state.prompt, mistyped: true } } : {},
      );
      return;
    case 'findings':
      screen.askedIn(undefined);
      // Refused once the question was asked (a text arrived that blocks it): the text is back in its composer.
      store.setState((state) => ({ prompt: undefined, ...(state.composer ? {} : { composer: target }) }));
      notify(
        `Not sent to ${recipientLabel(target)}: ${reason.findings.map((finding) => finding.message).join(' ')}`,
        'error',
      );
      return;
    // Refusals of a confirmed text: the sender says them and puts the text back.
    case 'read-only':
    case 'not-recorded':
    case 'shop':
      return;
  }
}
