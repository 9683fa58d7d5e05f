/**
 * The instant the commands take as now (quiet hours at the customer's, how long
 * someone has waited, the ages `check` measures): this machine's clock, unless
 * SHOP_INBOX_NOW names another. That variable is for tests, which must not
 * depend on when they run; it is documented as such and never needed otherwise.
 */
import { UsageError } from './usage-error.js';

export const CLOCK_VARIABLE = 'SHOP_INBOX_NOW';

/** now(): the clock of this run. SHOP_INBOX_NOW is an ISO 8601 instant or milliseconds since 1970. */
export function cliClock(env: NodeJS.ProcessEnv): () => number {
  const fixed = env[CLOCK_VARIABLE]?.trim();
  if (!fixed) return Date.now;
  const at = /^\d+$/.test(fixed) ? Number(fixed) : Date.parse(fixed);
  if (!Number.isFinite(at))
    throw new UsageError(
      `${CLOCK_VARIABLE} must be an ISO 8601 instant or milliseconds (got ${fixed.slice(0, 40)})`,
    );
  return () => at;
}

/** This machine's time zone (TZ, else the system's). */
export const machineTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
