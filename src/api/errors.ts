/**
 * The one error type every client call rejects with. It carries what a UI
 * needs to explain a failure (status, code, message, issues, retryAfter) and
 * nothing else: never a request, its headers, or the API key.
 */
import { inspect } from 'node:util';
import type { ServiceErrorCode } from '../contract/envelopes.js';
import { capIssues, capText, MAX_CODE_CHARS, MAX_MESSAGE_CHARS } from './limits.js';

/**
 * The documented service codes, plus what the client itself can tell:
 * network (no connection), timeout (no answer in time), server (5xx or a body
 * that is not JSON), bad_response (JSON that breaks the contract), aborted
 * (the caller cancelled), redirect (a 3xx, never followed), untrusted_service (plain http to a
 * loopback port another user listens on: refused before anything was sent). A code the service
 * invents later passes through as-is (capped in length, like every server string).
 */
export type ApiErrorCode =
  | ServiceErrorCode
  | 'network'
  | 'timeout'
  | 'server'
  | 'bad_response'
  | 'aborted'
  | 'redirect'
  | 'untrusted_service'
  | (string & {});

export interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  message: string;
  endpoint: string;
  issues?: unknown[];
  retryAfter?: number;
  attempts?: number;
  /** True when the client refused the call before anything reached the network. */
  local?: boolean;
  /** True when `code` is the service's own, from its error body (not derived from the HTTP status). */
  fromService?: boolean;
}

/**
 * Every string here may come from the server, so each is capped where it is
 * kept (see limits.ts): a megabyte error message must not reach a screen, a
 * log or `shop-inbox status`. Redact the key before constructing: a cut could
 * otherwise leave part of it behind.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** HTTP status, or 0 when no HTTP answer was received (network, timeout, local refusal). */
  readonly status: number;
  readonly code: ApiErrorCode;
  /** e.g. "POST /contacts/{id}/messages": the endpoint, never the ids or query. */
  readonly endpoint: string;
  readonly issues: unknown[] | undefined;
  /** Seconds to wait before calling again (429). */
  readonly retryAfter: number | undefined;
  /** How many attempts were made before giving up (0 for a local refusal). */
  readonly attempts: number;
  readonly local: boolean;
  /** `code` came from the service's error body, not from the HTTP status alone (a proxy's page has none). */
  readonly fromService: boolean;

  constructor(init: ApiErrorInit) {
    super(capText(init.message, MAX_MESSAGE_CHARS));
    this.status = init.status;
    this.code = capText(init.code, MAX_CODE_CHARS);
    this.endpoint = init.endpoint;
    this.issues = init.issues ? capIssues(init.issues) : undefined;
    this.retryAfter = init.retryAfter;
    this.attempts = init.attempts ?? (init.local ? 0 : 1);
    this.local = init.local ?? false;
    this.fromService = init.fromService ?? false;
  }

  /** Whether calling again later can succeed without the user changing anything. */
  get transient(): boolean {
    return ['network', 'timeout', 'server', 'rate_limited'].includes(this.code);
  }

  withAttempts(attempts: number): ApiError {
    return new ApiError({ ...this.toJSON(), attempts });
  }

  override toString(): string {
    return `ApiError [${this.code}${this.status ? ` ${this.status}` : ''}] ${this.message}`;
  }

  toJSON(): ApiErrorInit {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      endpoint: this.endpoint,
      issues: this.issues,
      retryAfter: this.retryAfter,
      attempts: this.attempts,
      local: this.local,
      fromService: this.fromService,
    };
  }

  [inspect.custom](): string {
    return `${this.toString()} ${inspect({ endpoint: this.endpoint, status: this.status, issues: this.issues, retryAfter: this.retryAfter, attempts: this.attempts, local: this.local }, { breakLength: Number.POSITIVE_INFINITY })}`;
  }
}

/** Replaces every occurrence of the secret in text coming back from the server. */
export function redact(text: string, secret: string): string {
  if (secret.length === 0) return text;
  return text.split(secret).join('[redacted]');
}
