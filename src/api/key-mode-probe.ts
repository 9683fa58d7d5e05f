/**
 * Learning whether a key may write without writing anything: ask for a reply
 * draft (POST /reviews/{id}/draft) to a review that cannot exist.
 *
 * Why this write: it has no body (nothing to fail validation), and even if a
 * review of that id somehow existed it would only make a draft, which the
 * reference says publishes nothing. Deciding an action could send a held
 * text; sending a text is the last thing to try.
 *
 * The assumption (docs/api-assumptions.md): the service checks the key's mode
 * before it looks the record up, as the simulator does (key, rate limit,
 * plan, mode, body, record). Then a read-only key is refused with 403
 * read_only and a write key with 404 not_found, both in the service's own
 * error body. Anything else (a 404 without that body, a 422, a 5xx, a 429, a
 * timeout, a draft for a review that cannot exist, a code never seen) says
 * nothing about the mode: it stays unknown, and is never taken for write.
 */
import { randomBytes } from 'node:crypto';
import { sanitize } from '../text/sanitize.js';
import type { ApiError } from './errors.js';
import { explainApiError } from './explain-error.js';

export type KeyModeAnswer =
  | { mode: 'write' | 'read' }
  /** No clear answer; `transient`: asking again soon may give one (network, 5xx, 429, timeout). */
  | { mode: 'unknown'; why: string; transient: boolean };

/** Every probe's id: clearly the probe's in the shop's logs, random so that no record can have it. */
export const PROBE_ID_PREFIX = 'shop-inbox-mode-probe-';

export function probeReviewId(): string {
  return `${PROBE_ID_PREFIX}${randomBytes(8).toString('hex')}`;
}

/** What the probe's answer says: undefined when the service accepted it (a 2xx), else its error. */
export function keyModeFromAnswer(error: ApiError | undefined): KeyModeAnswer {
  if (!error) {
    return {
      mode: 'unknown',
      why: "the shop's API made a draft for a review that cannot exist, so its answers cannot be read as assumed",
      transient: false,
    };
  }
  if (error.fromService && error.status === 403 && error.code === 'read_only') return { mode: 'read' };
  if (error.fromService && error.status === 404 && error.code === 'not_found') return { mode: 'write' };
  if (error.code === 'aborted')
    return { mode: 'unknown', why: 'the question was cancelled', transient: true };
  if (error.transient) return { mode: 'unknown', why: explainApiError(error), transient: true };
  if (error.status >= 400 && !error.fromService) {
    return {
      mode: 'unknown',
      why: `the shop's API answered HTTP ${error.status} without its error body (a proxy, or an API without this endpoint)`,
      transient: false,
    };
  }
  const code = sanitize(error.code, { singleLine: true });
  const status = error.status > 0 ? `HTTP ${error.status} ` : '';
  return {
    mode: 'unknown',
    why: `the shop's API answered ${status}${code}: ${explainApiError(error)}`,
    transient: false,
  };
}
