/**
 * Sending a text, after staff answered y to "send to NAME (PHONE)?".
 *
 * The Idempotency-Key is made at that moment and stored with the exact body
 * before the first attempt; every later attempt reuses both, so no failure,
 * retry or repeated key press can text a customer twice. A failure that may
 * have happened after the text went out (network, timeout, 5xx, 429) is tried
 * again later with the same key, until the key's 24 h replay window is nearly
 * over. A refusal (no number, texting inactive, read-only…) is final, and the
 * text goes back into the composer: nothing typed is lost. A refused key
 * (401, or a plan without the API) is no refusal of the text: it waits in
 * that key's outbox, and no other key ever sends it.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { OutboxPersistence } from '../outbox/outbox-file.js';
import type { AppState, ComposerTarget, OutgoingText } from '../store/app-store.js';
import { lineOf } from '../store/line-editor.js';
import { type ActionContext, enterReadOnlyFromServer, notify } from './context.js';
import { findSentCopy } from './find-sent-copy.js';
import { contactTexts } from './pre-send-facts.js';

/** After this long a waiting text is never tried again automatically: the key's replay window is 24 h. */
export const AUTO_RETRY_WINDOW_MS = 23 * 60 * 60 * 1000;
/** Finished texts kept for the threads' "sent from here" lines. */
const KEEP_FINISHED = 200;
/** Waits before a text whose outcome is unknown is tried again (with the same key): doubling, capped. */
export const DEFAULT_SEND_RETRY = { baseMs: 5_000, maxMs: 5 * 60_000 };

/**
 * Failures after which the text may have gone out, or may go out on a retry:
 * tried again with the same key. An answer of unknown shape is one of them:
 * "not sent" would invite a second text under a new key.
 */
const TRANSIENT = new Set(['network', 'timeout', 'server', 'rate_limited', 'bad_response']);

export class TextSender {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Texts of a key this process no longer uses: never sent, written or changed again. */
  private readonly retired = new Set<string>();
  private closed = false;
  private inFlight = new AbortController();
  private lastSave: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: ActionContext,
    /** Where confirmed texts wait until they are known sent; none in the demo. */
    private persistence?: OutboxPersistence,
    private readonly retry: { baseMs: number; maxMs: number } = DEFAULT_SEND_RETRY,
  ) {}

  /**
   * Takes over the texts a previous run of this key confirmed but could not
   * confirm sent: the same key and body are tried again, so the service sends
   * nothing twice. Texts of other keys are only counted, never shown.
   */
  async resume(): Promise<void> {
    // A read-only process (a monitoring screen) leaves the outbox to the one that can send.
    const persistence = this.persistence;
    if (!persistence || this.context.client.readOnly) return;
    let texts: OutgoingText[];
    try {
      texts = await persistence.load();
    } catch (error) {
      notify(this.context, `Could not read the outbox: ${(error as Error).message}`, 'warning');
      return;
    }
    const others = await persistence.keptForOtherKeys?.().catch(() => undefined);
    if (persistence !== this.persistence) {
      // The key changed while the file was read: these texts stay with their key.
      await persistence.release?.().catch(() => {});
      return;
    }
    const waiting = this.takeOver(texts, 'confirmed in an earlier session; trying again with the same key');
    const parts: string[] = [];
    if (waiting > 0) {
      parts.push(
        `Resuming ${waiting} unconfirmed ${waiting === 1 ? 'text' : 'texts'} from an earlier session.`,
      );
    }
    if (others && others.count > 0) {
      parts.push(
        `${others.count} ${others.count === 1 ? 'text' : 'texts'} confirmed with another key of this API ${others.count === 1 ? 'is' : 'are'} kept in ${others.where}, for that key only.`,
      );
    }
    if (parts.length > 0) notify(this.context, parts.join(' '), 'warning');
  }

  /**
   * Takes over texts of this key left by a process that stopped while this
   * one runs (called now and then): they are not left waiting for a restart.
   */
  async sweep(): Promise<void> {
    const persistence = this.persistence;
    if (!persistence || this.closed || this.context.client.readOnly) return;
    let texts: OutgoingText[];
    try {
      texts = await persistence.load();
    } catch {
      return;
    }
    if (persistence !== this.persistence || this.closed) {
      if (texts.length > 0) await persistence.release?.().catch(() => {});
      return;
    }
    const waiting = this.takeOver(
      texts,
      'confirmed by a shop-inbox that stopped; trying again with the same key',
    );
    if (waiting > 0) {
      notify(
        this.context,
        `Sending ${waiting} unconfirmed ${waiting === 1 ? 'text' : 'texts'} left by a shop-inbox that stopped.`,
        'warning',
      );
    }
  }

  /**
   * Goes on with another key (the old one was refused): texts confirmed with
   * the old key stay in its outbox file, given up to whichever process of that
   * key comes next, and are never sent with the new one. Then the new key's
   * own outbox is resumed.
   */
  async switchTo(persistence: OutboxPersistence | undefined): Promise<void> {
    this.close();
    const previous = this.persistence;
    this.persistence = persistence;
    for (const text of this.context.store.getState().outbox) {
      if (text.state === 'sending' || text.state === 'waiting') this.retired.add(text.localId);
    }
    this.context.store.setState((state) => ({
      outbox: state.outbox.map((text) =>
        this.retired.has(text.localId) && (text.state === 'sending' || text.state === 'waiting')
          ? {
              ...text,
              state: 'failed',
              finishedAt: this.context.now(),
              reason:
                'Confirmed with the key the shop refused and not known to be sent: it stays in that key’s outbox and is never sent with another key.',
            }
          : text,
      ),
    }));
    await this.lastSave;
    await previous?.release?.().catch(() => {});
    this.closed = false;
    this.inFlight = new AbortController();
    await this.resume();
  }

  /** Adds texts taken over from the file and sends those still in their 23 h window; returns how many. */
  private takeOver(texts: OutgoingText[], why: string): number {
    const { now } = this.context;
    const known = new Set(this.context.store.getState().outbox.map((text) => text.localId));
    const resumed = texts
      .filter((text) => !known.has(text.localId))
      .map((text): OutgoingText => {
        const expired = now() - text.confirmedAt >= AUTO_RETRY_WINDOW_MS;
        return expired
          ? {
              ...text,
              state: 'failed',
              finishedAt: now(),
              reason:
                'Confirmed over 23 h ago and never confirmed sent: check the thread before sending again.',
            }
          : { ...text, state: 'waiting', reason: why };
      });
    if (resumed.length === 0) return 0;
    this.context.store.setState((state) => ({ outbox: trim([...state.outbox, ...resumed]) }));
    void this.persist();
    const waiting = resumed.filter((text) => text.state === 'waiting');
    for (const text of waiting) void this.attempt(text.localId);
    return waiting.length;
  }

  /** Confirmed by staff: fix the key and body now, then send. */
  confirm(target: ComposerTarget, body: string): OutgoingText {
    const { store, now } = this.context;
    const text: OutgoingText = {
      localId: randomUUID(),
      contactId: target.contactId,
      contactName: target.name,
      phone: target.phone,
      ...(target.leadId ? { leadId: target.leadId } : {}),
      body,
      idempotencyKey: randomUUID(),
      confirmedAt: now(),
      state: 'sending',
      attempts: 0,
    };
    store.setState((state) => {
      const composed = { ...state.composed };
      delete composed[target.contactId];
      const outbox = trim([...state.outbox, text]);
      return {
        outbox,
        textIdsBeforeSend: idsBeforeSend(state, outbox, text),
        composed,
        prompt: undefined,
        composer: undefined,
      };
    });
    // On disk before the first attempt: a crash after the text went out must retry with this key, not lose it.
    void this.persist().then(() => this.attempt(text.localId));
    return text;
  }

  /**
   * Stops automatic retries and cancels sends in flight (on quit, or a refused
   * key), so the process can exit at once; a cancelled text stays in the
   * outbox file and the next start with the same key resumes it.
   */
  close(): void {
    this.closed = true;
    this.inFlight.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Resolves when the outbox on disk reflects every change so far (tests, quitting). */
  saved(): Promise<void> {
    return this.lastSave;
  }

  private persist(): Promise<void> {
    this.lastSave = this.writeOutbox();
    return this.lastSave;
  }

  /** Writes the texts still sending or waiting; a failure to write is shown, and sending goes on. */
  private async writeOutbox(): Promise<void> {
    if (!this.persistence) return;
    const pending = this.context.store
      .getState()
      .outbox.filter(
        (text) => (text.state === 'sending' || text.state === 'waiting') && !this.retired.has(text.localId),
      );
    try {
      await this.persistence.save(pending);
    } catch (error) {
      notify(
        this.context,
        `Could not save the outbox (${(error as Error).message}): a text being sent would not be retried after a crash.`,
        'warning',
      );
    }
  }

  private update(localId: string, patch: Partial<OutgoingText>): OutgoingText | undefined {
    if (this.retired.has(localId)) return undefined;
    let updated: OutgoingText | undefined;
    this.context.store.setState((state) => ({
      outbox: state.outbox.map((text) => {
        if (text.localId !== localId) return text;
        updated = { ...text, ...patch };
        return updated;
      }),
    }));
    return updated;
  }

  private async attempt(localId: string): Promise<void> {
    this.timers.delete(localId);
    const { client, now } = this.context;
    const text = this.context.store.getState().outbox.find((item) => item.localId === localId);
    if (!text || this.closed || this.retired.has(localId)) return;
    // Every request is paused (429): wait it out here rather than inside the call, whose deadline would expire.
    const pausedUntil = this.context.pausedUntil?.();
    if (pausedUntil !== undefined) {
      this.update(localId, {
        state: 'waiting',
        reason: "the shop's API asked for a pause (rate limited); sending when it ends.",
        retryAt: pausedUntil,
      });
      const timer = setTimeout(() => void this.attempt(localId), Math.max(0, pausedUntil - now()) + 50);
      timer.unref?.();
      this.timers.set(localId, timer);
      return;
    }
    this.update(localId, { state: 'sending', attempts: text.attempts + 1 });
    try {
      const result = await client.sendText(text.contactId, text.body, {
        idempotencyKey: text.idempotencyKey,
        signal: this.inFlight.signal,
      });
      if (this.retired.has(localId)) return;
      this.update(localId, {
        state: result.replayed ? 'replayed' : 'sent',
        finishedAt: now(),
        reason: undefined,
      });
      void this.persist();
      notify(
        this.context,
        result.replayed
          ? `Already sent to ${text.contactName}: the service recognised the text and sent nothing new.`
          : `Sent to ${text.contactName}.`,
        'success',
      );
      // A reply may answer missed calls and move leads on: the lists and the counts are read again.
      this.context.poller.invalidate(
        { kind: 'inbox', filter: 'callbacks' },
        { kind: 'me' },
        { kind: 'inbox', filter: 'open' },
      );
      void findSentCopy(this.context, text).catch(() => undefined);
    } catch (error) {
      this.failed(text, error);
    }
  }

  private failed(text: OutgoingText, error: unknown): void {
    if (this.retired.has(text.localId)) return;
    const { now } = this.context;
    const reason = error instanceof ApiError ? explainApiError(error) : String(error);
    const transient = error instanceof ApiError && TRANSIENT.has(error.code) && !error.local;
    const age = now() - text.confirmedAt;
    const keyRefused =
      error instanceof ApiError && (error.code === 'unauthorized' || error.code === 'no_subscription');
    if (keyRefused) {
      // Nothing was sent. The text belongs to this key: its outbox keeps it, and no other key sends it.
      this.update(text.localId, {
        state: 'waiting',
        reason: `${reason} It stays in this key’s outbox, and is sent only if the shop accepts this key again.`,
      });
      return;
    }
    if (this.closed && (transient || (error instanceof ApiError && error.code === 'aborted'))) {
      // Stopped (quitting): the outbox file keeps it for the next run.
      this.update(text.localId, {
        state: 'waiting',
        reason: `${reason} It will be tried again at the next start.`,
      });
      return;
    }
    if (transient && age < AUTO_RETRY_WINDOW_MS) {
      const attempts =
        this.context.store.getState().outbox.find((item) => item.localId === text.localId)?.attempts ?? 1;
      const step = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempts - 1));
      const wait = Math.max(step, ((error as ApiError).retryAfter ?? 0) * 1000);
      const retryAt = now() + wait;
      this.update(text.localId, { state: 'waiting', reason, retryAt });
      void this.persist();
      notify(
        this.context,
        `Not confirmed yet for ${text.contactName}: ${reason} Trying again with the same key.`,
        'warning',
      );
      const timer = setTimeout(() => void this.attempt(text.localId), wait);
      timer.unref?.();
      this.timers.set(text.localId, timer);
      return;
    }
    this.update(text.localId, {
      state: 'failed',
      reason: transient ? `${reason} Not retried after 23 h: check the thread before sending again.` : reason,
      finishedAt: now(),
    });
    void this.persist();
    if (error instanceof ApiError && error.code === 'read_only' && !error.local)
      enterReadOnlyFromServer(this.context);
    if (!transient) this.restoreToComposer(text);
    notify(this.context, `Not sent to ${text.contactName}: ${reason}`, 'error');
  }

  /** A refused text goes back to its contact's composer, unless staff already typed something new. */
  private restoreToComposer(text: OutgoingText): void {
    this.context.store.setState((state) =>
      state.composed[text.contactId]?.text
        ? {}
        : { composed: { ...state.composed, [text.contactId]: lineOf(text.body) } },
    );
  }
}

/** The ids of the contact's texts read so far, kept for the new text (and only for texts still in the outbox). */
function idsBeforeSend(
  state: AppState,
  outbox: readonly OutgoingText[],
  text: OutgoingText,
): AppState['textIdsBeforeSend'] {
  const kept: AppState['textIdsBeforeSend'] = {};
  for (const { localId } of outbox) {
    const ids = state.textIdsBeforeSend[localId];
    if (ids) kept[localId] = ids;
  }
  kept[text.localId] = contactTexts(state, text.contactId).map((message) => message.id);
  return kept;
}

function trim(outbox: OutgoingText[]): OutgoingText[] {
  const finished = outbox.filter(
    (text) => text.state === 'sent' || text.state === 'replayed' || text.state === 'failed',
  );
  if (finished.length <= KEEP_FINISHED) return outbox;
  const drop = new Set(finished.slice(0, finished.length - KEEP_FINISHED).map((text) => text.localId));
  return outbox.filter((text) => !drop.has(text.localId));
}
