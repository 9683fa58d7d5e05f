/**
 * The process-wide request scheduler. Every attempt the client makes waits
 * here first, so the whole process stays within its share of the token's
 * 120 requests a minute (all terminals of a shop share one token), and a 429's
 * Retry-After pauses everything, not just the call that got it.
 *
 * User actions (sends, approvals, drafts) jump the queue ahead of polls.
 * Background reads keep to `maxPerMinute`, the quiet rate; reads that catch
 * up with the shop (the threads to read for a new text, or never read) may
 * burst up to `burstPerMinute` while the window has room, and so may staff's
 * writes, which never wait behind the inbox's own bursts.
 *
 * On top of the window sits additive increase, multiplicative decrease (AIMD),
 * for the shop's other users this process cannot see (another user's hub,
 * another machine on the same key): a 429 halves the rate it was at (the
quiet rate, or more in a burst), then
 * it grows back by one request a minute every `increaseEveryMs` (eight times
 * more slowly once near the rate that met the 429), so that
 * several processes on one key settle below the shop's limit instead of
 * taking turns at 429 storms.
 *
 * A client of the box's hub that reads the shop on its own while the hub is
 * silent takes only its share of the rate (`setShare`), so that all the
 * terminals standing in together stay within the box's budget. The hub
 * itself sets a gate (`setGate`): once another terminal has taken over from
 * it, nothing more starts. A slot is granted some time before its request is
 * written (a new connection is made and checked first; the process may be
 * stopped meanwhile), so the grant is confirmed again just before the write
 * (`Grant.confirm`), against the gate it was granted under as well as the
 * one in force then: a request granted to a hub that has since been taken
 * over is never sent, even once this process reads through the new hub.
 */

/**
 * `user`: what staff wait for (writes), first in line; `poll`: background reads, within `maxPerMinute`;
 * `burst`: reads catching up with the shop (a new text to name, threads never read), which may go past
 * `maxPerMinute` up to `burstPerMinute` while the window has room. Staff's writes may use that room too:
 * they never wait behind the inbox's own bursts.
 */
export type RequestPriority = 'user' | 'poll' | 'burst';

export interface RequestBudgetOptions {
  /** Requests allowed in any 60 s window (the quiet rate of background reads). */
  maxPerMinute: number;
  /**
   * Requests allowed in any 60 s window for bursts and staff's writes (default `maxPerMinute`): the key's
   * 120 a minute are the whole shop's, so a burst uses what the others leave, and AIMD cuts it at a 429.
   */
  burstPerMinute?: number;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  /** AIMD after a 429: the rate grows back by one request a minute this often (default 30 s). */
  increaseEveryMs?: number;
  /** The rate is never cut below this (default 2 a minute). */
  minPerMinute?: number;
}

/** What a slot was granted under. */
export interface Grant {
  /**
   * Called just before the request is written: throws the gate's refusal if
   * the gate it was granted under, or the one in force now, refuses it.
   */
  confirm(): void;
}

type Gate = () => unknown;

interface Waiter {
  priority: RequestPriority;
  resolve: (grant: Grant) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

const WINDOW_MS = 60_000;
/** After a cut the rate grows back quickly up to this share of the rate that met the 429… */
const NEAR_THE_LAST_LIMIT = 0.85;
/** …and this many times more slowly above it. */
const SLOW_NEAR_THE_LAST_LIMIT = 8;

export class RequestBudget {
  readonly maxPerMinute: number;
  readonly burstPerMinute: number;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;
  /** Start times of the requests in the current window, oldest first. */
  private readonly started: number[] = [];
  /** Start times of the background reads among them: the quiet limit counts these alone. */
  private readonly pollsStarted: number[] = [];
  private readonly waiters: Waiter[] = [];
  private pausedUntilMs = 0;
  private timer: unknown;
  private readonly listeners = new Set<() => void>();
  private readonly increaseEveryMs: number;
  private readonly minPerMinute: number;
  /** The rate a 429 cut to, and from when it grows back (the end of that 429's pause). */
  private cut: { perMinute: number; growsFromMs: number; from: number } | undefined;
  /** 429s answered before this moment belong to the burst that was already cut for. */
  private cutHoldsUntilMs = 0;
  private cuts = 0;
  /** How many terminals share the rate (see setShare). */
  private share = 1;
  private gate: Gate | undefined;

  constructor(options: RequestBudgetOptions) {
    if (!Number.isInteger(options.maxPerMinute) || options.maxPerMinute < 1) {
      throw new RangeError('the request budget must be a whole number of requests per minute, at least 1');
    }
    this.maxPerMinute = options.maxPerMinute;
    this.burstPerMinute = Math.max(options.maxPerMinute, Math.floor(options.burstPerMinute ?? 0));
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms).unref());
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as NodeJS.Timeout));
    this.increaseEveryMs = options.increaseEveryMs ?? 30_000;
    this.minPerMinute = Math.min(this.maxPerMinute, Math.max(1, options.minPerMinute ?? 2));
  }

  /**
   * Requests allowed in any 60 s window right now: `maxPerMinute`, or less
   * after a 429 (halved, then one more a minute every `increaseEveryMs`),
   * divided by the share while there is one (at least 1).
   */
  get limit(): number {
    return this.shared(this.wholeLimit);
  }

  /** Requests allowed in any 60 s window right now for bursts and staff's writes (as `limit`, from `burstPerMinute`). */
  get burstLimit(): number {
    return this.shared(this.ceiling);
  }

  /** The limit of requests of this priority. */
  limitFor(priority: RequestPriority): number {
    return priority === 'poll' ? this.limit : this.burstLimit;
  }

  private shared(whole: number): number {
    return this.share > 1 ? Math.max(1, Math.floor(whole / this.share)) : whole;
  }

  /**
   * This process reads for itself alone while `terminals` processes share
   * the rate it would have (the clients of a silent hub, standing in for it
   * each on its own): it takes 1/`terminals` of it. 1 gives it all back.
   */
  setShare(terminals: number): void {
    const share = Math.max(1, Math.floor(terminals));
    if (share === this.share) return;
    this.share = share;
    this.changed();
    this.drain();
  }

  /** How many terminals the rate is shared with (1: none). */
  get sharedWith(): number {
    return this.share;
  }

  /**
   * Asked before each request starts, and again just before it is written:
   * a value (the reason) refuses it, and every other request waiting, which
   * then reject with that reason. A gate that refuses when set refuses what
   * waits at once. undefined removes the gate (what was granted under an
   * earlier one is still confirmed against that one).
   */
  setGate(gate: Gate | undefined): void {
    this.gate = gate;
    if (gate !== undefined && this.waiters.length > 0) this.drain();
  }

  /** The quiet limit before any share. */
  private get wholeLimit(): number {
    return Math.min(this.maxPerMinute, this.ceiling);
  }

  /** The burst limit before any share: what AIMD cuts and grows (the quiet limit is never above it). */
  private get ceiling(): number {
    const cut = this.cut;
    if (!cut) return this.burstPerMinute;
    // One more a minute every step up to near the rate that met the 429, then eight times slower up to that
    // rate: several processes on one key spend long just under the shop's limit, not crossing it. Past it
    // (a 429 met at the quiet rate, the burst limit above it), one a step again.
    const steps = Math.max(0, Math.floor((this.now() - cut.growsFromMs) / this.increaseEveryMs));
    const fastTo = Math.max(cut.perMinute, Math.floor(cut.from * NEAR_THE_LAST_LIMIT));
    const fastSteps = fastTo - cut.perMinute;
    const slowSteps = Math.max(0, cut.from - fastTo) * SLOW_NEAR_THE_LAST_LIMIT;
    const grown =
      steps <= fastSteps
        ? cut.perMinute + steps
        : steps <= fastSteps + slowSteps
          ? fastTo + Math.floor((steps - fastSteps) / SLOW_NEAR_THE_LAST_LIMIT)
          : Math.max(fastTo, cut.from) + (steps - fastSteps - slowSteps);
    if (grown >= this.burstPerMinute) {
      this.cut = undefined;
      return this.burstPerMinute;
    }
    return grown;
  }

  /** How many times a 429 halved the rate (for the status and the bench). */
  get rateCuts(): number {
    return this.cuts;
  }

  /**
   * The shop answered 429: pause everything until `untilMs` (its Retry-After)
   * and halve the rate. The 429s of one burst (answers to requests already
   * under way, before the pause they cause has ended) halve it once.
   */
  rateLimited(untilMs: number): void {
    const now = this.now();
    if (now >= this.cutHoldsUntilMs) {
      // The rate this process was at: its quiet limit, or more in a burst.
      this.forgetOld();
      const from = Math.max(this.wholeLimit, Math.min(this.ceiling, this.started.length));
      this.cut = { perMinute: Math.max(this.minPerMinute, Math.floor(from / 2)), growsFromMs: untilMs, from };
      this.cutHoldsUntilMs = Math.max(untilMs, now + 1_000);
      this.cuts += 1;
    }
    this.pauseUntil(untilMs);
  }

  /**
   * Resolves when a request may start; it is counted from that moment. Its
   * grant is to be confirmed just before the request is written.
   */
  acquire(priority: RequestPriority = 'poll', signal?: AbortSignal): Promise<Grant> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Grant>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.remove(waiter);
          reject(signal?.reason);
          this.changed();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      // User actions go before every waiting read, after earlier user actions.
      const index = priority === 'user' ? this.waiters.findIndex((other) => other.priority !== 'user') : -1;
      if (index === -1) this.waiters.push(waiter);
      else this.waiters.splice(index, 0, waiter);
      this.drain();
    });
  }

  /** Stops every request until `untilMs` (a 429's Retry-After). Never shortens a pause. */
  pauseUntil(untilMs: number): void {
    if (untilMs <= this.pausedUntilMs) return;
    this.pausedUntilMs = untilMs;
    this.changed();
    this.drain();
  }

  get pausedUntil(): number | undefined {
    return this.pausedUntilMs > this.now() ? this.pausedUntilMs : undefined;
  }

  /** Background reads that may start right now without waiting. */
  get available(): number {
    return this.availableFor('poll');
  }

  /**
   * Requests of this priority that may start right now without waiting: every request counts against the
   * burst limit, and background reads against the quiet limit as well (a burst never holds up the quiet
   * reads that keep the screen current, nor do they hold up a burst beyond the quiet rate).
   */
  availableFor(priority: RequestPriority): number {
    if (this.pausedUntil !== undefined) return 0;
    this.forgetOld();
    const all = this.burstLimit - this.started.length;
    return Math.max(0, priority === 'poll' ? Math.min(all, this.limit - this.pollsStarted.length) : all);
  }

  /** Requests started in the last minute. */
  get usedInLastMinute(): number {
    this.forgetOld();
    return this.started.length;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** When the next request of this priority could start (now if one can). */
  nextSlotAt(priority: RequestPriority = 'poll'): number {
    const now = this.now();
    this.forgetOld();
    // After a cut the window may hold more than the new limit: the oldest of the excess leaves first.
    const free = (starts: readonly number[], limit: number) =>
      starts.length < limit ? now : (starts[starts.length - limit] ?? now) + WINDOW_MS;
    const windowFree = Math.max(
      free(this.started, this.burstLimit),
      priority === 'poll' ? free(this.pollsStarted, this.limit) : now,
    );
    return Math.max(windowFree, this.pausedUntilMs, now);
  }

  /** Called whenever the pause or the waiting line changes (for the status bar). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Rejects everything waiting; used on shutdown. */
  close(reason: unknown = new Error('closed')): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(reason);
    }
  }

  private forgetOld(): void {
    const cutoff = this.now() - WINDOW_MS;
    while (this.started.length > 0 && (this.started[0] ?? 0) <= cutoff) this.started.shift();
    while (this.pollsStarted.length > 0 && (this.pollsStarted[0] ?? 0) <= cutoff) this.pollsStarted.shift();
  }

  private remove(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index !== -1) this.waiters.splice(index, 1);
  }

  private drain(): void {
    if (this.timer !== undefined) {
      this.clearTimer(this.timer);
      this.timer = undefined;
    }
    while (this.waiters.length > 0) {
      // Asked first: what waits for a slot under a gate that refuses now is refused now, not when its slot comes.
      const refusal = this.gate?.();
      if (refusal !== undefined) {
        for (const refused of this.waiters.splice(0)) {
          refused.signal?.removeEventListener('abort', refused.onAbort);
          refused.reject(refusal);
        }
        break;
      }
      const at = this.nextSlotAt((this.waiters[0] as Waiter).priority);
      const now = this.now();
      if (at > now) {
        this.timer = this.setTimer(() => {
          this.timer = undefined;
          this.drain();
        }, at - now);
        return;
      }
      const waiter = this.waiters.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.started.push(now);
      if (waiter.priority === 'poll') this.pollsStarted.push(now);
      waiter.resolve(this.grantUnder(this.gate));
    }
    this.changed();
  }

  private grantUnder(grantedUnder: Gate | undefined): Grant {
    return {
      confirm: () => {
        const refusal = grantedUnder?.() ?? (this.gate === grantedUnder ? undefined : this.gate?.());
        if (refusal !== undefined) throw refusal;
      },
    };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
