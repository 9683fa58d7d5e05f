/**
 * Starts the simulator on a real loopback socket for a test, and gives clients
 * for its tokens. Requests go over HTTP exactly as the app's would.
 */
import { afterEach } from 'vitest';
import { createShopClient, type HttpShopClient, type ShopClientOptions } from '../../src/api/client.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/simulator.js';
import type { TokenName } from '../../src/sim/world.js';

export interface TestSim {
  sim: Simulator;
  baseUrl: string;
  origin: string;
  client(token?: TokenName, options?: Partial<ShopClientOptions>): HttpShopClient;
  /** What the simulator handled, read over HTTP from /_sim/requests. */
  requests(): Promise<LoggedRequest[]>;
  /** Raw fetch under the base URL, for the simulator's own rules. */
  fetch(path: string, init?: RequestInit & { token?: TokenName | null }): Promise<Response>;
}

const running: Simulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

/** Waits between retries are recorded, not slept, unless a test asks for real time. */
export function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number, signal: AbortSignal) => {
      if (signal.aborted) throw signal.reason;
      waits.push(ms);
    },
  };
}

export async function startSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = createSimulator(options);
  running.push(sim);
  const { baseUrl } = await sim.listen();
  const origin = new URL(baseUrl).origin;
  return {
    sim,
    baseUrl,
    origin,
    client: (token = 'write', clientOptions = {}) =>
      createShopClient({
        baseUrl,
        apiKey: sim.tokens[token],
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        ...clientOptions,
      }),
    requests: async () => (await fetch(`${origin}/_sim/requests`)).json() as Promise<LoggedRequest[]>,
    fetch: (path, init = {}) => {
      const { token = 'write', ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== null) headers.set('authorization', `Bearer ${sim.tokens[token]}`);
      return fetch(`${baseUrl}${path}`, { ...rest, headers });
    },
  };
}

/** A clock a test can move: the simulator's `now`. */
export function manualClock(start = Date.parse('2026-11-21T12:00:00Z')) {
  let current = start;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
}

/** A loopback port nothing listens on (closed right after the OS handed it out). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
