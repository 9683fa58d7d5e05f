/**
 * Whether a write's failure leaves its outcome unknown: no answer came, or an
 * answer that says nothing (a 5xx, a shape the contract does not know). The
 * service may have acted; only reading again, or retrying with the same
 * Idempotency-Key, tells. (A 429 is refused before anything is done.)
 */
import { ApiError } from '../api/errors.js';

const UNKNOWN_OUTCOME = new Set(['network', 'timeout', 'server', 'bad_response']);

export function outcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && !error.local && UNKNOWN_OUTCOME.has(error.code);
}
