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
import { keyFingerprint } from '../config/key-fingerprint.js';
import { type KeySource, type KeyWatch, keyLocation, watchKeySource } from '../config/key-watch.js';
import type { OutboxPersistence } from '../outbox/outbox-file.js';
import { Poller } from '../poller/poller.js';
import type { RefreshIntervals, VisibleSlots } from '../poller/refresh-plan.js';
import { RequestBudget } from '../poller/request-budget.js';
import {
  type AppState,
  type AppStore,
  createAppStore,
  type KeyRecovery,
  type ReadOnlyReason,
  type Template,
  type View,
  withoutServerData,
} from '../store/app-store.js';
import { approveAction } from '../user-actions/approve-action.js';
import type { ActionContext } from '../user-actions/context.js';
import { draftReply } from '../user-actions/draft-reply.js';
import { TextSender } from '../user-actions/send-text.js';
import { type KeyModeOptions, KeyModeTracker } from './key-mode.js';

export const DEFAULT_MAX_RPM = 30;

/** How often a running process looks for texts of its key left by a process that stopped. */
const DEFAULT_OUTBOX_SWEEP_MS = 60_000;

export interface SessionOptions {
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
   * (none: they live only in memory, as in the demo). Called again for a new key.
   */
  outbox?: (apiKey: string) => OutboxPersistence;
  /** How often texts of this key left by a stopped process are taken over. Default 60 s. */
  outboxSweepMs?: number;
  /** Where the key came from: a refused key from a file is replaced by the next one saved there. */
  keySource?: KeySource;
  /** Timing of that watch (tests). */
  keyWatch?: { pollMs?: number; debounceMs?: number };
  /**
   * Learn what the key may do before anyone types (src/session/key-mode.ts): asked at start, again every
   * few minutes and on R, remembered where `memory` says. Absent: only a refused write tells.
   * Never for a process read-only by choice, which sends nothing but GET.
   */
  keyMode?: KeyModeOptions;
}

export interface Session {
  store: AppStore;
  budget: RequestBudget;
  poller: Poller;
  sender: TextSender;
  /** Always the current key's client. */
  readonly client: ShopClient;
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
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.machineTimeZone ? { machineTimeZone: options.machineTimeZone } : {}),
    ...(options.templates ? { templates: options.templates } : {}),
    ...(options.templatesProblem ? { templatesProblem: options.templatesProblem } : {}),
  });
  // A templates.json that is not used is said at start (and kept in the message log), not only on ctrl-t.
  if (options.templatesProblem && options.view !== 'wallboard')
    store.setState({ notice: { text: options.templatesProblem, tone: 'warning', at: now() } });
  const budget = new RequestBudget({ maxPerMinute: options.maxRpm ?? DEFAULT_MAX_RPM, now });
  // Every key this session used, for redaction only: never on an object that could be inspected.
  const keysUsed: string[] = [];
  const clientFor = (apiKey: string, readOnly: boolean): HttpShopClient => {
    keysUsed.push(apiKey);
    return createShopClient({
      ...options.client,
      baseUrl: options.baseUrl,
      apiKey,
      readOnly,
      // Writes are what staff are waiting for: they go ahead of background reads (the mode's probe does not).
      beforeAttempt: (request, signal) =>
        budget.acquire(request.method === 'GET' || request.probe ? 'poll' : 'user', signal),
      afterAttempt: (_request, error) => {
        if (error?.code !== 'rate_limited') return;
        const until = now() + (error.retryAfter ?? 60) * 1000;
        // Another user's inbox or another machine shares the key: pause, and halve the rate (AIMD).
        budget.rateLimited(until);
        store.setState({ connection: { state: 'rate_limited', until } });
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
  const sender = new TextSender(context, options.outbox?.(options.apiKey), options.sendRetry);
  // Read before the first frame: a key remembered read-only shows [READ-ONLY] on it.
  const keyMode =
    options.keyMode && !options.readOnly
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
      current = next;
      currentKey = apiKey;
      currentKeyId = keyId;
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
        notice: { text: 'A new key was saved: reading the shop again with it.', tone: 'info', at: now() },
      }));
      stopOnFatal = store.subscribe(onFatal);
      keyMode?.switchKey(apiKey);
      poller.start();
      poller.refreshAll();
      startSweep();
      await sender.switchTo(options.outbox?.(apiKey));
    } finally {
      switching = false;
    }
  };

  const watchForNewKey = () => {
    const source = options.keySource;
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

  return {
    store,
    budget,
    poller,
    sender,
    client,
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
      keyMode?.start();
      startSweep();
      void sender.resume();
    },
    close: () => {
      closed = true;
      for (const stop of closers.splice(0)) stop();
      stopOnFatal();
      watch?.stop();
      stopSweep();
      keyMode?.close();
      poller.stop();
      sender.close();
      budget.close();
    },
  };
}
