/**
 * The background poller: the only caller of the client besides user actions.
 * The first screen (header, visible list, the thread beside it) is read side
 * by side at start; after that, one read at a time, the most overdue first,
 * what is visible more often than what is not; each read waits for the
 * request budget. It keeps the last data
 * on screen when a read fails: a 429 pauses everything for its Retry-After,
 * 5xx and network failures back off (capped, jittered), and a 401 or a 403
 * no_subscription stops it with an explanation, since no retry can fix those.
 */
import type { ShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { ShopOverview } from '../contract/resources.js';
import type { AppStore } from '../store/app-store.js';
import { LIST_LIMIT } from '../store/counts.js';
import { readSlot, readTimeOf, type Slot, type SlotData, slotKey } from './reads.js';
import {
  contactsForNewTexts,
  DEFAULT_INTERVALS,
  listsBehindMe,
  NOTHING_VISIBLE,
  plan,
  type RefreshIntervals,
  type VisibleSlots,
} from './refresh-plan.js';
import type { RequestBudget, RequestPriority } from './request-budget.js';
import { failureOf, markLoading, storeData, storeFailure } from './store-writes.js';

export interface PollerOptions {
  client: ShopClient;
  store: AppStore;
  budget: RequestBudget;
  intervals?: Partial<RefreshIntervals>;
  /** What the screen shows now, read more often (the UI's panes say; without a screen, nothing). */
  visibleSlots?: VisibleSlots;
  /** Page size of every list read (the reference allows 1–100; default 100, so a list is whole or says it is not). */
  pageSize?: number;
  /** Backoff after a failed read: first wait and ceiling. */
  backoff?: { baseMs: number; maxMs: number };
  now?: () => number;
  random?: () => number;
}

const DEFAULT_BACKOFF = { baseMs: 2_000, maxMs: 60_000 };

interface NextRead {
  slot: Slot;
  dueAt: number;
  /** When it may start: when it is due, or later when its share of the budget is spent until then. */
  startAt: number;
  /** Asked for by a key press: read before anything else, from staff's share of the budget too. */
  urgent: boolean;
  picture?: 'burst' | 'paced';
  /** Read as a burst (src/poller/request-budget.ts): catching up with the shop. */
  burst?: boolean;
}

/** A thread shown because the selection moved onto it is read once the selection rests this long. */
const LEAD_SETTLE_MS = 200;

/** Part of the budget kept free for what staff do (sends, approvals, refresh keys). */
const RESERVED_FOR_USERS = 0.2;
/**
 * Reads of one record or one search (a lead's thread, a contacts query) whose time is kept: a wallboard or
 * an inbox open for weeks reads thousands of threads. The oldest are forgotten (read again as new if they
 * come back on screen); the lists' own reads are always kept.
 */
export const KEPT_RECORD_READS = 500;

function dedupe(slots: Slot[]): Slot[] {
  const seen = new Set<string>();
  return slots.filter((slot) => {
    const key = slotKey(slot);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export class Poller {
  private readonly client: ShopClient;
  private readonly store: AppStore;
  private budget: RequestBudget;
  private readonly intervals: RefreshIntervals;
  private visibleSlots: VisibleSlots;
  private readonly pageSize: number;
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly now: () => number;
  private readonly random: () => number;
  /** When each slot was last read (successfully or not); the most recently read last. */
  private readonly lastRead = new Map<string, number>();
  /** Whether a lead's thread was read this session (the first is read at once, later ones once the selection rests). */
  private threadRead = false;
  /** When each never-read lead first came on screen: holding j in the wide inbox must not read every lead passed. */
  private readonly firstVisible = new Map<string, number>();
  /** When the last read of each cadence of the picture was made (src/poller/reads.ts, `burst` and `paced`). */
  private readonly lastPictureRead = { burst: 0, paced: 0 };
  /** Whether this poller reads the picture of the conversations (a client of its box's hub takes the hub's). */
  private readsPicture = true;
  /** Slots made due to catch up with the shop (the contacts list for a new text): read as a burst. */
  private readonly catchingUp = new Set<string>();
  /** Slots asked for by a key press: read before anything else, budget permitting. */
  private readonly urgent = new Map<string, Slot>();
  private failures = 0;
  /** Counted up at every stop: a read answered after the stop that started it is not stored. */
  private generation = 0;
  private retryAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: AbortController | undefined;
  private running = false;
  private unsubscribe: (() => void) | undefined;

  constructor(options: PollerOptions) {
    this.client = options.client;
    this.store = options.store;
    this.budget = options.budget;
    this.intervals = { ...DEFAULT_INTERVALS, ...options.intervals };
    this.visibleSlots = options.visibleSlots ?? NOTHING_VISIBLE;
    this.pageSize = options.pageSize ?? LIST_LIMIT;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // The picture's reads wait their interval from the start; the first screen comes first.
    this.lastPictureRead.burst = this.now();
    this.lastPictureRead.paced = this.now();
    // What is on screen changed (pane, filter, search, open lead): read it now if never read.
    let lastVisible = '';
    this.unsubscribe = this.store.subscribe((state) => {
      const visible = this.visibleSlots(state).map(slotKey).join('|');
      if (visible !== lastVisible) {
        lastVisible = visible;
        this.wake();
      }
    });
    void this.readFirstScreen().finally(() => this.wake());
  }

  /**
   * The first screen, read at once and side by side: the header and what the
   * focused pane shows, then what those answers brought on screen (the thread
   * of the first lead beside the inbox). After it, one read at a time.
   */
  private async readFirstScreen(): Promise<void> {
    const controller = new AbortController();
    this.inFlight = controller;
    try {
      // What the hub of this box already handed over is on screen: not read again.
      const first = dedupe([{ kind: 'me' }, ...this.visibleSlots(this.store.getState())]).filter(
        (slot) => !this.lastRead.has(slotKey(slot)),
      );
      await Promise.all(first.map((slot) => this.readOne(slot, controller.signal)));
      const then = this.visibleSlots(this.store.getState()).filter(
        (slot) => !this.lastRead.has(slotKey(slot)),
      );
      if (this.running && !controller.signal.aborted && !this.store.getState().fatal)
        await Promise.all(then.map((slot) => this.readOne(slot, controller.signal)));
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /**
   * What the screen shows, once the UI is there: the session may start reading the first screen
   * (the inbox) before the UI has loaded, to have the shop on screen in its first frame.
   */
  setVisibleSlots(visibleSlots: VisibleSlots): void {
    this.visibleSlots = visibleSlots;
    this.wake();
  }

  /**
   * Stops reading. What was under way or asked for belongs to before the stop (another key or shop may be
   * on screen next): its answers are dropped, its failures too.
   */
  stop(): void {
    this.generation += 1;
    this.urgent.clear();
    this.catchingUp.clear();
    this.halt();
  }

  /** Stops reading for good with this key (the shop refused it): what was under way still says how it ended. */
  private halt(): void {
    this.running = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight?.abort();
  }

  /** `r`: what the focused pane shows, now. */
  refreshVisible(): void {
    for (const slot of this.visibleSlots(this.store.getState())) this.urgent.set(slotKey(slot), slot);
    this.retryNow();
  }

  /** Reads from now on wait on `budget` (another shop or key: the API counts requests per key). */
  setBudget(budget: RequestBudget): void {
    this.budget = budget;
  }

  /** `R`: everything, now (still one read at a time, within the budget). */
  refreshAll(): void {
    // Not the picture's reads: they keep their own pace (and a burst is due at once anyway).
    for (const { slot, picture } of plan(this.store.getState(), this.intervals, this.visibleSlots))
      if (!picture) this.urgent.set(slotKey(slot), slot);
    this.retryNow();
  }

  /**
   * Whether this poller reads the picture of every open conversation (src/store/conversation-picture.ts):
   * a terminal reading the shop for its box does; a client of the box's hub does not, the hub hands it
   * every thread it reads.
   */
  setReadsPicture(reads: boolean): void {
    if (reads === this.readsPicture) return;
    this.readsPicture = reads;
    this.wake();
  }

  /** Read one slot soon, e.g. the thread just opened or a search just typed. */
  request(slot: Slot): void {
    this.urgent.set(slotKey(slot), slot);
    this.wake();
  }

  /** A user action succeeded: the lists it changed are stale. */
  invalidate(...slots: Slot[]): void {
    for (const slot of slots) this.urgent.set(slotKey(slot), slot);
    this.wake();
  }

  /**
   * A read made elsewhere (by the hub of this box, or by this hub for another
   * terminal): stored like one of this poller's own, and counted as read, so
   * that it is not read again before its time. A read for another terminal tells of new texts like one of
   * this poller's own: the reader of the picture follows it up alike, and at once (what to read next may
   * have changed while this poller slept until its next read).
   */
  accept(slot: Slot, data: SlotData, at: number): void {
    const key = slotKey(slot);
    if ((this.lastRead.get(key) ?? 0) > at) return;
    this.markRead(key, at);
    const before = this.store.getState();
    storeData(this.store, slot, data, at);
    if (slot.kind === 'inbox' && this.readsPicture)
      this.catchUp(contactsForNewTexts(before, this.store.getState()));
    this.onData?.(slot, data, at);
    this.wake();
  }

  /** Called with every read this poller stores (a hub hands them to the other terminals). */
  onData: ((slot: Slot, data: SlotData, at: number) => void) | undefined;

  /** Called when one of this poller's own reads starts (a hub answers a terminal asking for the same with it). */
  onReading: ((slot: Slot, reading: Promise<SlotData>) => void) | undefined;

  /**
   * Extra wait before a slot read before is read again. A client of a hub
   * waits a little past the hub's own time, so that the hub's read (which
   * it receives) comes first and it asks the hub only for what the hub
   * does not read itself.
   */
  setLag(ms: number): void {
    this.lagMs = ms;
    this.wake();
  }

  private lagMs = 0;

  /** A refresh key skips the backoff wait (not a 429's pause, which the budget keeps). */
  private retryNow(): void {
    this.retryAt = 0;
    this.wake();
  }

  private wake(): void {
    if (!this.running || this.inFlight) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
    this.timer.unref?.();
  }

  private sleepUntil(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), Math.max(0, at - this.now()));
    this.timer.unref?.();
  }

  /** The next slot to read and when it is due. */
  private next(): NextRead | undefined {
    const [urgentKey, urgentSlot] = this.urgent.entries().next().value ?? [];
    if (urgentKey !== undefined && urgentSlot) {
      const now = this.now();
      return {
        slot: urgentSlot,
        dueAt: now,
        startAt: Math.max(now, this.budget.nextSlotAt('poll')),
        urgent: true,
      };
    }
    let best: NextRead | undefined;
    const readyAt = { poll: this.budgetReadyAt('poll'), burst: this.budgetReadyAt('burst') };
    for (const entry of plan(this.store.getState(), this.intervals, this.visibleSlots)) {
      const { slot, everyMs } = entry;
      let picture = entry.picture;
      if (picture && !this.readsPicture) continue;
      const key = slotKey(slot);
      const last = this.lastRead.get(key);
      let dueAt = last === undefined ? 0 : last + everyMs + this.lagMs;
      if (picture) dueAt = this.lastPictureRead[picture] + everyMs;
      // The first thread of the session is read at once; later ones once the selection rests on them.
      else if (last === undefined && slot.kind === 'lead' && this.threadRead) {
        const since = this.firstVisible.get(key) ?? this.now();
        if (!this.firstVisible.has(key)) {
          this.firstVisible.clear();
          this.firstVisible.set(key, since);
        }
        dueAt = since + LEAD_SETTLE_MS;
      }
      const also = this.readsPicture ? entry.alsoPicture : undefined;
      if (also && this.lastPictureRead[also.cadence] + also.everyMs < dueAt) {
        dueAt = this.lastPictureRead[also.cadence] + also.everyMs;
        picture = also.cadence;
      }
      // A read whose share of the budget is spent waits, and does not hold up one whose share is not (a
      // background read at the quiet limit never stalls the burst that names a new text's writer).
      const burst = picture === 'burst' || this.catchingUp.has(key);
      const startAt = Math.max(dueAt, readyAt[burst ? 'burst' : 'poll']);
      // Among those that may start now, the longest overdue first, as when the budget holds up none.
      if (!best || startAt < best.startAt || (startAt === best.startAt && dueAt < best.dueAt)) {
        best = {
          slot,
          dueAt,
          startAt,
          urgent: false,
          ...(picture ? { picture } : {}),
          ...(burst ? { burst } : {}),
        };
      }
    }
    return best;
  }

  /**
   * When the budget lets a background read of this priority start: at once, when the next slot of its window
   * frees, or, while only staff's share is left, a second from now (to look again).
   */
  private budgetReadyAt(priority: RequestPriority): number {
    const now = this.now();
    const slotAt = this.budget.nextSlotAt(priority);
    if (slotAt > now) return slotAt;
    const reserve = Math.ceil(this.budget.limitFor(priority) * RESERVED_FOR_USERS);
    return this.budget.availableFor(priority) <= reserve ? now + 1_000 : now;
  }

  /** Keeps when a slot was read; past KEPT_RECORD_READS reads of single records, the oldest of them go. */
  private markRead(key: string, at: number): void {
    this.lastRead.delete(key);
    this.lastRead.set(key, at);
    if (key.startsWith('lead:')) this.threadRead = true;
    if (this.lastRead.size <= KEPT_RECORD_READS) return;
    let records = 0;
    for (const known of this.lastRead.keys()) if (isRecordRead(known)) records += 1;
    for (const known of this.lastRead.keys()) {
      if (records <= KEPT_RECORD_READS) break;
      if (!isRecordRead(known) || known === key) continue;
      this.lastRead.delete(known);
      records -= 1;
    }
  }

  /** How many slot reads this poller remembers (for tests of its bound). */
  get remembered(): number {
    return this.lastRead.size;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.running || this.inFlight || this.store.getState().fatal) return;
    const now = this.now();
    if (this.retryAt > now) return this.sleepUntil(this.retryAt);
    // Wait for the budget (or a 429's pause) here, not inside the call, whose deadline would turn a long
    // wait into a "timeout" and the status into "offline". Background reads leave part of the budget to
    // staff (budgetReadyAt); a key press may use it.
    const next = this.next();
    if (!next) return;
    if (next.startAt > now) return this.sleepUntil(next.startAt);
    const key = slotKey(next.slot);
    this.urgent.delete(key);
    this.catchingUp.delete(key);
    if (next.picture) this.lastPictureRead[next.picture] = now;
    await this.read(next.slot, next.burst === true);
    this.wake();
  }

  private async read(slot: Slot, burst: boolean): Promise<void> {
    const controller = new AbortController();
    this.inFlight = controller;
    try {
      await this.readOne(slot, controller.signal, burst);
    } finally {
      this.inFlight = undefined;
    }
  }

  /** One slot read and stored (its data, or its failure beside the last good data). */
  private async readOne(slot: Slot, signal: AbortSignal, burst = false): Promise<void> {
    markLoading(this.store, slot);
    // The copy is the shop as it was when the request went out: a text that came while it was answered may be
    // missing from it, so a copy is dated when it was asked for (or, from the hub, when the hub asked).
    const sentAt = this.now();
    const generation = this.generation;
    try {
      const reading = this.fetch(slot, signal, burst);
      this.onReading?.(slot, reading);
      const data = await reading;
      if (generation !== this.generation) return;
      const before = this.store.getState();
      this.accept(slot, data, readTimeOf(data) ?? sentAt);
      // Paced from its answer, as before: a slow answer is not followed at once by the next read.
      const key = slotKey(slot);
      this.markRead(key, Math.max(this.lastRead.get(key) ?? 0, this.now()));
      if (slot.kind === 'me') this.dueNow(listsBehindMe(before, data as ShopOverview));
      this.recovered();
    } catch (error) {
      if (generation !== this.generation) return;
      const at = this.now();
      this.markRead(slotKey(slot), at);
      storeFailure(this.store, slot, failureOf(error, at));
      this.failed(error);
    }
  }

  /** Background reads made due at once (not urgent: they leave staff's share of the budget alone). */
  private dueNow(slots: readonly Slot[]): void {
    for (const slot of slots) this.lastRead.set(slotKey(slot), 0);
  }

  /** Background reads made due at once, read as a burst: they tell which threads to read for a new text. */
  private catchUp(slots: readonly Slot[]): void {
    this.dueNow(slots);
    for (const slot of slots) this.catchingUp.add(slotKey(slot));
  }

  private fetch(slot: Slot, signal: AbortSignal, burst: boolean): Promise<SlotData> {
    // One attempt per read: the poller's own backoff decides when to try again.
    return readSlot(
      this.client,
      slot,
      { signal, maxAttempts: 1, ...(burst ? { burst } : {}) },
      this.pageSize,
    );
  }

  private recovered(): void {
    this.failures = 0;
    this.retryAt = 0;
    if (this.store.getState().connection.state !== 'ok') this.store.setState({ connection: { state: 'ok' } });
  }

  private failed(error: unknown): void {
    if (!(error instanceof ApiError)) return;
    const now = this.now();
    switch (error.code) {
      case 'aborted':
        return;
      case 'unauthorized':
      case 'no_subscription':
        this.store.setState({
          fatal: {
            kind: error.code === 'unauthorized' ? 'unauthorized' : 'no_subscription',
            message: explainApiError(error),
          },
        });
        this.halt();
        return;
      case 'rate_limited': {
        // The client's scheduler hook has paused the budget already; show it.
        const until = now + (error.retryAfter ?? 60) * 1000;
        this.budget.pauseUntil(until);
        this.store.setState({ connection: { state: 'rate_limited', until } });
        return;
      }
      case 'network':
      case 'timeout':
      case 'server':
      // A redirect says the base URL or a proxy in front of it is wrong, for every read: back off and say so.
      case 'redirect':
      // Another user's service on the loopback port: nothing was sent; back off until this user's is back.
      case 'untrusted_service': {
        this.failures += 1;
        const step = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (this.failures - 1));
        const wait = Math.round(step / 2 + this.random() * (step / 2));
        this.retryAt = now + wait;
        const previous = this.store.getState().connection;
        const since =
          previous.state === 'offline' || previous.state === 'server_error' ? previous.since : now;
        this.store.setState({
          connection: {
            state: error.code === 'server' || error.code === 'redirect' ? 'server_error' : 'offline',
            since,
            retryAt: this.retryAt,
            message: explainApiError(error),
          },
        });
        return;
      }
      default:
        // A read the service refused (not_found, invalid, a contract break): shown on its pane.
        return;
    }
  }
}

/** A read of one record or one search, of which there are as many as records (not one of the lists). */
function isRecordRead(key: string): boolean {
  return key.startsWith('lead:') || (key.startsWith('contacts:') && key !== 'contacts:');
}
