/**
 * Sending a text from the composer, step by step: the question, the answer,
 * the thread read again, the text handed to the sender. Each step returns
 * what came of it as a value (send-outcome.ts); the decisions are
 * send-decision.ts's, the sending and its guarantee send-text.ts's. The flow
 * reads the store and never writes it: showing an outcome is the shell's.
 */
import type { ShopClient } from '../api/client.js';
import { storeData } from '../poller/store-writes.js';
import type { AppStore, ComposerTarget, ConfirmSend } from '../store/app-store.js';
import {
  afterReread,
  answerSend,
  askToSend,
  type Reread,
  rereadFailed,
  type SendAnswer,
  type SendStep,
} from './send-decision.js';
import type { Delivery, SendOutcome } from './send-outcome.js';

export interface SendFlowOptions {
  store: AppStore;
  /** Reads the thread again before sending. */
  client: Pick<ShopClient, 'getLead'>;
  now: () => number;
  /**
   * Hands a confirmed text to the sender (its Idempotency-Key is made now, the composer and the question
   * close); resolves with what became of its first attempt.
   */
  deliver(target: ComposerTarget, body: string): Promise<Delivery>;
}

export type SendFlow = ReturnType<typeof createSendFlow>;

export function createSendFlow(options: SendFlowOptions) {
  const { store, now } = options;

  /** The question on screen, if it is a send question. */
  const question = (): ConfirmSend | undefined => {
    const prompt = store.getState().prompt;
    return prompt?.kind === 'confirm-send' ? prompt : undefined;
  };

  async function reread(leadId: string, checking: ConfirmSend): Promise<SendOutcome> {
    let result: Reread;
    try {
      const detail = await options.client.getLead(leadId, { limit: 100 });
      storeData(store, { kind: 'lead', id: leadId }, detail, now());
      result = { ok: true };
    } catch (error) {
      result = rereadFailed(error);
    }
    // Closed meanwhile (esc, the key turned read-only…): that was the answer.
    if (store.getState().prompt !== checking) return { kind: 'withdrawn' };
    return run(afterReread(store.getState(), checking, result, now()));
  }

  /** Carries out a step with the shop; any other step is already an outcome. */
  function run(step: SendStep): SendOutcome {
    switch (step.kind) {
      case 'reread':
        return { kind: 'checking', prompt: step.prompt, result: reread(step.leadId, step.prompt) };
      case 'deliver':
        return {
          kind: 'sending',
          target: step.target,
          checked: step.checked,
          result: options.deliver(step.target, step.body),
        };
      default:
        return step;
    }
  }

  const answer = (given: SendAnswer): SendOutcome => {
    const prompt = question();
    if (!prompt) return { kind: 'ignored' };
    return run(answerSend(store.getState(), prompt, given, now()));
  };

  return {
    /** enter in the composer. */
    ask: (): SendOutcome => askToSend(store.getState(), now()),
    /** y (true) or n / esc (false) on the send question. */
    answer: (yes: boolean): SendOutcome => answer({ kind: yes ? 'yes' : 'no' }),
    /** enter on a send question that wants a typed word. */
    submitTyped: (): SendOutcome => answer({ kind: 'typed' }),
  };
}
