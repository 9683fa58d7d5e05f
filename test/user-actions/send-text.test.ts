/**
 * The TextSender on its own, with a scripted client and a fake clock: what
 * happens after the client's own retries gave up (the text waits and is tried
 * again later with the same key and body), after 23 h (never again
 * automatically), and after a refusal (back into the composer, without
 * overwriting newer typing).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SendTextOptions, SendTextResult, ShopClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { type AppStore, type ComposerTarget, createAppStore } from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';
import type { ActionContext } from '../../src/user-actions/context.js';
import { AUTO_RETRY_WINDOW_MS, TextSender } from '../../src/user-actions/send-text.js';

const target: ComposerTarget = {
  contactId: 'ct_1',
  name: 'Amy Nakamura',
  phone: '+19715550110',
  leadId: 'lead_1',
  consent: { given: true, recordedAt: '2026-11-14T01:28:00Z' },
};

const apiError = (code: string, status: number) =>
  new ApiError({ code, status, message: `${code} from the test`, endpoint: 'POST /contacts/{id}/messages' });

type Outcome = SendTextResult | ApiError;

interface Call {
  contactId: string;
  body: string;
  idempotencyKey: string | undefined;
}

function setup(outcomes: Outcome[]) {
  const calls: Call[] = [];
  let readOnly = false;
  const client = {
    get readOnly() {
      return readOnly;
    },
    setReadOnly: vi.fn((value: boolean) => {
      readOnly = value;
    }),
    sendText: vi.fn(async (contactId: string, body: string, options?: SendTextOptions) => {
      calls.push({ contactId, body, idempotencyKey: options?.idempotencyKey });
      const outcome = outcomes.shift() ?? { sent: true, replayed: false };
      if (outcome instanceof ApiError) throw outcome;
      return outcome;
    }),
  } as unknown as ShopClient;
  const store: AppStore = createAppStore();
  const invalidate = vi.fn();
  const context: ActionContext = { client, store, poller: { invalidate }, now: () => Date.now() };
  const sender = new TextSender(context);
  const text = () => store.getState().outbox[0];
  return { client, store, sender, calls, invalidate, text };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-21T12:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the sender's promise chains run (no timer moves). */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('TextSender', () => {
  it('fixes key and body at confirmation, clears the composer, and sends once', async () => {
    const { store, sender, calls, text, invalidate } = setup([{ sent: true, replayed: false }]);
    store.setState({ composer: target, composed: { [target.contactId]: lineOf('Hello') } });
    const confirmed = sender.confirm(target, 'Hello');
    expect(store.getState().composer).toBeUndefined();
    expect(store.getState().composed[target.contactId]).toBeUndefined();
    expect(text()).toMatchObject({
      state: 'sending',
      body: 'Hello',
      idempotencyKey: confirmed.idempotencyKey,
    });
    await flush();
    expect(calls).toEqual([{ contactId: 'ct_1', body: 'Hello', idempotencyKey: confirmed.idempotencyKey }]);
    expect(text()).toMatchObject({ state: 'sent', attempts: 1 });
    // The reply may have answered missed calls: the lists and counts are read again (the threads
    // where the service lists the text are read by the sender itself: test/ui/thread-after-send).
    expect(invalidate).toHaveBeenCalledWith(
      { kind: 'inbox', filter: 'callbacks' },
      { kind: 'me' },
      { kind: 'inbox', filter: 'open' },
    );
  });

  it('two confirmations are two texts with two keys', async () => {
    const { sender, calls } = setup([]);
    sender.confirm(target, 'one');
    sender.confirm(target, 'two');
    await flush();
    expect(calls.map((call) => call.body)).toEqual(['one', 'two']);
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(2);
  });

  it('after a transient failure the text waits, then is tried again with the same key and body', async () => {
    const { sender, calls, text, store } = setup([
      apiError('network', 0),
      apiError('server', 503),
      { sent: true, replayed: true },
    ]);
    sender.confirm(target, 'Invoice attached');
    await flush();
    expect(text()).toMatchObject({ state: 'waiting', attempts: 1 });
    expect(text()?.retryAt).toBe(Date.now() + 5_000);
    expect(store.getState().notice?.tone).toBe('warning');

    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // The wait doubles.
    expect(text()).toMatchObject({ state: 'waiting', attempts: 2 });
    expect(text()?.retryAt).toBe(Date.now() + 10_000);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1);
    expect(new Set(calls.map((call) => call.body))).toEqual(new Set(['Invoice attached']));
    expect(text()).toMatchObject({ state: 'replayed', attempts: 3 });
    // A text the service may have sent never goes back into the composer.
    expect(store.getState().composed[target.contactId]).toBeUndefined();
  });

  it('waits at least as long as a 429 asks', async () => {
    const rateLimited = new ApiError({
      code: 'rate_limited',
      status: 429,
      message: 'slow down',
      endpoint: 'POST /contacts/{id}/messages',
      retryAfter: 42,
    });
    const { sender, calls, text } = setup([rateLimited]);
    sender.confirm(target, 'hi');
    await flush();
    expect(text()?.retryAt).toBe(Date.now() + 42_000);
    await vi.advanceTimersByTimeAsync(41_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(text()?.state).toBe('sent');
  });

  it('is not tried again automatically once 23 h have passed since the confirmation', async () => {
    const { sender, calls, text } = setup([apiError('network', 0), apiError('network', 0)]);
    sender.confirm(target, 'late');
    await flush();
    expect(text()?.state).toBe('waiting');
    // The machine slept: the retry fires 23 h after the confirmation.
    vi.setSystemTime(Date.now() + AUTO_RETRY_WINDOW_MS);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(2);
    expect(text()?.state).toBe('failed');
    expect(text()?.reason).toContain('Not retried after 23 h');
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(calls).toHaveLength(2);
  });

  it('a refusal is final and puts the text back in the composer', async () => {
    const { sender, calls, text, store } = setup([apiError('no_number', 422)]);
    sender.confirm(target, 'Can we move to Friday?');
    await flush();
    expect(text()).toMatchObject({ state: 'failed' });
    expect(text()?.reason).toContain('no texting number');
    expect(store.getState().composed[target.contactId]?.text).toBe('Can we move to Friday?');
    expect(store.getState().notice).toMatchObject({ tone: 'error' });
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(calls).toHaveLength(1);
  });

  it('a refusal does not overwrite what staff typed since: the refused text goes above it', async () => {
    let refuse: (() => void) | undefined;
    const { client, sender, store } = setup([]);
    vi.mocked(client.sendText).mockImplementationOnce(
      () =>
        new Promise((_resolve, reject) => {
          refuse = () => reject(apiError('texting_inactive', 422));
        }),
    );
    sender.confirm(target, 'first');
    await flush();
    store.setState({ composed: { [target.contactId]: { text: 'second thoughts', cursor: 6 } } });
    refuse?.();
    await flush();
    // Nothing is lost, and the cursor stays where staff left it in what they typed.
    expect(store.getState().composed[target.contactId]).toEqual({
      text: 'first\nsecond thoughts',
      cursor: 'first\nsecond'.length,
    });
    expect(store.getState().notice?.text).toMatch(
      /back in the composer for Amy Nakamura \(\+\d+\), above what was typed since/,
    );
  });

  it("the service's read_only switches the process to read-only", async () => {
    const { client, sender, store } = setup([apiError('read_only', 403)]);
    store.setState({ composer: target });
    sender.confirm(target, 'hi');
    await flush();
    expect(client.setReadOnly).toHaveBeenCalledWith(true);
    expect(store.getState()).toMatchObject({ readOnly: true, readOnlyReason: 'server' });
    expect(store.getState().composer).toBeUndefined();
    expect(store.getState().composed[target.contactId]?.text).toBe('hi');
  });

  it('close() stops the retries', async () => {
    const { sender, calls, text } = setup([apiError('timeout', 0)]);
    sender.confirm(target, 'hi');
    await flush();
    expect(text()?.state).toBe('waiting');
    sender.close();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(1);
  });
});
