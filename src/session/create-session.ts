/**
 * One running inbox: the client, the request budget every call waits on, the
 * store, the poller and the user actions, wired together. The terminal UI and
 * the tests both start here.
 *
 * A refused key (401) stops everything, and the refused key is never used
 * again. When the key came from a file (--key-file, or the saved login), its
 * files are watched: once a different key is saved there, the session goes
 * on with it by itself (a new client, the new key's outbox, everything read
 * again), keeping what staff typed.
 */
import {
  createShopClient,
  type HttpShopClient,
  type ShopClient,
  type ShopClientOptions,
} from '../api/client.js';
import { redact } from '../api/errors.js';
import type { ConversationMarksMemory } from '../config/conversation-marks-file.js';
import { keyFingerprint } from '../config/key-fingerprint.js';
import { type KeySource, type KeyWatch, keyLocation, watchKeySource } from '../config/key-watch.js';
import type { OutboxPersistence } from '../outbox/outbox-file.js';
import { Poller } from '../poller/poller.js';
import type { RefreshIntervals, VisibleSlots } from '../poller/refresh-plan.js';
import { RequestBudget } from '../poller/request-budget.js';
import type { RequestStats } from '../poller/request-stats.js';
import {
  type AppState,
  type AppStore,
  createAppStore,
  KEY_MODE_NOT_ASKED,
  type KeyRecovery,
  type ReadOnlyReason,
  type Template,
  type View,
  withoutServerData,
} from '../store/app-store.js';
import { noMarks } from '../store/conversation-marks.js';
import { approveAction } from '../user-actions/approve-action.js';
import type { ActionContext } from '../user-actions/context.js';
import { draftReply } from '../user-actions/draft-reply.js';
import { TextSender } from '../user-actions/send-text.js';
import { keepConversationMarks } from './keep-conversation-marks.js';
import { type KeyModeOptions, KeyModeTracker } from './key-mode.js';

export const DEFAULT_MAX_RPM = 30;

/**
 * How fast the inbox may read while it catches up with the shop (a new text to name, threads never read):
 * three times the quiet rate, at most 90 a minute (the key's 120 are the whole shop's: a burst leaves room
 * for the others, and a 429 cuts it), never below the quiet rate.
 */
export function burstRpmFor(maxRpm: number): number {
  return Math.max(maxRpm, Math.min(90, 3 * maxRpm));
}

/** A shop of config.json, as a switch to it needs it (read when it is chosen, so a login since counts). */
export interface ShopTarget {
  name: string;
  baseUrl: string;
  apiKey: string;
  /** Read-only by choice: the flag, or read_only in the config (for this shop or all). */
  readOnly: boolean;
  /** Where its key came from: a refused key is replaced by the next one saved there. */
  keySource?: KeySource;
  /** Its time zone in the config, if any. */
  timeZone?: string;
}

/** The shops this inbox may switch to (config.json's "shops"). */
export interface ShopDirectory {
  /** Their names, as config.json lists them now. */
  names(): Promise<string[]>;
  /** The shop `name`'s settings; throws (a ConfigError, in words for staff) when it cannot be used. */
  open(name: string): Promise<ShopTarget>;
}

/** How often a running process looks for texts of its key left by a process that stopped. */
const DEFAULT_OUTBOX_SWEEP_MS = 60_000;

export interface SessionOptions {
  /** The name in config.json's "shops" of the shop `baseUrl` is (shown in the header). */
  shop?: string;
  /** The shops staff may switch to (O in the inbox). */
  shops?: ShopDirectory;
  baseUrl: string;
  apiKey: string;
  readOnly?: boolean;
  readOnlyReason?: ReadOnlyReason;
  /** The inbox (default) or the wallboard. */
  view?: View;
  /** Requests per minute for this whole process (the token allows 120 for all terminals). */
  maxRpm?: number;
  columns?: number;
  rows?: number;
  intervals?: Partial<RefreshIntervals>;
  /** What the screen shows, read often (the UI's panes; none without a screen). */
  visibleSlots?: VisibleSlots;
  /** Poller backoff after a failed read. */
  backoff?: { baseMs: number; maxMs: number };
  /** Waits before a text whose outcome is unknown is tried again with its key. */
  sendRetry?: { baseMs: number; maxMs: number };
  /** Client settings for tests (retry waits, timeouts). */
  client?: Partial<
    Omit<ShopClientOptions, 'baseUrl' | 'apiKey' | 'readOnly' | 'beforeAttempt' | 'afterAttempt'>
  >;
  now?: () => number;
  /** "timezone" in the config: the shop's zone (else its texting number's, else this machine's). */
  timeZone?: string;
  /** This machine's zone (default: the process's; tests set it). */
  machineTimeZone?: string;
  /** Canned replies (see src/user-actions/templates.ts). */
  templates?: readonly Template[];
  /** Why the templates file could not be used. */
  templatesProblem?: string;
  /**
   * The outbox of a key: where texts confirmed with it wait until known sent
   * (none: they live only in memory, as in the demo). Called again for a new key or shop.
   */
  outbox?: (apiKey: string, baseUrl: string) => OutboxPersistence;
  /** Where read and done are kept for a shop and key (absent: for as long as the process runs). */
  conversationMarks?: (apiKey: string, baseUrl: string) => ConversationMarksMemory;
  /** How often texts of this key left by a stopped process are taken over. Default 60 s. */
  outboxSweepMs?: number;
  /** Where the key came from: a refused key from a file is replaced by the next one saved there. */
  keySource?: KeySource;
  /** Timing of that watch (tests). */
  keyWatch?: { pollMs?: number; debounceMs?: number };
  /**
   * Learn what the key may do before anyone types (src/session/key-mode.ts): asked at start, again every
   * few minutes and on R, remembered where `memory` says. Absent: only a refused write tells.
   * Not asked while the shop on screen is read-only by choice (it sends nothing but GET); asked once a
   * writable shop is switched to.
   */
  keyMode?: KeyModeOptions;
  /** Counts every attempt of the session's client (for /metrics); nothing is asked of the shop for it. */
  requestStats?: RequestStats;
}

export interface Session {
  store: AppStore;
  /** The request budget of the shop and key on screen (each has its own: it changes with a switch). */
  readonly budget: RequestBudget;
  poller: Poller;
  /** The sender of the shop on screen (it changes with switchShop). */
  readonly sender: TextSender;
  /** Always the current key's client. */
  readonly client: ShopClient;
  /** The current shop's API root (it changes with switchShop). */
  readonly baseUrl: string;
  /** The shops of config.json this session may switch to, when it may. */
  readonly shops: ShopDirectory | undefined;
  /**
   * Goes on with another shop of config.json: its client, key, outbox and key mode; everything of the
   * old shop forgotten (what was read, texts typed for its customers, its questions), everything read again.
   * Texts confirmed for the old shop and not yet known sent go on being sent in the background, with its
   * key and outbox, until known sent; what becomes of them is said naming the shop.
   */
  switchShop(name: string): Promise<void>;
  /** Runs after each switch of shop (the box's hub of the new shop is joined there). */
  onShopSwitch(listener: (target: ShopTarget) => void): void;
  /** What the key may do, when the session learns it (SessionOptions.keyMode). */
  readonly keyMode: KeyModeTracker | undefined;
  approve(actionId: string, label?: string): Promise<void>;
  draft(reviewId: string): Promise<void>;
  /** The text with every key this session used replaced by "[redacted]" (crash reports). */
  redact(text: string): string;
  /** How this session shares the box's hub (src/hub): which client its calls go through. */
  readonly hub: SessionHubPort;
  start(): void;
  close(): void;
}

export interface SessionHubPort {
  /** Calls go through the hub of the box (a client of it), or straight to the API again (undefined). */
  route(remote: ShopClient | undefined): void;
  /** The key's own HTTP client, through this process's budget. */
  direct(): ShopClient;
  /** A writable HTTP client of the key, for the writes of other terminals when this one is the hub. */
  writer(): ShopClient;
  /** Run when the session closes. */
  onClose(stop: () => void): void;
}

export function createSession(options: SessionOptions): Session {
  const now = options.now ?? Date.now;
  const store = createAppStore({
    readOnly: options.readOnly ?? false,
    ...(options.readOnly ? { readOnlyReason: options.readOnlyReason ?? 'flag' } : {}),
    ...(options.columns ? { columns: options.columns } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
    ...(options.view ? { view: options.view } : {}),
    ...(options.shop ? { shop: options.shop } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.machineTimeZone ? { machineTimeZone: options.machineTimeZone } : {}),
    ...(options.templates ? { templates: options.templates } : {}),
    ...(options.templatesProblem ? { templatesProblem: options.templatesProblem } : {}),
  });
  // A templates.json that is not used is said at start (and kept in the message log), not only on ctrl-t.
  if (options.templatesProblem && options.view !== 'wallboard')
    store.setState({
      notice: { text: options.templatesProblem, tone: 'warning', at: now(), background: true },
    });
  const shopKey = (url: string, apiKey: string) => `${url} ${keyFingerprint(apiKey)}`;
  // The API counts requests, and pauses them after a 429, per key: each shop and key has its own budget, so
  // that a pause of a shop left (or of its texts still sending) never holds up the shop on screen.
  const budgets = new Map<string, RequestBudget>();
  const budgetOf = (url: string, apiKey: string): RequestBudget => {
    const key = shopKey(url, apiKey);
    let found = budgets.get(key);
    if (!found) {
      const maxPerMinute = options.maxRpm ?? DEFAULT_MAX_RPM;
      found = new RequestBudget({ maxPerMinute, burstPerMinute: burstRpmFor(maxPerMinute), now });
      budgets.set(key, found);
    }
    return found;
  };
  let budget = budgetOf(options.baseUrl, options.apiKey);
  // Every key this session used, for redaction only: never on an object that could be inspected.
  const keysUsed: string[] = [];
  let baseUrl = options.baseUrl;
  let keySource = options.keySource;
  // When each attempt was let go by the budget: its latency is the shop's, not the queue's.
  const attemptStarts = new WeakMap<object, number>();
  const clientFor = (apiKey: string, readOnly: boolean, url = baseUrl): HttpShopClient => {
    keysUsed.push(apiKey);
    const own = budgetOf(url, apiKey);
    return createShopClient({
      ...options.client,
      baseUrl: url,
      apiKey,
      readOnly,
      // Writes are what staff are waiting for: they go ahead of background reads (the mode's probe does not).
      // The grant is the permit the client confirms just before it writes the request (a hub taken over
      // while stopped between the two must send nothing).
      beforeAttempt: async (request, signal) => {
        const priority =
          request.method !== 'GET' && !request.probe ? 'user' : request.burst ? 'burst' : 'poll';
        const grant = await own.acquire(priority, signal);
        attemptStarts.set(request, now());
        return grant;
      },
      afterAttempt: (request, error, successStatus) => {
        const started = attemptStarts.get(request);
        options.requestStats?.record({
          endpoint: request.endpoint,
          method: request.method,
          ...(error ? { failureStatus: error.status, failureCode: error.code } : { successStatus }),
          seconds: started === undefined ? 0 : Math.max(0, now() - started) / 1000,
        });
        if (error?.code !== 'rate_limited') return;
        const until = now() + (error.retryAfter ?? 60) * 1000;
        // Another user's inbox or another machine shares the key: pause, and halve the rate (AIMD).
        own.rateLimited(until);
        // The pause of a shop left (its texts still sending) is not the screen's.
        if (own === budget) store.setState({ connection: { state: 'rate_limited', until } });
      },
    });
  };
  let current = clientFor(options.apiKey, options.readOnly ?? false);
  let currentKey = options.apiKey;
  let currentKeyId = keyFingerprint(options.apiKey);
  // Set while this terminal is a client of its box's hub: reads and writes go through the hub.
  let remote: ShopClient | undefined;
  let writer: { key: string; client: ShopClient } | undefined;
  const closers: Array<() => void> = [];
  // The poller, the user actions and the UI hold this one object; it always calls the current key's client.
  const client = new Proxy({} as ShopClient, {
    get: (_target, property) => {
      const target = remote ?? current;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

  const poller = new Poller({
    client,
    store,
    budget,
    now,
    ...(options.intervals ? { intervals: options.intervals } : {}),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.visibleSlots ? { visibleSlots: options.visibleSlots } : {}),
  });
  const context: ActionContext = { client, store, poller, now, pausedUntil: () => budget.pausedUntil };
  // Read and done of the shop on screen, kept where the options say (src/session/keep-conversation-marks.ts).
  const keepMarks = (apiKey: string, url: string) =>
    options.conversationMarks
      ? keepConversationMarks(store, options.conversationMarks(apiKey, url), now)
      : () => {};
  let stopMarks = keepMarks(options.apiKey, baseUrl);
  // The sender of the shop on screen; those of shops left go on in the background until their texts are done.
  let sender = new TextSender(context, options.outbox?.(options.apiKey, baseUrl), options.sendRetry);
  const inBackground = new Map<string, { sender: TextSender; stop: () => void }>();
  // Read before the first frame: a key remembered read-only shows [READ-ONLY] on it.
  // Made for a shop read-only by its config too (closed until a writable shop is switched to).
  const keyMode = options.keyMode
    ? new KeyModeTracker(
        {
          store,
          client: () => current,
          pausedUntil: () => budget.pausedUntil,
          now,
          onWritable: () => void sender.sweep(),
        },
        options.keyMode,
        options.apiKey,
      )
    : undefined;
  if (keyMode) context.keyMode = keyMode;
  if (options.readOnly) {
    keyMode?.close();
    store.setState({ keyMode: KEY_MODE_NOT_ASKED });
  }

  let closed = false;
  let sweep: NodeJS.Timeout | undefined;
  const startSweep = () => {
    if (!options.outbox || sweep) return;
    sweep = setInterval(() => void sender.sweep(), options.outboxSweepMs ?? DEFAULT_OUTBOX_SWEEP_MS);
    sweep.unref?.();
  };
  const stopSweep = () => {
    if (sweep) clearInterval(sweep);
    sweep = undefined;
  };

  /** Fingerprints of keys the shop refused: never used again, whatever a file says. */
  const refused = new Set<string>();
  let watch: KeyWatch | undefined;
  let switching = false;

  const redactAll = (text: string) => keysUsed.reduce((redacted, key) => redact(redacted, key), text);
  const notify = (text: string) => store.setState({ notice: { text, tone: 'error', at: now() } });
  const setRecovery = (recovery: KeyRecovery) =>
    store.setState((state) => (state.fatal ? { fatal: { ...state.fatal, recovery } } : {}));

  const useKey = async (apiKey: string) => {
    const keyId = keyFingerprint(apiKey);
    if (closed || switching || refused.has(keyId) || keyId === currentKeyId) return;
    const state = store.getState();
    // A key refused writes by the shop said nothing about the new one; a read-only flag or config still holds.
    const readOnly = state.readOnlyReason === 'server' ? false : state.readOnly;
    // Made before the watch stops: a key the client cannot use leaves the screen waiting for the next one.
    const next = clientFor(apiKey, readOnly);
    switching = true;
    watch?.stop();
    watch = undefined;
    try {
      // Halted on the refusal; stopped now, so that a read the old key still had under way, or one asked for
      // since, lands nowhere: the new key may be another shop's.
      poller.stop();
      current = next;
      currentKey = apiKey;
      currentKeyId = keyId;
      budget = budgetOf(baseUrl, apiKey);
      poller.setBudget(budget);
      // The hub of the old key is not this key's: the new key's calls go straight to the API.
      remote = undefined;
      for (const stop of closers.splice(0)) stop();
      // What was read with the old key goes: it may be another shop's (src/store/app-store.ts, STATE_FIELDS).
      store.setState((s) => ({
        ...withoutServerData(s),
        fatal: undefined,
        connection: { state: 'ok' },
        readOnly,
        ...(readOnly ? {} : { readOnlyReason: undefined }),
        notice: {
          text: 'A new key was saved: reading the shop again with it.',
          tone: 'info',
          at: now(),
          background: true,
        },
      }));
      stopOnFatal = store.subscribe(onFatal);
      keyMode?.switchKey(apiKey);
      // The same shop: its read and done go on, kept now under the new key too.
      stopMarks();
      stopMarks = keepMarks(apiKey, baseUrl);
      poller.start();
      poller.refreshAll();
      startSweep();
      await sender.switchTo(options.outbox?.(apiKey, baseUrl));
    } finally {
      switching = false;
    }
  };

  const watchForNewKey = () => {
    const source = keySource;
    if (!source || closed) return;
    if (source.kind === 'env') {
      setRecovery({ kind: 'env' });
      return;
    }
    const waiting = {
      kind: 'watching',
      via: source.kind === 'key-file' ? 'key-file' : 'login',
      where: keyLocation(source),
    } as const;
    setRecovery(waiting);
    watch = watchKeySource({
      source,
      ...options.keyWatch,
      onKey: (key) =>
        void useKey(key).catch((error: unknown) =>
          notify(`Could not go on with the new key: ${redactAll(String(error))}`),
        ),
      onProblem: (problem) => setRecovery({ ...waiting, ...(problem ? { problem } : {}) }),
    });
  };

  // A refused key or plan stops everything, texts waiting to be retried included (they stay in the outbox).
  const onFatal = (state: AppState) => {
    if (!state.fatal) return;
    stopOnFatal();
    sender.close();
    stopSweep();
    if (state.fatal.kind === 'unauthorized') {
      refused.add(currentKeyId);
      watchForNewKey();
    }
  };
  let stopOnFatal = store.subscribe(onFatal);

  /**
   * The shop left keeps sending what staff confirmed there (its client, key and outbox) until each text
   * is known sent; what becomes of them is said here, naming the shop. Its store is its own: nothing of
   * it reaches the lists on screen.
   */
  const goOnInBackground = (
    leaving: TextSender,
    left: { key: string; name: string; client: ShopClient; budget: RequestBudget },
  ) => {
    const own = createAppStore({ readOnly: false });
    const going = leaving.goOnInBackground({
      client: left.client,
      store: own,
      // Its lists are not on screen: nothing to read again after a send.
      poller: { invalidate: () => {} },
      now,
      pausedUntil: () => left.budget.pausedUntil,
    });
    if (going === 0) {
      void leaving.finish();
      return;
    }
    const stopTelling = own.subscribe((state, previous) => {
      if (state.notice && state.notice !== previous.notice) {
        store.setState({ notice: { ...state.notice, text: `Shop ${left.name}: ${state.notice.text}` } });
      }
      if (leaving.underWay() || inBackground.get(left.key)?.sender !== leaving) return;
      inBackground.delete(left.key);
      // After the notice of its last text (said in the same step) and its outbox's last write.
      queueMicrotask(() => {
        stopTelling();
        void leaving.finish();
      });
    });
    inBackground.set(left.key, { sender: leaving, stop: stopTelling });
  };

  const shopListeners: Array<(target: ShopTarget) => void> = [];
  const switchShop = async (name: string) => {
    if (!options.shops) throw new Error('this inbox has no shops to switch to');
    if (closed || switching) return;
    const target = await options.shops.open(name);
    if (closed || switching) return;
    // Made before anything changes: a base URL the client refuses leaves this shop as it was.
    const next = clientFor(target.apiKey, target.readOnly, target.baseUrl);
    switching = true;
    try {
      const left = {
        key: shopKey(baseUrl, currentKey),
        name: store.getState().shop ?? baseUrl,
        client: current,
        budget,
      };
      // Nothing of the old shop may land after this: its reads are stopped (and aborted) first.
      poller.stop();
      stopSweep();
      watch?.stop();
      watch = undefined;
      for (const stop of closers.splice(0)) stop();
      remote = undefined;
      writer = undefined;
      current = next;
      currentKey = target.apiKey;
      currentKeyId = keyFingerprint(target.apiKey);
      baseUrl = target.baseUrl;
      keySource = target.keySource;
      budget = budgetOf(target.baseUrl, target.apiKey);
      poller.setBudget(budget);
      const confirmedBefore = new Set(store.getState().outbox.map((text) => text.localId));
      goOnInBackground(sender, left);
      stopMarks();
      store.setState((s) => ({
        ...withoutServerData(s),
        // Read and done are the shop's own: the new shop's are read from its file.
        conversations: noMarks(),
        // Typed for the old shop's customers, or searched among them: none of it is the new shop's.
        composed: {},
        search: {},
        searching: false,
        shopPicker: undefined,
        palette: undefined,
        fatal: undefined,
        connection: { state: 'ok' },
        shop: target.name,
        readOnly: target.readOnly,
        readOnlyReason: target.readOnly ? 'flag' : undefined,
        keyMode: KEY_MODE_NOT_ASKED,
        configTimeZone: target.timeZone,
        notice: { text: `Switched to the shop ${target.name}: reading it now.`, tone: 'info', at: now() },
      }));
      stopOnFatal();
      stopOnFatal = store.subscribe(onFatal);
      // A shop read-only by choice sends nothing but reads: its key's mode is not asked.
      if (target.readOnly) keyMode?.close();
      else {
        keyMode?.switchKey(target.apiKey);
        // Not started yet when the inbox opened on a shop read-only by choice: asked now.
        keyMode?.start();
      }
      stopMarks = keepMarks(target.apiKey, target.baseUrl);
      poller.start();
      poller.refreshAll();
      startSweep();
      // The old shop's texts are its background sender's now; this screen no longer shows them.
      store.setState((s) => ({ outbox: s.outbox.filter((text) => !confirmedBefore.has(text.localId)) }));
      const returning = inBackground.get(shopKey(target.baseUrl, target.apiKey));
      if (returning) {
        // Its texts still under way come back with the sender that holds them: never taken over twice.
        inBackground.delete(shopKey(target.baseUrl, target.apiKey));
        returning.stop();
        sender = returning.sender;
        sender.comeBack(context);
      } else {
        sender = new TextSender(context, options.outbox?.(target.apiKey, target.baseUrl), options.sendRetry);
      }
      await sender.resume();
    } finally {
      switching = false;
    }
    for (const listener of shopListeners) listener(target);
  };

  return {
    store,
    get budget() {
      return budget;
    },
    poller,
    get sender() {
      return sender;
    },
    client,
    get baseUrl() {
      return baseUrl;
    },
    shops: options.shops,
    switchShop,
    onShopSwitch: (listener) => {
      shopListeners.push(listener);
    },
    keyMode,
    approve: (actionId, label) => approveAction(context, actionId, label),
    draft: (reviewId) => draftReply(context, reviewId),
    redact: redactAll,
    hub: {
      route: (next) => {
        remote = next;
      },
      direct: () => current,
      writer: () => {
        if (!current.readOnly) return current;
        if (writer?.key !== currentKey) writer = { key: currentKey, client: clientFor(currentKey, false) };
        return writer.client;
      },
      onClose: (stop) => {
        closers.push(stop);
      },
    },
    start: () => {
      if (closed) return;
      // The first reads take their places in the budget first: the probe never delays them.
      poller.start();
      if (!options.readOnly) keyMode?.start();
      startSweep();
      void sender.resume();
    },
    close: () => {
      closed = true;
      stopMarks();
      for (const stop of closers.splice(0)) stop();
      stopOnFatal();
      watch?.stop();
      stopSweep();
      keyMode?.close();
      poller.stop();
      sender.close();
      // Texts of shops left and still under way stay in their outboxes, for the next inbox of each.
      for (const { sender: going, stop } of inBackground.values()) {
        stop();
        going.close();
      }
      inBackground.clear();
      for (const each of budgets.values()) each.close();
    },
  };
}
