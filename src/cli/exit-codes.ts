/**
 * The exit codes of the commands scripts run (the table with their meanings is
 * EXIT_CODES in verb-table.ts), and the one rule from a failure to its code.
 */
import { ApiError } from '../api/errors.js';
import { ConfigError } from '../config/config-error.js';
import { UsageError } from './usage-error.js';

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  refused: 3,
  notAllowed: 4,
  rateLimited: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Codes of the shop (or of this process's own read-only mode) that say the key may not do this. */
const NOT_ALLOWED = new Set(['unauthorized', 'no_subscription', 'read_only']);

/** The exit code a failure ends a command with. */
export function exitCodeOf(error: unknown): ExitCode {
  if (
    error instanceof UsageError ||
    (error as { code?: unknown })?.code?.toString().startsWith('ERR_PARSE_ARGS')
  )
    return EXIT.usage;
  if (error instanceof ApiError) {
    if (NOT_ALLOWED.has(error.code)) return EXIT.notAllowed;
    if (error.code === 'rate_limited') return EXIT.rateLimited;
    return EXIT.error;
  }
  if (error instanceof ConfigError) return EXIT.error;
  return EXIT.error;
}
