/**
 * One running inbox: the client, the request budget every call waits on, the
 * store, the poller and the user actions, wired together. The terminal UI and
 * the tests both start here.
 */
import { createShopClient, type ShopClientOptions } from '../api/client.js';
import type { OutboxPersistence } from '../outbox/outbox-file.js';
import { Poller } from '../poller/poller.js';
import type { RefreshIntervals } from '../poller/refresh-plan.js';
import { RequestBudget } from '../poller/request-budget.js';
import { type AppStore, createAppStore, type ReadOnlyReason } from '../store/app-store.js';
import { approveAction } from '../user-actions/approve-action.js';
import type { ActionContext } from '../user-actions/context.js';
import { draftReply } from '../user-actions/draft-reply.js';
import { TextSender } from '../user-actions/send-text.js';

export const DEFAULT_MAX_RPM = 30;

/** How often a running process looks for texts of its key left by a process that stopped. */
const DEFAULT_OUTBOX_SWEEP_MS = 60_000;

export interface SessionOptions {
  baseUrl: string;
  apiKey: string;
  readOnly?: boolean;
  readOnlyReason?: ReadOnlyReason;
  /** Requests per minute for this whole process (the token allows 120 for all terminals). */
  maxRpm?: number;
  columns?: number;
  rows?: number;
  intervals?: Partial<RefreshIntervals>;
  /** Poller backoff after a failed read. */
  backoff?: { baseMs: number; maxMs: number };
  /** Client settings for tests (retry waits, timeouts). */
  client?: Partial<
    Omit<ShopClientOptions, 'baseUrl' | 'apiKey' | 'readOnly' | 'beforeAttempt' | 'afterAttempt'>
  >;
  now?: () => number;
  /**
   * The outbox of a key: where texts confirmed with it wait until known sent
   * (none: they live only in memory, as in the demo).
   */
  outbox?: (apiKey: string) => OutboxPersistence;
  /** How often texts of this key left by a stopped process are taken over. Default 60 s. */
  outboxSweepMs?: number;
}

export interface Session {
  store: AppStore;
  budget: RequestBudget;
  poller: Poller;
  sender: TextSender;
  readonly client: ReturnType<typeof createShopClient>;
  approve(actionId: string): Promise<void>;
  draft(reviewId: string): Promise<void>;
  start(): void;
  close(): void;
}

export function createSession(options: SessionOptions): Session {
  const now = options.now ?? Date.now;
  const store = createAppStore({
    readOnly: options.readOnly ?? false,
    ...(options.readOnly ? { readOnlyReason: options.readOnlyReason ?? 'flag' } : {}),
    ...(options.columns ? { columns: options.columns } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
  });
  const budget = new RequestBudget({ maxPerMinute: options.maxRpm ?? DEFAULT_MAX_RPM, now });
  const client = createShopClient({
    ...options.client,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    // Writes are what staff are waiting for: they go ahead of background reads.
    beforeAttempt: (request, signal) => budget.acquire(request.method === 'GET' ? 'poll' : 'user', signal),
    afterAttempt: (_request, error) => {
      if (error?.code !== 'rate_limited') return;
      const until = now() + (error.retryAfter ?? 60) * 1000;
      budget.pauseUntil(until);
      store.setState({ connection: { state: 'rate_limited', until } });
    },
  });
  const poller = new Poller({
    client,
    store,
    budget,
    now,
    ...(options.intervals ? { intervals: options.intervals } : {}),
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  const context: ActionContext = { client, store, poller, now, pausedUntil: () => budget.pausedUntil };
  const sender = new TextSender(context, options.outbox?.(options.apiKey));
  let sweep: NodeJS.Timeout | undefined;
  const stopSweep = () => {
    if (sweep) clearInterval(sweep);
    sweep = undefined;
  };
  // A refused key or plan stops everything, texts waiting to be retried included (they stay in the outbox).
  const stopOnFatal = store.subscribe((state) => {
    if (state.fatal) {
      stopOnFatal();
      sender.close();
      stopSweep();
    }
  });
  return {
    store,
    budget,
    poller,
    sender,
    client,
    approve: (actionId) => approveAction(context, actionId),
    draft: (reviewId) => draftReply(context, reviewId),
    start: () => {
      poller.start();
      if (options.outbox && !sweep) {
        sweep = setInterval(() => void sender.sweep(), options.outboxSweepMs ?? DEFAULT_OUTBOX_SWEEP_MS);
        sweep.unref?.();
      }
      void sender.resume();
    },
    close: () => {
      stopOnFatal();
      stopSweep();
      poller.stop();
      sender.close();
      budget.close();
    },
  };
}
