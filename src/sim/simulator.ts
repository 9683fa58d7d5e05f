/**
 * The simulator: a seeded world of shops behind a real HTTP server that keeps
 * every rule of the v1 reference. `createSimulator()` gives the Hono app (for
 * `app.request()` in unit tests) and `listen()` a real socket.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { createSimulatorApp, type SimulatorEnv, type SimulatorState } from './app.js';
import { FaultInjector, type FaultRates } from './faults.js';
import { createHints, type HintMode } from './hints.js';
import {
  applyLiveEvent,
  applyLiveEventOfKind,
  type LiveEvent,
  missedCallFrom,
  missedCallFromCaller,
} from './live.js';
import { receiveText } from './operations.js';
import { createRandom } from './random.js';
import { RateLimiter } from './rate-limiter.js';
import { RequestLog } from './request-log.js';
import { type SeededShops, seedWorld } from './seed.js';
import { createWorld, type SimToken, TOKEN_NAMES, type TokenName, type World } from './world.js';

export interface SimulatorOptions {
  /** Same seed, same shops. Default 1. */
  seed?: number;
  /** The simulator's clock (ms); tests move it to cross rate-limit and idempotency windows. */
  now?: () => number;
  /** Requests per minute per token. Default 120, as the reference says. */
  rateLimitPerMinute?: number;
  faults?: Partial<FaultRates>;
  /** New texts, missed calls, reviews and actions arrive on their own. */
  live?: boolean;
  /** The average time between live events, each wait 0.5 to 1.5 times it (customers keep no beat). Default 4 s. */
  liveIntervalMs?: number;
  /**
   * What the answers say of who was in touch besides the threads: `plausible` (default) moves a contact's
   * `last_contact_at` and names contacts in Today's summaries; `none` leaves the threads the only link.
   */
  hints?: HintMode;
}

export interface Simulator {
  readonly app: Hono<SimulatorEnv>;
  readonly world: World;
  readonly shops: SeededShops;
  /** Current value of every named token. */
  readonly tokens: Record<TokenName, string>;
  readonly faults: FaultInjector;
  readonly requests: RequestLog;
  readonly rateLimiter: RateLimiter;
  /** Revokes the token's value (it now gets 401) and issues a new one, in the same mode. */
  rotateToken(name: TokenName): string;
  /** Switches the key of this name to read or write mode, as the shop's API settings do. */
  setTokenMode(name: TokenName, mode: 'read' | 'write'): void;
  /** Requests held open by a hang fault right now. */
  readonly hangingRequests: number;
  /** One live event now, as the live timer would make. */
  tick(): LiveEvent;
  /** One live event of this kind now (a new lead, review, action or inbound text); null when none can happen. */
  inject(kind: LiveEvent['kind']): LiveEvent | null;
  /** A text from the customer of this lead arrives now (an opt-out word, a reply while staff write). */
  receiveText(leadId: string, body: string, shop?: keyof SeededShops): void;
  /** A call from this person is missed now: a new lead (and contact, for a new number; names may repeat). */
  missedCallFrom(caller: { name: string; phone: string }): LiveEvent;
  /** A call from this contact is missed now (a customer who calls again): returns the new lead's id. */
  missedCall(contactId: string, shop?: keyof SeededShops): string;
  listen(options?: { host?: string; port?: number }): Promise<RunningSimulator>;
  /** Stops the live timer, releases hanging requests and closes every listener. */
  close(): Promise<void>;
}

export interface RunningSimulator {
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Activity items kept per shop in live mode (GET /today shows at most 100). */
const MAX_ACTIVITY = 1_000;

const TOKEN_SHOP: Record<TokenName, { shop: keyof SeededShops; mode: 'read' | 'write' }> = {
  write: { shop: 'main', mode: 'write' },
  read: { shop: 'main', mode: 'read' },
  other_shop: { shop: 'other', mode: 'write' },
  no_subscription: { shop: 'noSubscription', mode: 'write' },
  no_number: { shop: 'noNumber', mode: 'write' },
  texting_inactive: { shop: 'textingInactive', mode: 'write' },
};

/** A key that looks like a real one: unguessable, whatever the seed. */
function newKeyValue(): string {
  return `shk_${randomBytes(24).toString('base64url')}`;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const now = options.now ?? Date.now;
  const rng = createRandom(options.seed ?? 1);
  const world = createWorld();
  const shops = seedWorld(world, rng, now());
  const tokens = {} as Record<TokenName, string>;

  const issue = (name: TokenName, mode = TOKEN_SHOP[name].mode): string => {
    const { shop } = TOKEN_SHOP[name];
    const token: SimToken = { name, value: newKeyValue(), shopId: shops[shop].id, mode, revoked: false };
    world.tokens.set(token.value, token);
    tokens[name] = token.value;
    return token.value;
  };
  for (const name of TOKEN_NAMES) issue(name);

  const hanging = new Set<() => void>();
  const state: SimulatorState = {
    world,
    rateLimiter: new RateLimiter(options.rateLimitPerMinute ?? 120),
    faults: new FaultInjector(options.faults),
    requests: new RequestLog(),
    now,
    nextIdPart: () => rng.hex(10),
    idempotency: new Map(),
    hanging,
    dashboardOrigin: 'https://dashboard.shop-ops.example',
    hints: createHints(
      options.hints ?? 'plausible',
      [...world.shops.values()].flatMap((shop) => shop.contacts),
    ),
  };
  const app = createSimulatorApp(state);
  const listeners = new Set<RunningSimulator>();

  const tick = () => {
    const event = applyLiveEvent(world, shops.main, rng, now());
    // A demo left running for days keeps only the newest activity.
    if (shops.main.activity.length > MAX_ACTIVITY)
      shops.main.activity.splice(0, shops.main.activity.length - MAX_ACTIVITY);
    return event;
  };
  // A random of its own, so that the events are those of the seed whatever the waits between them; a wait
  // that keeps no beat, so that no reader polling on a beat of its own always meets an event just after it.
  const waits = createRandom((options.seed ?? 1) + 1);
  const liveIntervalMs = options.liveIntervalMs ?? 4_000;
  let liveTimer: NodeJS.Timeout | undefined;
  const scheduleLive = () => {
    liveTimer = setTimeout(
      () => {
        tick();
        scheduleLive();
      },
      liveIntervalMs * (0.5 + waits.next()),
    );
    liveTimer.unref();
  };
  if (options.live) scheduleLive();

  const releaseHanging = () => {
    for (const release of hanging) release();
    hanging.clear();
  };

  return {
    app,
    world,
    shops,
    tokens,
    faults: state.faults,
    requests: state.requests,
    rateLimiter: state.rateLimiter,
    get hangingRequests() {
      return hanging.size;
    },
    rotateToken(name) {
      const old = world.tokens.get(tokens[name]);
      if (old) {
        old.revoked = true;
        old.name = `${name}:rotated`;
      }
      // The mode is a setting of the shop's API settings, not of one key value: rotating keeps it.
      return issue(name, old?.mode);
    },
    setTokenMode(name, mode) {
      const token = world.tokens.get(tokens[name]);
      if (token) token.mode = mode;
    },
    tick,
    inject: (kind) => applyLiveEventOfKind(kind, world, shops.main, rng, now()),
    missedCallFrom: (caller) => missedCallFromCaller(caller, world, shops.main, rng, now()),
    receiveText(leadId, body, shop = 'main') {
      const lead = shops[shop].leads.find((candidate) => candidate.id === leadId);
      if (!lead) throw new Error(`no lead ${leadId} in the ${shop} shop`);
      receiveText({ world, now: now(), nextIdPart: state.nextIdPart }, shops[shop], lead, body);
    },
    missedCall(contactId, shop = 'main') {
      const contact = shops[shop].contacts.find((candidate) => candidate.id === contactId);
      if (!contact) throw new Error(`no contact ${contactId} in the ${shop} shop`);
      return missedCallFrom(contact, world, shops[shop], rng, now()).lead.id;
    },
    listen({ host = '127.0.0.1', port = 0 } = {}) {
      return new Promise((resolve, reject) => {
        const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
          const hostPart = info.family === 'IPv6' ? `[${info.address}]` : info.address;
          const running: RunningSimulator = {
            baseUrl: `http://${hostPart}:${info.port}/v1`,
            port: info.port,
            close: () =>
              new Promise<void>((done) => {
                listeners.delete(running);
                releaseHanging();
                server.close(() => done());
                (server as import('node:http').Server).closeAllConnections?.();
              }),
          };
          listeners.add(running);
          resolve(running);
        });
        server.once('error', reject);
      });
    },
    async close() {
      if (liveTimer) clearTimeout(liveTimer);
      liveTimer = undefined;
      releaseHanging();
      await Promise.all([...listeners].map((l) => l.close()));
    },
  };
}
