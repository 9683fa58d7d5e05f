/**
 * When to try a call again, and how long to wait first. The reference says:
 * retry 429 (after Retry-After) and 5xx, never 400/401/403/422. Network
 * failures and timeouts are retried like 5xx. A POST is retried only when it
 * carries an Idempotency-Key, so a retry can never send a second text.
 */
import type { ApiError } from './errors.js';
import { MAX_HEADER_CHARS, MAX_RETRY_AFTER_S } from './limits.js';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; it doubles each time. */
  baseDelayMs: number;
  /** Ceiling of one backoff wait. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

export function isRetryable(error: ApiError, method: string, hasIdempotencyKey: boolean): boolean {
  if (error.local) return false;
  if (method !== 'GET' && !hasIdempotencyKey) return false;
  return (
    error.code === 'rate_limited' ||
    error.code === 'network' ||
    error.code === 'timeout' ||
    error.code === 'server'
  );
}

/**
 * Capped exponential backoff with "equal jitter": half the step is fixed,
 * half random, so clients that failed together do not retry together, yet
 * nobody retries at once. `failures` is 1 after the first failed attempt.
 */
export function backoffDelay(failures: number, options: RetryOptions, random: () => number): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Retry-After as whole seconds: either a number of seconds or an HTTP date.
 * At most MAX_RETRY_AFTER_S: the whole process pauses for it, and a header
 * saying "a year" (or a thousand digits) must not stop the inbox for good.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.length > MAX_HEADER_CHARS) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(MAX_RETRY_AFTER_S, Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.ceil((date - nowMs) / 1000)));
}
