/**
 * What to tell a person about a failed call, in plain words, with what to do
 * next. Shared by `shop-inbox status` and the inbox's panes and status bar.
 * A message from the server is capped by ApiError and made safe here: one line,
 * no escape sequences or control characters.
 */
import { sanitize } from '../text/sanitize.js';
import type { ApiError } from './errors.js';

export type ExplainableError = Pick<ApiError, 'code' | 'message' | 'status'> & {
  retryAfter?: number | undefined;
  local?: boolean;
};

export function explainApiError(error: ExplainableError): string {
  switch (error.code) {
    case 'unauthorized':
      return "the shop's API refused the key: it is missing, truncated, or was rotated. Copy the current key from the shop's API settings (rotating it there also disconnects the assistant connection).";
    case 'no_subscription':
      return "the shop's plan cannot use the API. Change the plan in the shop's billing settings.";
    case 'read_only':
      return error.local
        ? 'read-only mode: nothing was sent.'
        : "this key is read-only: turn on write mode in the shop's API settings.";
    case 'no_number':
      return 'the shop has no texting number yet: nothing was sent.';
    case 'texting_inactive':
      return 'texting is not active yet (carrier registration unfinished): nothing was sent.';
    case 'not_found':
      return 'not found: it was removed, or belongs to another shop.';
    case 'rate_limited':
      return `too many requests on this key (all terminals of the shop share it); try again in ${error.retryAfter ?? 60} s.`;
    case 'network':
    case 'timeout':
      return `${sanitize(error.message, { singleLine: true })}. Check the base URL and the network.`;
    case 'server':
      return `the shop's API had a problem (${error.status ? `HTTP ${error.status}` : 'bad answer'}).`;
    default:
      // bad_response, redirect, and codes the service invents: the message says it all.
      return sanitize(error.message, { singleLine: true });
  }
}
