/**
 * The typed client of the shop API v1: one function per endpoint, all going
 * through one request path that authenticates, enforces read-only mode,
 * retries by the reference's policy within an overall deadline, and parses
 * answers with the contract's schemas.
 *
 * Nothing a server does can hang a call or fill memory: every body is read
 * through a byte cap (limits.ts, http-exchange.ts); the per-attempt timeout and the
 * call's deadline are timers this module holds and clears itself (Node 20 can
 * garbage-collect an AbortSignal.timeout inside AbortSignal.any, so that it
 * never fires: nodejs/node#57736); redirects are never followed.
 */
import type * as z from 'zod';
import { type Endpoint, endpointPath, endpoints, limitParam } from '../contract/endpoints.js';
import { ErrorBodyLenient, successEnvelope } from '../contract/envelopes.js';
import type {
  ActionList,
  ActionStatusValue,
  Billing,
  ContactList,
  DecisionResult,
  Inbox,
  InboxFilter,
  LeadDetail,
  ReplyDraft,
  ReviewList,
  ShopOverview,
  TextingSetup,
  Today,
} from '../contract/resources.js';
import { sanitize } from '../text/sanitize.js';
import { parseBaseUrl } from './base-url.js';
import { ApiError, type ApiErrorInit, redact } from './errors.js';
import {
  BodyTooLarge,
  BodyUndecodable,
  createConnections,
  exchange,
  type HttpAnswer,
} from './http-exchange.js';
import { type KeyModeAnswer, keyModeFromAnswer, probeReviewId } from './key-mode-probe.js';
import { capText, MAX_BODY_BYTES, MAX_LOCATION_CHARS, MAX_ORIGIN_CHARS } from './limits.js';
import { type LoopbackGuardOptions, trustLoopbackFromEnv, UntrustedServiceError } from './loopback-guard.js';
import {
  backoffDelay,
  DEFAULT_RETRY,
  isRetryable,
  parseRetryAfter,
  type RetryOptions,
} from './retry-policy.js';

export interface ShopClientOptions {
  /** `https://host/…/v1`; plain http only for loopback hosts. */
  baseUrl: string;
  apiKey: string;
  /** When true, nothing but GET leaves the process. */
  readOnly?: boolean;
  /** Longest wait for one attempt (answer and body). Default 10 s. */
  attemptTimeoutMs?: number;
  /** Longest time one call may take, every attempt and wait included. Default 30 s. */
  deadlineMs?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /** Called before each wait between attempts, so a UI can say "retrying in 8 s". */
  onRetry?: (info: RetryInfo) => void;
  /**
   * Awaited before every attempt, retries included: the process-wide request
   * scheduler, which keeps the token's budget and pauses for Retry-After. What
   * it grants is confirmed again just before the attempt is written.
   */
  beforeAttempt?: (request: AttemptInfo, signal: AbortSignal) => Promise<AttemptPermit | undefined>;
  /**
   * Called after every attempt that received an HTTP answer or failed, so the scheduler sees 429s; a
   * success comes with its HTTP status (200, 201…).
   */
  afterAttempt?: (request: AttemptInfo, error: ApiError | undefined, successStatus?: number) => void;
  /**
   * Who may receive plain-http requests on loopback (this user or root, checked per connection).
   * Default: as SHOP_INBOX_TRUST_LOOPBACK says where the owner cannot be known.
   */
  loopbackGuard?: LoopbackGuardOptions;
  /** Test seams: the clock, the wait between attempts and the jitter source. */
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface RetryInfo {
  endpoint: string;
  /** The attempt that just failed, 1 for the first. */
  attempt: number;
  delayMs: number;
  error: ApiError;
}

/**
 * A slot granted by `beforeAttempt`. Its `confirm` is called just before an
 * attempt of the call is written, on a connection ready to take it; what it
 * throws refuses the attempt (nothing is sent) and ends the call with that
 * error. Every permit the call was granted is confirmed before each of its
 * attempts: a call started under a grant that is void now sends no retry.
 */
export interface AttemptPermit {
  confirm(): void;
}

/** An attempt its permit refused just before it was written: nothing was sent. */
class RefusedBeforeWrite {
  constructor(readonly reason: unknown) {}
}

export interface AttemptInfo {
  /** e.g. "GET /inbox". */
  endpoint: string;
  method: string;
  /** The probe of the key's mode: a write in form that changes nothing, as unhurried as a background read. */
  probe?: boolean;
  /** A read catching up with the shop (CallOptions.burst). */
  burst?: boolean;
}

export interface CallOptions {
  /** Cancels the call (every attempt and wait); it then rejects with code "aborted". */
  signal?: AbortSignal;
  /** At most this many attempts for this call (a poller that backs off by itself passes 1). */
  maxAttempts?: number;
  /** A read catching up with the shop (the poller's burst): the request budget may let it past its quiet rate. */
  burst?: boolean;
}

export interface SendTextOptions extends CallOptions {
  /**
   * Make this once, when the user confirms, and reuse it for every retry of the
   * same text: the service sends nothing new for a key it has seen in 24 h.
   * Without one, the send is never retried.
   */
  idempotencyKey?: string;
}

export interface SendTextResult {
  sent: boolean;
  /** True when the service recognised the Idempotency-Key and sent nothing new. */
  replayed: boolean;
}

/** The client of one key over HTTP (not through a hub): it can also ask the shop what the key may do. */
export interface HttpShopClient extends ShopClient {
  /**
   * Asks the shop whether this key may write, without changing anything
   * (src/api/key-mode-probe.ts says how, and what is assumed). The one request
   * that is not a GET and still leaves a read-only client: callers must not
   * make it in a process read-only by choice (--read-only, the config, the
   * wallboard). Never retried; never rejects.
   */
  probeKeyMode(options?: CallOptions): Promise<KeyModeAnswer>;
}

export interface ShopClient {
  readonly baseUrl: string;
  readonly readOnly: boolean;
  /** Switch to read-only for the rest of the process (e.g. after a 403 read_only). */
  setReadOnly(readOnly: boolean): void;
  getMe(options?: CallOptions): Promise<ShopOverview>;
  getToday(params?: { limit?: number }, options?: CallOptions): Promise<Today>;
  getBilling(options?: CallOptions): Promise<Billing>;
  getTexting(options?: CallOptions): Promise<TextingSetup>;
  getInbox(params?: { filter?: InboxFilter; limit?: number }, options?: CallOptions): Promise<Inbox>;
  getContacts(params?: { q?: string; limit?: number }, options?: CallOptions): Promise<ContactList>;
  getLead(leadId: string, params?: { limit?: number }, options?: CallOptions): Promise<LeadDetail>;
  sendText(contactId: string, body: string, options?: SendTextOptions): Promise<SendTextResult>;
  getReviews(params?: { limit?: number }, options?: CallOptions): Promise<ReviewList>;
  draftReply(reviewId: string, options?: CallOptions): Promise<ReplyDraft>;
  getActions(
    params?: { status?: ActionStatusValue; limit?: number },
    options?: CallOptions,
  ): Promise<ActionList>;
  decideAction(actionId: string, status?: 'approved', options?: CallOptions): Promise<DecisionResult>;
  getOpenApi(options?: CallOptions): Promise<Record<string, unknown>>;
}

interface RequestSpec {
  /** The probe of the key's mode (probeKeyMode): let through in read-only mode. */
  probe?: boolean;
  pathId?: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  maxAttempts?: number;
  burst?: boolean;
}

const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 30_000;

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function describeEndpoint(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** The first schema problem, as "data.items[3].rating: expected number", without values. */
function describeSchemaProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  const path = issue.path.reduce<string>(
    (text, key) =>
      typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
    '',
  );
  return `${path || '(body)'}: ${issue.message}`;
}

/** The system's reason for a failed connection: ECONNREFUSED, ENOTFOUND, ECONNRESET… */
function networkReason(error: unknown): string {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof failure?.code === 'string') return capText(failure.code, 40);
  if (typeof failure?.cause?.code === 'string') return capText(failure.cause.code, 40);
  return 'connection failed';
}

/**
 * The signal of one attempt: aborted by its own timer after `ms`, or when the
 * call's signal aborts. `clear()` stops the timer and unlinks it from the call.
 */
function attemptController(call: AbortSignal, ms: number) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('attempt timed out', 'TimeoutError'));
  }, ms);
  const onCallAbort = () => controller.abort(call.reason);
  if (call.aborted) onCallAbort();
  else call.addEventListener('abort', onCallAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      call.removeEventListener('abort', onCallAbort);
    },
  };
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts,
 * whether or not the HTTP stack noticed the signal. A response that still
 * arrives afterwards has its body dropped.
 */
function unlessAborted(promise: Promise<HttpAnswer>, signal: AbortSignal): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      promise.then(
        (answer) => answer.discard(),
        () => {},
      );
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** "10 s", "0.4 s": a duration as people read it (a short test timeout must not say "0 s"). */
function seconds(ms: number): string {
  return `${ms >= 10_000 ? Math.round(ms / 1000) : Math.round(ms / 100) / 10} s`;
}

/** For a write whose answer could not be read: it may have been done all the same. */
function mayHaveTakenEffect(endpoint: Endpoint): string {
  if (endpoint.method === 'GET') return '';
  return endpoint.name === 'sendText'
    ? '; the text may have been sent: check the thread before sending again'
    : '; it may have been done all the same';
}

export function createShopClient(options: ShopClientOptions): HttpShopClient {
  const baseUrl = parseBaseUrl(options.baseUrl);
  // The key lives only in this closure and the Authorization header: never on
  // an object that could be logged or inspected.
  const apiKey = options.apiKey;
  if (!apiKey || /\s/.test(apiKey)) {
    throw new TypeError('the API key is empty or contains white space');
  }
  let readOnly = options.readOnly ?? false;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;

  const connections = createConnections({
    trustWhenUnknown: trustLoopbackFromEnv(process.env),
    ...options.loopbackGuard,
  });
  const userAgent = options.userAgent ?? 'shop-inbox';

  function fail(endpoint: Endpoint, init: Omit<ApiErrorInit, 'endpoint'>): ApiError {
    return new ApiError({
      ...init,
      message: redact(init.message, apiKey),
      endpoint: describeEndpoint(endpoint),
    });
  }

  function checkLocally(endpoint: Endpoint, spec: RequestSpec): void {
    if (readOnly && endpoint.method !== 'GET' && !spec.probe) {
      throw fail(endpoint, {
        status: 0,
        code: 'read_only',
        local: true,
        message: `read-only mode: ${describeEndpoint(endpoint)} was not sent`,
      });
    }
    const limit = spec.query?.limit;
    if (limit !== undefined && !limitParam.safeParse(limit).success) {
      throw fail(endpoint, {
        status: 0,
        code: 'invalid',
        local: true,
        message: `limit must be an integer from 1 to 100 (got ${String(limit)})`,
        issues: [{ field: 'limit', message: 'must be an integer from 1 to 100' }],
      });
    }
  }

  /** One attempt: an HTTP exchange turned into data or an ApiError. */
  async function attempt(
    endpoint: Endpoint,
    spec: RequestSpec,
    signal: AbortSignal,
    permits: readonly AttemptPermit[],
  ): Promise<{ data: unknown; status: number }> {
    const url = new URL(`${baseUrl}${endpointPath(endpoint, spec.pathId)}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (endpoint.mode !== 'public') headers.authorization = `Bearer ${apiKey}`;
    if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
    if (spec.json !== undefined) headers['content-type'] = 'application/json';

    const response = await unlessAborted(
      exchange(
        {
          method: endpoint.method,
          url,
          headers,
          signal,
          beforeWrite: () => {
            try {
              for (const permit of permits) permit.confirm();
            } catch (refusal) {
              throw new RefusedBeforeWrite(refusal);
            }
          },
          ...(spec.json !== undefined ? { body: JSON.stringify(spec.json) } : {}),
        },
        connections,
      ),
      signal,
    );

    // A redirect is never followed: following would re-send the body, Idempotency-Key and
    // bearer key to wherever the server points, plain http included.
    if (response.status >= 300 && response.status < 400) {
      response.discard();
      throw fail(endpoint, {
        status: response.status,
        code: 'redirect',
        message: redirectMessage(endpoint, response),
      });
    }

    const ok = response.status >= 200 && response.status < 300;
    let text: string;
    try {
      text = await response.text(MAX_BODY_BYTES);
    } catch (caught) {
      if (!(caught instanceof BodyTooLarge || caught instanceof BodyUndecodable)) throw caught;
      if (!ok) {
        // The status still says what happened; only the body is dropped.
        throw statusError(endpoint, response, undefined);
      }
      throw fail(endpoint, {
        status: response.status,
        code: 'bad_response',
        message:
          caught instanceof BodyTooLarge
            ? `the shop's answer was too large (over ${MAX_BODY_BYTES / 1024 / 1024} MiB)${mayHaveTakenEffect(endpoint)}`
            : `the shop's answer could not be decoded (it said ${capText(caught.encoding, 20)})${mayHaveTakenEffect(endpoint)}`,
      });
    }
    let body: unknown;
    let isJson = true;
    try {
      body = JSON.parse(text);
    } catch {
      isJson = false;
    }

    if (ok) {
      if (!isJson) {
        throw fail(endpoint, {
          status: response.status,
          code: 'server',
          message: `the shop's API answered HTTP ${response.status} with a body that is not JSON`,
        });
      }
      if (!endpoint.data) return { data: body, status: response.status };
      const parsed = successEnvelope(endpoint.data).safeParse(body);
      if (!parsed.success) {
        throw fail(endpoint, {
          status: response.status,
          code: 'bad_response',
          message: `the shop's API answered with an unexpected shape (${describeSchemaProblem(parsed.error)})${mayHaveTakenEffect(endpoint)}`,
        });
      }
      return { data: parsed.data.data, status: response.status };
    }
    throw statusError(endpoint, response, isJson ? body : undefined);
  }

  /**
   * An error's status decides what it means, whatever the body: a proxy in
   * front of the API may answer 429 or 502 with an HTML page.
   */
  function statusError(endpoint: Endpoint, response: HttpAnswer, body: unknown): ApiError {
    const errorBody = body === undefined ? ({ success: false } as const) : ErrorBodyLenient.safeParse(body);
    const retryAfter = parseRetryAfter(response.header('retry-after') ?? null, now());
    const fallbackCode =
      response.status === 401
        ? 'unauthorized'
        : response.status === 404
          ? 'not_found'
          : response.status === 422
            ? 'invalid'
            : response.status === 429
              ? 'rate_limited'
              : `http_${response.status}`;
    const fromService = response.status < 500 && errorBody.success;
    return fail(endpoint, {
      status: response.status,
      code: response.status >= 500 ? 'server' : errorBody.success ? errorBody.data.code : fallbackCode,
      fromService,
      message: errorBody.success ? errorBody.data.error : `the shop's API answered HTTP ${response.status}`,
      ...(errorBody.success && errorBody.data.issues ? { issues: errorBody.data.issues } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
  }

  /** "…to https://elsewhere.example — not followed": the origin only, cut and made safe to print. */
  function redirectMessage(endpoint: Endpoint, response: HttpAnswer): string {
    const location = response.header('location') ?? null;
    let where = 'an address it did not give';
    if (location !== null && location.length > MAX_LOCATION_CHARS) where = 'an address too long to show';
    else if (location !== null) {
      try {
        const target = new URL(location, `${baseUrl}/`);
        where = sanitize(
          capText(target.origin === 'null' ? target.protocol : target.origin, MAX_ORIGIN_CHARS),
          {
            singleLine: true,
          },
        );
      } catch {
        where = 'an address that is not a URL';
      }
    }
    const notDone =
      endpoint.name === 'sendText'
        ? ' (the text was not sent by this request)'
        : endpoint.method === 'GET'
          ? ''
          : ' (this request was not carried out)';
    return `the shop's API answered with a redirect (HTTP ${response.status}) to ${where} — not followed${notDone}; check the base URL`;
  }

  async function request(endpoint: Endpoint, spec: RequestSpec): Promise<unknown> {
    checkLocally(endpoint, spec);
    const startedAt = now();
    // The call's deadline and the caller's cancel both stop this controller;
    // `stoppedBy` says which. Its timer is held here and cleared when done.
    const call = new AbortController();
    let stoppedBy: 'caller' | 'deadline' | undefined;
    const stop = (by: 'caller' | 'deadline') => {
      if (call.signal.aborted) return;
      stoppedBy = by;
      call.abort(
        by === 'caller'
          ? new DOMException('cancelled by the caller', 'AbortError')
          : new DOMException('call deadline passed', 'TimeoutError'),
      );
    };
    const deadlineTimer = setTimeout(() => stop('deadline'), deadlineMs);
    const onCallerAbort = () => stop('caller');
    if (spec.signal?.aborted) onCallerAbort();
    else spec.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const classifyNow = (caught: unknown, attemptTimedOut = false) =>
      classify(endpoint, caught, stoppedBy, attemptTimedOut);

    const permits: AttemptPermit[] = [];
    try {
      for (let attemptNumber = 1; ; attemptNumber += 1) {
        const info: AttemptInfo = {
          endpoint: describeEndpoint(endpoint),
          method: endpoint.method,
          ...(spec.probe ? { probe: true } : {}),
          ...(spec.burst ? { burst: true } : {}),
        };
        try {
          const permit = await options.beforeAttempt?.(info, call.signal);
          if (permit) permits.push(permit);
          if (call.signal.aborted) throw call.signal.reason;
        } catch (caught) {
          throw classifyNow(caught).withAttempts(attemptNumber - 1);
        }
        const remaining = deadlineMs - (now() - startedAt);
        // The last attempt ends with the deadline: its timer and the deadline's fire together, in either order.
        const endsWithDeadline = remaining <= attemptTimeoutMs;
        const attemptTimer = attemptController(
          call.signal,
          Math.max(1, Math.min(attemptTimeoutMs, remaining)),
        );
        let error: ApiError;
        try {
          const answer = await attempt(endpoint, spec, attemptTimer.signal, permits);
          options.afterAttempt?.(info, undefined, answer.status);
          return answer.data;
        } catch (caught) {
          // Refused as it was about to be written, as if refused before the attempt: nothing was sent.
          if (caught instanceof RefusedBeforeWrite)
            throw classifyNow(caught.reason).withAttempts(attemptNumber - 1);
          if (attemptTimer.timedOut() && endsWithDeadline) stop('deadline');
          error = classifyNow(caught, attemptTimer.timedOut()).withAttempts(attemptNumber);
        } finally {
          attemptTimer.clear();
        }
        options.afterAttempt?.(info, error);
        if (error.code === 'aborted' || stoppedBy === 'deadline') throw error;
        if (
          attemptNumber >= Math.min(retry.maxAttempts, spec.maxAttempts ?? Number.POSITIVE_INFINITY) ||
          !isRetryable(error, endpoint.method, Boolean(spec.idempotencyKey))
        ) {
          throw error;
        }
        const delayMs =
          error.retryAfter !== undefined
            ? error.retryAfter * 1000
            : backoffDelay(attemptNumber, retry, random);
        // Waiting past the deadline is pointless: hand the error (with its
        // retryAfter) to the caller, whose scheduler can pause everything.
        if (now() - startedAt + delayMs >= deadlineMs) throw error;
        options.onRetry?.({ endpoint: describeEndpoint(endpoint), attempt: attemptNumber, delayMs, error });
        try {
          await sleep(delayMs, call.signal);
        } catch (caught) {
          throw classifyNow(caught).withAttempts(attemptNumber);
        }
      }
    } finally {
      clearTimeout(deadlineTimer);
      spec.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  function classify(
    endpoint: Endpoint,
    caught: unknown,
    stoppedBy: 'caller' | 'deadline' | undefined,
    attemptTimedOut: boolean,
  ): ApiError {
    if (caught instanceof ApiError) return caught;
    if (caught instanceof UntrustedServiceError) {
      // Refused before anything was written: not a network failure, and never retried.
      return fail(endpoint, { status: 0, code: 'untrusted_service', local: true, message: caught.message });
    }
    if (stoppedBy === 'caller') {
      return fail(endpoint, { status: 0, code: 'aborted', message: 'the request was cancelled' });
    }
    if (stoppedBy === 'deadline') {
      return fail(endpoint, {
        status: 0,
        code: 'timeout',
        message: `no answer from the shop's API within ${seconds(deadlineMs)}`,
      });
    }
    if (attemptTimedOut) {
      return fail(endpoint, {
        status: 0,
        code: 'timeout',
        message: `the shop's API did not answer within ${seconds(attemptTimeoutMs)}`,
      });
    }
    return fail(endpoint, {
      status: 0,
      code: 'network',
      message: `could not reach the shop's API (${networkReason(caught)})`,
    });
  }

  const e = endpoints;
  return {
    baseUrl,
    get readOnly() {
      return readOnly;
    },
    setReadOnly(value) {
      readOnly = value;
    },
    getMe: (o) => request(e.getMe, { ...o }) as Promise<ShopOverview>,
    getToday: (p, o) => request(e.getToday, { query: { limit: p?.limit }, ...o }) as Promise<Today>,
    getBilling: (o) => request(e.getBilling, { ...o }) as Promise<Billing>,
    getTexting: (o) => request(e.getTexting, { ...o }) as Promise<TextingSetup>,
    getInbox: (p, o) =>
      request(e.getInbox, { query: { filter: p?.filter, limit: p?.limit }, ...o }) as Promise<Inbox>,
    getContacts: (p, o) =>
      request(e.getContacts, { query: { q: p?.q, limit: p?.limit }, ...o }) as Promise<ContactList>,
    getLead: (leadId, p, o) =>
      request(e.getLead, { pathId: leadId, query: { limit: p?.limit }, ...o }) as Promise<LeadDetail>,
    sendText: async (contactId, body, o) => {
      const result = (await request(e.sendText, {
        pathId: contactId,
        json: { body },
        idempotencyKey: o?.idempotencyKey,
        signal: o?.signal,
        maxAttempts: o?.maxAttempts,
      })) as { sent: boolean; replayed?: boolean };
      return { sent: result.sent, replayed: result.replayed === true };
    },
    getReviews: (p, o) => request(e.getReviews, { query: { limit: p?.limit }, ...o }) as Promise<ReviewList>,
    draftReply: (reviewId, o) => request(e.draftReply, { pathId: reviewId, ...o }) as Promise<ReplyDraft>,
    getActions: (p, o) =>
      request(e.getActions, { query: { status: p?.status, limit: p?.limit }, ...o }) as Promise<ActionList>,
    decideAction: (actionId, status = 'approved', o) =>
      request(e.decideAction, { pathId: actionId, json: { status }, ...o }) as Promise<DecisionResult>,
    getOpenApi: (o) => request(e.getOpenApi, { ...o }) as Promise<Record<string, unknown>>,
    probeKeyMode: async (o) => {
      try {
        await request(e.draftReply, {
          pathId: probeReviewId(),
          probe: true,
          maxAttempts: 1,
          ...(o?.signal ? { signal: o.signal } : {}),
        });
        return keyModeFromAnswer(undefined);
      } catch (caught) {
        if (caught instanceof ApiError) return keyModeFromAnswer(caught);
        throw caught;
      }
    },
  };
}
