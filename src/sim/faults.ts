/**
 * Fault injection for tests and demos: what a flaky network or a struggling
 * service does to a client. Faults apply to /v1 calls only, before
 * authentication, so they never touch the rate-limit count.
 *
 * Two ways to use it: rates (a share of all requests, for demos and soak
 * runs) and a queue of scripted faults for the next requests (for tests that
 * must be deterministic).
 */
export type Fault =
  | { kind: 'status'; status: 500 | 502 | 503 | 504 }
  /** Never answer; the connection stays open until the client gives up or the server closes. */
  | { kind: 'hang' }
  /** Destroy the connection without an answer, before the request is handled. */
  | { kind: 'reset' }
  /**
   * Handle the request (a text is really sent), then destroy the connection
   * instead of answering: the case that makes a naive retry send twice.
   */
  | { kind: 'drop_response' }
  /** Answer 200 with a body that is not valid JSON. */
  | { kind: 'malformed' }
  /**
   * Handle the request (a text is really sent), then answer 200 with JSON the
   * contract does not know: the client cannot tell what happened.
   */
  | { kind: 'wrong_shape' }
  /** Answer 429 rate_limited with this Retry-After, as if the budget were spent. */
  | { kind: 'rate_limit'; retryAfterSeconds: number }
  /**
   * Handle the request only once `until` settles: a request in flight over a
   * slow link (tests hold a write there to act while it is under way).
   */
  | { kind: 'hold'; until: Promise<void> };

export interface FaultRates {
  /** Added delay before every /v1 answer, in ms. */
  latencyMs: number;
  /** Share (0..1) of requests answered 500/502/503/504. */
  errorRate: number;
  hangRate: number;
  resetRate: number;
  malformedRate: number;
}

export const NO_FAULTS: FaultRates = {
  latencyMs: 0,
  errorRate: 0,
  hangRate: 0,
  resetRate: 0,
  malformedRate: 0,
};

const SERVER_ERRORS = [500, 502, 503, 504] as const;

export class FaultInjector {
  private rates: FaultRates;
  private readonly queue: Fault[] = [];

  constructor(
    rates: Partial<FaultRates> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.rates = { ...NO_FAULTS, ...rates };
  }

  get latencyMs(): number {
    return this.rates.latencyMs;
  }

  setRates(rates: Partial<FaultRates>): void {
    this.rates = { ...this.rates, ...rates };
  }

  /** The next `count` /v1 requests meet this fault, in order, before any rate-based one. */
  failNext(fault: Fault, count = 1): void {
    for (let i = 0; i < count; i += 1) this.queue.push(fault);
  }

  /** A burst of 429s, as when other terminals of the shop spent the token's minute. */
  rateLimitBurst(count: number, retryAfterSeconds: number): void {
    this.failNext({ kind: 'rate_limit', retryAfterSeconds }, count);
  }

  clear(): void {
    this.queue.length = 0;
    this.rates = { ...NO_FAULTS };
  }

  /** The fault the current request meets, if any. */
  draw(): Fault | undefined {
    const scripted = this.queue.shift();
    if (scripted) return scripted;
    const { errorRate, hangRate, resetRate, malformedRate } = this.rates;
    let roll = this.random();
    if (roll < errorRate) {
      return {
        kind: 'status',
        status: SERVER_ERRORS[Math.floor(this.random() * SERVER_ERRORS.length)] ?? 503,
      };
    }
    roll -= errorRate;
    if (roll < hangRate) return { kind: 'hang' };
    roll -= hangRate;
    if (roll < resetRate) return { kind: 'reset' };
    roll -= resetRate;
    if (roll < malformedRate) return { kind: 'malformed' };
    return undefined;
  }
}
