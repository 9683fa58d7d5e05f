/**
 * Sending a text, after staff answered y to "send to NAME (PHONE)?". Every
 * notice about it names the recipient the same way, name and number.
 *
 * The Idempotency-Key is made at that moment and stored with the exact body
 * before the first attempt; every later attempt reuses both, so no failure,
 * retry or repeated key press can text a customer twice. Nothing is sent
 * before that record is on disk: when it cannot be written (a full disk, a
 * read-only one…), the text is not sent and goes back into the composer, and
 * staff are told why, rather than told it would be retried when it could not.
 * A failure that may have happened after the text went out (network,
 * timeout, 5xx, 429) is tried again later with the same key, until the key's
 * 24 h replay window is nearly over. A refusal (no number, texting inactive,
 * read-only…) is final, and the text goes back into its contact's composer:
 * nothing typed is lost. A refused key
 * (401, or a plan without the API) is no refusal of the text: it waits in
 * that key's outbox, and no other key ever sends it.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { OutboxDamageReport, OutboxPersistence } from '../outbox/outbox-file.js';
import type { AppState, ComposerTarget, OutgoingText } from '../store/app-store.js';
import { plural } from '../store/counts.js';
import { withUnsentText } from '../store/line-editor.js';
import { recipientLabel } from '../text/recipient.js';
import { type ActionContext, enterReadOnlyFromServer, notify } from './context.js';
import { findSentCopy } from './find-sent-copy.js';
import { contactTexts } from './pre-send-facts.js';
import type { Delivery } from './send-outcome.js';

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
  /** Going on after a switch of shop: no composer of its shop is on screen (see goOnInBackground). */
  private inBackground = false;
  private inFlight = new AbortController();
  private lastSave: Promise<void> = Promise.resolve();
  /** Texts whose record is on disk: written before their first attempt, or taken over from the file. */
  private readonly recorded = new Set<string>();
  /** What was found damaged in the outbox file and not yet said. */
  private damageFound: string[] = [];
  /** Told what becomes of a text's first attempt (`deliver`); each is told once. */
  private readonly firstOutcome = new Map<string, (delivery: Delivery) => void>();

  constructor(
    /** The screen's, or (after a switch of shop) a context of its own shop alone: see goOnInBackground. */
    private context: ActionContext,
    /** Where confirmed texts wait until they are known sent; none in the demo. */
    private persistence?: OutboxPersistence,
    private readonly retry: { baseMs: number; maxMs: number } = DEFAULT_SEND_RETRY,
  ) {
    this.watchDamage(persistence);
  }

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
      notify(
        this.context,
        `Could not read the outbox: ${(error as Error).message}. Texts waiting in it are sent once it can be read (looked at every minute).`,
        'warning',
      );
      return;
    }
    const others = await persistence.keptForOtherKeys?.().catch(() => undefined);
    if (persistence !== this.persistence) {
      // The key changed while the file was read: these texts stay with their key.
      await persistence.release?.().catch(() => {});
      return;
    }
    const waiting = this.takeOver(texts, 'confirmed in an earlier session; trying again with the same key');
    const parts = this.takeDamageFound();
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
    const parts = this.takeDamageFound();
    if (waiting > 0) {
      parts.push(
        `Sending ${waiting} unconfirmed ${waiting === 1 ? 'text' : 'texts'} left by a shop-inbox that stopped.`,
      );
    }
    if (parts.length > 0) notify(this.context, parts.join(' '), 'warning');
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
      if (text.state !== 'sending' && text.state !== 'waiting') continue;
      this.retired.add(text.localId);
      this.settle(text.localId, {
        kind: 'parked',
        text,
        reason: 'kept in the outbox of the key the shop refused',
      });
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
    this.watchDamage(persistence);
    await this.resume();
  }

  /**
   * Another shop goes on screen: the texts confirmed here and not yet known sent go on being sent, with
   * this shop's client, key and outbox, in `background` (a store of their own, so that nothing of this
   * shop reaches the new shop's lists). What becomes of them is said in `background`'s store. Returns
   * how many go on; with none, call `finish`.
   */
  goOnInBackground(background: ActionContext): number {
    const going = this.context.store.getState().outbox.filter(isUnderWay);
    // Their first outcome was awaited by the screen left: it no longer shows it.
    for (const text of going)
      this.settle(text.localId, { kind: 'parked', text, reason: 'goes on in the background' });
    background.store.setState({ outbox: going });
    this.context = background;
    this.inBackground = true;
    return going.length;
  }

  /** Back on screen (its shop was switched to again): its texts under way join the screen's outbox. */
  comeBack(context: ActionContext): void {
    const going = this.context.store.getState().outbox.filter(isUnderWay);
    context.store.setState((state) => ({ outbox: trim([...state.outbox, ...going]) }));
    this.context = context;
    this.inBackground = false;
  }

  /** Whether a text of this sender is still sending or waiting to be tried again. */
  underWay(): boolean {
    return this.context.store.getState().outbox.some(isUnderWay);
  }

  /** Done with (its texts are known sent, or it is not needed): stops, and gives its outbox up. */
  async finish(): Promise<void> {
    this.close();
    await this.lastSave;
    await this.persistence?.release?.().catch(() => {});
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
    for (const text of resumed) this.recorded.add(text.localId);
    this.context.store.setState((state) => ({ outbox: trim([...state.outbox, ...resumed]) }));
    this.persist();
    const waiting = resumed.filter((text) => text.state === 'waiting');
    for (const text of waiting) void this.attempt(text.localId);
    return waiting.length;
  }

  /** As `confirm`; resolves with what became of the first attempt (sent, replayed, parked or refused). */
  deliver(target: ComposerTarget, body: string): Promise<Delivery> {
    return new Promise((resolve) => {
      this.confirm(target, body, resolve);
    });
  }

  private settle(localId: string, delivery: Delivery): void {
    const tell = this.firstOutcome.get(localId);
    this.firstOutcome.delete(localId);
    tell?.(delivery);
  }

  /** Confirmed by staff: fix the key and body now, then send. */
  confirm(target: ComposerTarget, body: string, told?: (delivery: Delivery) => void): OutgoingText {
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
    if (told) this.firstOutcome.set(text.localId, told);
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
    if (!this.persistence) {
      void this.attempt(text.localId);
      return text;
    }
    // On disk before the first attempt: a crash after the text went out must retry with this key, not lose
    // it. A text that cannot be recorded is not sent at all.
    this.write(text.localId).then(
      () => {
        this.sayDamageFound();
        void this.attempt(text.localId);
      },
      (error: unknown) => this.notRecorded(text, target, error),
    );
    return text;
  }

  /** Its record could not be written: nothing was sent, and the text goes back to its composer. */
  private notRecorded(text: OutgoingText, target: ComposerTarget, error: unknown): void {
    const why = (error as Error).message;
    this.update(text.localId, {
      state: 'failed',
      finishedAt: this.context.now(),
      reason: `Not sent: it could not be saved in the outbox first (${why}).`,
    });
    // In the file, though not known durable: taken out again, so that no later start sends what staff were
    // told is not sent. Said only if that fails too (the notice below is the one that matters).
    if ((error as { written?: boolean }).written) this.write().catch(() => {});
    let inComposer = false;
    this.context.store.setState((state) => {
      const composed = {
        ...state.composed,
        [text.contactId]: withUnsentText(state.composed[text.contactId], text.body),
      };
      // Reopened only where nothing else has the keyboard: keys meant for something else never become text.
      const reopen =
        !state.composer &&
        !state.composerWaiting &&
        !state.prompt &&
        !state.palette &&
        !state.helpOpen &&
        !state.logOpen &&
        !state.searching &&
        !state.readOnly &&
        !state.fatal;
      inComposer = reopen || state.composer?.contactId === text.contactId;
      return reopen ? { composed, composer: target } : { composed };
    });
    this.settle(text.localId, { kind: 'refused', target, reason: { kind: 'not-recorded', why } });
    const damage = this.takeDamageFound();
    notify(
      this.context,
      [
        ...damage,
        `Not sent to ${recipientOf(text)}: a text is sent only once it is saved in the outbox, and ${why}.`,
        inComposer
          ? 'The text is back in the composer.'
          : `The text is kept in the composer for ${recipientOf(text)}: c on them opens it.`,
      ].join(' '),
      'error',
    );
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

  /**
   * Queues a write of the outbox. Writes run one after another, each with
   * the texts of its own moment: those recorded, and `recording`, a text just
   * confirmed whose record this write is (it counts as recorded once the
   * write resolved). Rejects when the file could not be written.
   */
  private write(recording?: string): Promise<void> {
    const run = this.lastSave.then(async () => {
      const persistence = this.persistence;
      if (!persistence) return;
      const pending = this.context.store
        .getState()
        .outbox.filter(
          (text) =>
            (text.state === 'sending' || text.state === 'waiting') &&
            !this.retired.has(text.localId) &&
            (this.recorded.has(text.localId) || text.localId === recording),
        );
      await persistence.save(pending);
      if (recording) this.recorded.add(recording);
    });
    this.lastSave = run.catch(() => {});
    return run;
  }

  /** Writes what changed (sent, waiting, failed); a failure is said, and sending goes on. */
  private persist(): void {
    this.write().then(
      () => this.sayDamageFound(),
      (error: unknown) => {
        const damage = this.takeDamageFound();
        notify(
          this.context,
          [
            ...damage,
            `Could not update the outbox: ${(error as Error).message}. A text sent since may be tried again at the next start, with its same key: the service then sends nothing new.`,
          ].join(' '),
          'warning',
        );
      },
    );
  }

  /** Damage found in the outbox file is said with whatever is said next about the outbox. */
  private watchDamage(persistence: OutboxPersistence | undefined): void {
    persistence?.onDamage?.((damage) => {
      if (persistence === this.persistence) this.damageFound.push(describeDamage(damage));
    });
  }

  private takeDamageFound(): string[] {
    const found = this.damageFound;
    this.damageFound = [];
    return found;
  }

  private sayDamageFound(): void {
    const found = this.takeDamageFound();
    if (found.length > 0) notify(this.context, found.join(' '), 'warning');
  }

  private update(localId: string, patch: Partial<OutgoingText>): OutgoingText | undefined {
    if (this.retired.has(localId)) return undefined;
    if (patch.state === 'sent' || patch.state === 'replayed' || patch.state === 'failed') {
      this.recorded.delete(localId);
    }
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

  /** Waits with its key: its first outcome, if not told yet, is "parked". */
  private park(localId: string, patch: Partial<OutgoingText> & { reason: string }): void {
    const waiting = this.update(localId, patch);
    if (waiting)
      this.settle(localId, {
        kind: 'parked',
        text: waiting,
        reason: patch.reason,
        ...(patch.retryAt !== undefined ? { retryAt: patch.retryAt } : {}),
      });
  }

  private async attempt(localId: string): Promise<void> {
    this.timers.delete(localId);
    const { client, now } = this.context;
    const text = this.context.store.getState().outbox.find((item) => item.localId === localId);
    if (!text || this.closed || this.retired.has(localId)) {
      // Stopped (quitting, another key) before it could be tried: the outbox file keeps it, with its key.
      if (text) this.settle(localId, { kind: 'parked', text, reason: 'stopped before it could be sent' });
      return;
    }
    // Every request is paused (429): wait it out here rather than inside the call, whose deadline would expire.
    const pausedUntil = this.context.pausedUntil?.();
    if (pausedUntil !== undefined) {
      this.park(localId, {
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
      this.context.keyMode?.accepted();
      const done = this.update(localId, {
        state: result.replayed ? 'replayed' : 'sent',
        finishedAt: now(),
        reason: undefined,
      });
      if (done) this.settle(localId, { kind: result.replayed ? 'replayed' : 'sent', text: done });
      this.persist();
      notify(
        this.context,
        result.replayed
          ? `Already sent to ${recipientOf(text)}: the service recognised the text and sent nothing new.`
          : `Sent to ${recipientOf(text)}.`,
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
      this.park(text.localId, {
        state: 'waiting',
        reason: `${reason} It stays in this key’s outbox, and is sent only if the shop accepts this key again.`,
      });
      return;
    }
    if (this.closed && (transient || (error instanceof ApiError && error.code === 'aborted'))) {
      // Stopped (quitting): the outbox file keeps it for the next run.
      this.park(text.localId, {
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
      this.park(text.localId, { state: 'waiting', reason, retryAt });
      this.persist();
      notify(
        this.context,
        `Not confirmed yet for ${recipientOf(text)}: ${reason} Trying again with the same key.`,
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
    this.persist();
    const readOnly = error instanceof ApiError && error.code === 'read_only';
    this.settle(text.localId, {
      kind: 'refused',
      target: targetOf(text),
      reason: { kind: readOnly ? 'read-only' : 'shop', why: reason },
    });
    if (readOnly && !error.local) enterReadOnlyFromServer(this.context);
    const back = transient ? '' : ` ${this.restoreToComposer(text)}`;
    notify(this.context, `Not sent to ${recipientOf(text)}: ${reason}${back}`, 'error');
  }

  /**
   * A refused text goes back into its contact's composer, wherever staff are now; text typed for that
   * contact since stays after it, so that nothing is lost. Says where it went.
   */
  private restoreToComposer(text: OutgoingText): string {
    const recipient = recipientOf(text);
    // No composer of this shop is on screen, and this sender may be done with before its shop is again:
    // the words themselves are said (status line and log), so that nothing typed is lost unseen.
    if (this.inBackground) return `Its text was: “${text.body}”.`;
    let where = `The text is back in the composer for ${recipient}.`;
    this.context.store.setState((state) => {
      const since = state.composed[text.contactId];
      const merged = withUnsentText(since, text.body);
      if (merged === since) return {};
      if (since?.text)
        where = `The text is back in the composer for ${recipient}, above what was typed since.`;
      return { composed: { ...state.composed, [text.contactId]: merged } };
    });
    return where;
  }
}

/** "The outbox file was damaged: 2 texts recovered…; 143 bytes that could not be read are kept in …". */
function describeDamage(damage: OutboxDamageReport): string {
  const recovered =
    damage.recoveredForKey > 0
      ? `${plural(damage.recoveredForKey, 'text')} recovered and sent as usual`
      : 'no text of this key could be recovered from it';
  const kept =
    damage.unreadableBytes > 0
      ? `${plural(damage.unreadableBytes, 'byte')} that could not be read ${damage.unreadableBytes === 1 ? 'is' : 'are'} kept in ${damage.keptAt}`
      : `the file as it was is kept in ${damage.keptAt}`;
  const cut = damage.incomplete
    ? ' It was cut short: a text confirmed after those may be missing, so check the latest threads.'
    : '';
  return `The outbox file was damaged: ${recovered}; ${kept}.${cut}`;
}

const targetOf = (text: OutgoingText): ComposerTarget => ({
  contactId: text.contactId,
  name: text.contactName,
  phone: text.phone,
  ...(text.leadId ? { leadId: text.leadId } : {}),
});

/** "Tom Kowalski (+15035550117)": two customers may share a name, never a number. */
const recipientOf = (text: OutgoingText) => recipientLabel({ name: text.contactName, phone: text.phone });

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

function isUnderWay(text: OutgoingText): boolean {
  return text.state === 'sending' || text.state === 'waiting';
}

function trim(outbox: OutgoingText[]): OutgoingText[] {
  const finished = outbox.filter(
    (text) => text.state === 'sent' || text.state === 'replayed' || text.state === 'failed',
  );
  if (finished.length <= KEEP_FINISHED) return outbox;
  const drop = new Set(finished.slice(0, finished.length - KEEP_FINISHED).map((text) => text.localId));
  return outbox.filter((text) => !drop.has(text.localId));
}
