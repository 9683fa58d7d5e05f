/**
 * The reference's limit: 120 requests per minute, counted per token, over all
 * calls under /v1. A sliding one-minute window; refused requests do not count,
 * so Retry-After is exactly when the oldest counted request leaves the window.
 */
export const WINDOW_MS = 60_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(readonly perMinute: number) {}

  take(token: string, now: number): RateDecision {
    const recent = (this.hits.get(token) ?? []).filter((at) => at > now - WINDOW_MS);
    if (recent.length >= this.perMinute) {
      this.hits.set(token, recent);
      const oldest = recent[0] ?? now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    recent.push(now);
    this.hits.set(token, recent);
    return { allowed: true };
  }

  reset(): void {
    this.hits.clear();
  }
}
