/**
 * What this process's requests to the shop came to, counted as they are made
 * (the session's client reports every attempt): per endpoint and outcome, the
 * 429s, how long reads took, and when a read last succeeded. It makes no
 * request of its own: /metrics is served from these and from the store.
 */

/** Upper bounds (seconds) of the read latency histogram's buckets. */
export const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export interface AttemptOutcome {
  /** "GET /leads/{id}": the endpoint's template, never an id. */
  endpoint: string;
  method: string;
  /** The HTTP status of a failure, 0 when no answer came; undefined for a success. */
  failureStatus?: number;
  /** The HTTP status of a success (200, 201…), when known. */
  successStatus?: number | undefined;
  /** The failure's code ("network", "timeout", "rate_limited", "aborted"…), for a failure. */
  failureCode?: string;
  /** From the attempt's start (after the budget let it go) to its end. */
  seconds: number;
}

export interface LatencyHistogram {
  /** Cumulative counts, one per LATENCY_BUCKETS bound. */
  buckets: number[];
  count: number;
  sum: number;
}

export class RequestStats {
  /** `endpoint` + "\u0000" + status label → attempts. */
  private readonly counts = new Map<string, number>();
  private rateLimitedCount = 0;
  private readonly latency: LatencyHistogram = {
    buckets: LATENCY_BUCKETS.map(() => 0),
    count: 0,
    sum: 0,
  };
  private lastReadOk: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  record(outcome: AttemptOutcome): void {
    // Our own cancellation (a switch, a quit) is no outcome of the shop's.
    if (outcome.failureCode === 'aborted') return;
    const status = statusLabel(outcome);
    const key = `${outcome.endpoint}\u0000${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (outcome.failureCode === 'rate_limited' || outcome.failureStatus === 429) this.rateLimitedCount += 1;
    if (outcome.method !== 'GET') return;
    const answered = outcome.failureStatus === undefined || outcome.failureStatus > 0;
    if (answered) {
      this.latency.count += 1;
      this.latency.sum += outcome.seconds;
      LATENCY_BUCKETS.forEach((bound, index) => {
        if (outcome.seconds <= bound) this.latency.buckets[index] = (this.latency.buckets[index] ?? 0) + 1;
      });
    }
    if (outcome.failureStatus === undefined) this.lastReadOk = this.now();
  }

  /** Attempts per endpoint and status label ("200", "201", "429", "503", "network", "timeout"…). */
  requests(): Array<{ endpoint: string; status: string; count: number }> {
    return [...this.counts].map(([key, count]) => {
      const [endpoint = '', status = ''] = key.split('\u0000');
      return { endpoint, status, count };
    });
  }

  get rateLimited(): number {
    return this.rateLimitedCount;
  }

  readLatency(): Readonly<LatencyHistogram> {
    return { ...this.latency, buckets: [...this.latency.buckets] };
  }

  /** When a read last came back whole, undefined before the first. */
  get lastSuccessfulReadAt(): number | undefined {
    return this.lastReadOk;
  }
}

function statusLabel(outcome: AttemptOutcome): string {
  if (outcome.failureStatus === undefined)
    return outcome.successStatus ? String(outcome.successStatus) : '2xx';
  if (outcome.failureStatus > 0) return String(outcome.failureStatus);
  return outcome.failureCode ?? 'error';
}
