/**
 * The simulator's HTTP surface: every endpoint and rule of the v1 reference
 * (auth, read/write modes, per-token rate limit, validation, idempotent sends,
 * shop isolation), plus the test-only /_sim paths.
 */
import type { HttpBindings } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import type * as z from 'zod';
import {
  DecideBody,
  type Endpoint,
  endpoints,
  IDEMPOTENCY_KEY_MAX,
  LIMIT_DEFAULT,
  SendTextBody,
} from '../contract/endpoints.js';
import type { Issue, ServiceErrorCode } from '../contract/envelopes.js';
import { ErrorCodeStatus } from '../contract/envelopes.js';
import { buildOpenApiDocument } from '../contract/openapi.js';
import type { FaultInjector } from './faults.js';
import type { Hints } from './hints.js';
import { approveAction, deliverText, draftReply, type OperationContext } from './operations.js';
import type { RateLimiter } from './rate-limiter.js';
import type { LoggedRequest, RequestLog } from './request-log.js';
import {
  actionView,
  activityView,
  billingView,
  contactView,
  inboxLeadView,
  isOpen,
  isTextingLive,
  latestInboundView,
  leadDetailView,
  matchesContactQuery,
  needsCallback,
  newestFirst,
  overviewView,
  reviewView,
  textingView,
} from './views.js';
import type { SimShop, SimToken, World } from './world.js';

/** How long a send's Idempotency-Key is remembered (the reference: 24 hours). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface SimulatorState {
  world: World;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  requests: RequestLog;
  now: () => number;
  nextIdPart: () => string;
  /** shopId + key → when the text was sent. */
  idempotency: Map<string, number>;
  /** Resolvers of hanging requests, released when the server closes. */
  hanging: Set<() => void>;
  /** Dashboard links in GET /me. */
  dashboardOrigin: string;
  /** What the answers say of who was in touch besides the threads (src/sim/hints.ts). */
  hints: Hints;
}

export type SimulatorEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { shop: SimShop; token: SimToken; connectionLost: boolean };
};
type Ctx = Context<SimulatorEnv>;

function fail(c: Ctx, code: ServiceErrorCode, message: string, issues?: Issue[]) {
  return c.json({ error: message, code, ...(issues ? { issues } : {}) }, ErrorCodeStatus[code]);
}

function invalid(c: Ctx, issues: Issue[]) {
  const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return fail(c, 'invalid', `The request does not match the contract (${summary})`, issues);
}

function zodIssues(error: z.ZodError, fallbackField: string): Issue[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : fallbackField,
    message: issue.message,
  }));
}

/** Reads and validates the query parameters an endpoint declares; unknown ones are ignored. */
function readQuery(c: Ctx, endpoint: Endpoint): { values: Record<string, unknown> } | { issues: Issue[] } {
  const values: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [name, param] of Object.entries(endpoint.query ?? {})) {
    const raw = c.req.query(name);
    if (raw === undefined) continue;
    if (param.kind === 'integer' && !/^-?\d+$/.test(raw)) {
      issues.push({ field: name, message: 'must be an integer' });
      continue;
    }
    const parsed = param.schema.safeParse(param.kind === 'integer' ? Number(raw) : raw);
    if (parsed.success) values[name] = parsed.data;
    else issues.push(...zodIssues(parsed.error, name));
  }
  return issues.length > 0 ? { issues } : { values };
}

async function readBody<T>(c: Ctx, schema: z.ZodType<T>): Promise<{ value: T } | { issues: Issue[] }> {
  // Not JSON (its text), or no body at all: not an object either.
  const json = jsonOrText(await c.req.text());
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { issues: [{ field: 'request_body', message: 'must be a JSON object' }] };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { value: parsed.data } : { issues: zodIssues(parsed.error, 'request_body') };
}

function jsonOrText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The key in use under this name (a rotated one is not). */
function liveToken(world: World, name: string): SimToken | undefined {
  for (const token of world.tokens.values()) if (token.name === name && !token.revoked) return token;
  return undefined;
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

export function createSimulatorApp(state: SimulatorState): Hono<SimulatorEnv> {
  const app = new Hono<SimulatorEnv>();
  const opContext = (): OperationContext => ({
    world: state.world,
    now: state.now(),
    nextIdPart: state.nextIdPart,
  });
  const tokenName = (value: string | null) =>
    value === null ? null : (state.world.tokens.get(value)?.name ?? 'unknown');

  // Log every request except the inspection path itself.
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    if (url.pathname.startsWith('/_sim/')) return next();
    const entry: LoggedRequest = {
      method: c.req.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      status: 0,
      token: tokenName(bearerToken(c.req.header('authorization'))),
      idempotencyKey: c.req.header('idempotency-key') ?? null,
      userAgent: c.req.header('user-agent') ?? null,
    };
    // Read once here, kept by Hono for the route that reads it again.
    if (c.req.method !== 'GET') entry.body = jsonOrText(await c.req.text());
    state.requests.add(entry);
    await next();
    entry.status = c.get('connectionLost') ? 0 : c.res.status;
  });

  app.get('/_sim/requests', (c) => c.json(state.requests.list()));
  app.delete('/_sim/requests', (c) => {
    state.requests.clear();
    return c.body(null, 204);
  });

  // What the shop's API settings do: switch a key between read and write mode while clients run.
  app.put('/_sim/tokens/:name/mode', async (c) => {
    const token = liveToken(state.world, c.req.param('name'));
    if (!token) return c.json({ error: 'No such key name', code: 'not_found' }, 404);
    const json = jsonOrText(await c.req.text());
    const mode = typeof json === 'object' && json !== null ? (json as { mode?: unknown }).mode : undefined;
    if (mode !== 'read' && mode !== 'write')
      return invalid(c, [{ field: 'mode', message: 'must be "read" or "write"' }]);
    token.mode = mode;
    return c.json({ data: { name: token.name, mode } });
  });

  // The reference places /openapi.json under {base_url}; it is also served at the root.
  const documents = new Map<string, unknown>();
  const openApi = (c: Ctx) => {
    const serverUrl = `${new URL(c.req.url).origin}/v1`;
    if (!documents.has(serverUrl)) documents.set(serverUrl, buildOpenApiDocument({ serverUrl }));
    return c.json(documents.get(serverUrl) as object);
  };
  app.get('/v1/openapi.json', openApi);
  app.get('/openapi.json', openApi);

  // Faults first: a failing network or server never reaches the service's rules.
  app.use('/v1/*', async (c, next) => {
    if (state.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, state.faults.latencyMs));
    const fault = state.faults.draw();
    if (!fault) return next();
    switch (fault.kind) {
      case 'status':
        return c.json(
          { error: 'The service had a problem; try again shortly', code: 'server_error' },
          fault.status,
        );
      case 'malformed':
        return c.body('{"data": {"items": [{"id": ', 200, { 'content-type': 'application/json' });
      case 'wrong_shape':
        await next();
        c.res = c.json({ data: { outcome: 'accepted' } }, 200);
        return c.res;
      case 'hold':
        await fault.until;
        return next();
      case 'rate_limit':
        c.header('Retry-After', String(fault.retryAfterSeconds));
        return fail(c, 'rate_limited', 'Too many requests on this token; wait before retrying');
      case 'drop_response':
      case 'reset':
      case 'hang':
        c.set('connectionLost', true);
        if (fault.kind === 'drop_response') await next();
        if (fault.kind !== 'hang') c.env?.incoming?.socket.destroy();
        // Held until the client gives up (its socket closes) or the simulator closes.
        await new Promise<void>((resolve) => {
          const release = () => {
            state.hanging.delete(release);
            resolve();
          };
          state.hanging.add(release);
          c.env?.incoming?.socket.once('close', release);
        });
        c.res = c.body(null, 503);
        return c.res;
    }
  });

  // Authentication, the per-token limit, then the shop's plan.
  app.use('/v1/*', async (c, next) => {
    const value = bearerToken(c.req.header('authorization'));
    const token = value === null ? undefined : state.world.tokens.get(value);
    if (!token || token.revoked) {
      return fail(c, 'unauthorized', 'Missing or invalid API key');
    }
    const decision = state.rateLimiter.take(token.value, state.now());
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      return fail(
        c,
        'rate_limited',
        `More than ${state.rateLimiter.perMinute} requests in a minute on this key; wait before retrying`,
      );
    }
    const shop = state.world.shops.get(token.shopId);
    if (!shop) return fail(c, 'unauthorized', 'Missing or invalid API key');
    if (!shop.apiPlan) {
      return fail(c, 'no_subscription', 'This shop is not on a plan that can use the API');
    }
    c.set('shop', shop);
    c.set('token', token);
    return next();
  });

  const requireWrite = (c: Ctx) =>
    c.get('token').mode === 'write'
      ? null
      : fail(c, 'read_only', 'This key is read-only; turn on write mode in the API settings');

  app.get('/v1/me', (c) => {
    const shop = c.get('shop');
    const origin = `${state.dashboardOrigin}/shops/${shop.id}`;
    return c.json({ data: overviewView(shop, { today: `${origin}/today`, inbox: `${origin}/inbox` }) });
  });

  app.get('/v1/today', (c) => {
    const query = readQuery(c, endpoints.getToday);
    if ('issues' in query) return invalid(c, query.issues);
    const limit = (query.values.limit as number | undefined) ?? LIMIT_DEFAULT;
    const shop = c.get('shop');
    const pending = newestFirst(
      shop.actions.filter((a) => a.status === 'pending_approval'),
      (a) => a.generatedAt,
    );
    return c.json({
      data: {
        pending_actions: pending.slice(0, limit).map(actionView),
        activity: activityView(shop, limit, state.hints),
      },
    });
  });

  app.get('/v1/billing', (c) => c.json({ data: billingView(c.get('shop')) }));
  app.get('/v1/texting', (c) => c.json({ data: textingView(c.get('shop')) }));

  app.get('/v1/inbox', (c) => {
    const query = readQuery(c, endpoints.getInbox);
    if ('issues' in query) return invalid(c, query.issues);
    const filter = (query.values.filter as string | undefined) ?? 'open';
    const limit = (query.values.limit as number | undefined) ?? LIMIT_DEFAULT;
    const shop = c.get('shop');
    const leads = newestFirst(
      shop.leads.filter(filter === 'callbacks' ? needsCallback : isOpen),
      (l) => l.createdAt,
    );
    return c.json({
      data: {
        filter,
        open_leads: leads.slice(0, limit).map((lead) => inboxLeadView(shop, lead)),
        latest_inbound: latestInboundView(leads, limit),
      },
    });
  });

  app.get('/v1/contacts', (c) => {
    const query = readQuery(c, endpoints.getContacts);
    if ('issues' in query) return invalid(c, query.issues);
    const limit = (query.values.limit as number | undefined) ?? LIMIT_DEFAULT;
    const q = (query.values.q as string | undefined) ?? '';
    const contacts = c
      .get('shop')
      .contacts.filter((contact) => matchesContactQuery(contact, q))
      .sort(
        (a, b) => state.hints.contactTime(b) - state.hints.contactTime(a) || a.name.localeCompare(b.name),
      );
    return c.json({
      data: { items: contacts.slice(0, limit).map((contact) => contactView(contact, state.hints)) },
    });
  });

  app.get('/v1/leads/:id', (c) => {
    const query = readQuery(c, endpoints.getLead);
    if ('issues' in query) return invalid(c, query.issues);
    const shop = c.get('shop');
    const lead = shop.leads.find((l) => l.id === c.req.param('id'));
    if (!lead) return fail(c, 'not_found', 'No such lead');
    return c.json({
      data: leadDetailView(shop, lead, (query.values.limit as number | undefined) ?? LIMIT_DEFAULT),
    });
  });

  app.post('/v1/contacts/:id/messages', async (c) => {
    const refused = requireWrite(c);
    if (refused) return refused;
    const key = c.req.header('idempotency-key');
    if (
      key !== undefined &&
      (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key))
    ) {
      return invalid(c, [
        { field: 'Idempotency-Key', message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters` },
      ]);
    }
    const body = await readBody(c, SendTextBody);
    if ('issues' in body) return invalid(c, body.issues);
    const shop = c.get('shop');
    const contact = shop.contacts.find((ct) => ct.id === c.req.param('id'));
    if (!contact) return fail(c, 'not_found', 'No such contact');

    const now = state.now();
    const remembered = key === undefined ? undefined : `${shop.id}\u0000${key}`;
    if (remembered !== undefined) {
      const sentAt = state.idempotency.get(remembered);
      if (sentAt !== undefined && now - sentAt < IDEMPOTENCY_WINDOW_MS) {
        return c.json({ data: { sent: true, replayed: true } });
      }
    }
    if (shop.texting.number === null) {
      return fail(c, 'no_number', 'This shop has no texting number yet');
    }
    if (!isTextingLive(shop)) {
      return fail(c, 'texting_inactive', 'Texting is not active yet (carrier registration unfinished)');
    }
    deliverText(opContext(), shop, contact, body.value.body);
    if (remembered !== undefined) {
      for (const [entry, at] of state.idempotency) {
        if (now - at >= IDEMPOTENCY_WINDOW_MS) state.idempotency.delete(entry);
      }
      state.idempotency.set(remembered, now);
    }
    return c.json({ data: { sent: true } });
  });

  app.get('/v1/reviews', (c) => {
    const query = readQuery(c, endpoints.getReviews);
    if ('issues' in query) return invalid(c, query.issues);
    const limit = (query.values.limit as number | undefined) ?? LIMIT_DEFAULT;
    const page = newestFirst(c.get('shop').reviews, (r) => r.createdAtGoogle).slice(0, limit);
    return c.json({
      data: {
        items: page.map(reviewView),
        unreplied_in_page: page.filter((r) => r.repliedAt === null).length,
      },
    });
  });

  app.post('/v1/reviews/:id/draft', (c) => {
    const refused = requireWrite(c);
    if (refused) return refused;
    const shop = c.get('shop');
    const review = shop.reviews.find((r) => r.id === c.req.param('id'));
    if (!review) return fail(c, 'not_found', 'No such review');
    const draft = draftReply(opContext(), shop, review);
    return c.json({ data: { reply: draft.reply, is_negative: draft.isNegative, review_id: review.id } });
  });

  app.get('/v1/actions', (c) => {
    const query = readQuery(c, endpoints.getActions);
    if ('issues' in query) return invalid(c, query.issues);
    const limit = (query.values.limit as number | undefined) ?? LIMIT_DEFAULT;
    const status = query.values.status as string | undefined;
    const actions = c.get('shop').actions.filter((a) => status === undefined || a.status === status);
    return c.json({
      data: {
        items: newestFirst(actions, (a) => a.generatedAt)
          .slice(0, limit)
          .map(actionView),
      },
    });
  });

  app.post('/v1/actions/:id/decide', async (c) => {
    const refused = requireWrite(c);
    if (refused) return refused;
    const body = await readBody(c, DecideBody);
    if ('issues' in body) return invalid(c, body.issues);
    const shop = c.get('shop');
    const action = shop.actions.find((a) => a.id === c.req.param('id'));
    if (!action) return fail(c, 'not_found', 'No such action');
    // Approving twice (another terminal, a retry) answers the same outcome.
    if (action.status === 'published') return c.json({ data: { status: action.status } });
    if (action.status !== 'pending_approval') {
      return invalid(c, [
        { field: 'status', message: `the action is ${action.status}; only pending actions can be approved` },
      ]);
    }
    approveAction(opContext(), shop, action);
    return c.json({ data: { status: action.status } });
  });

  app.notFound((c) => fail(c, 'not_found', 'No such endpoint'));
  app.onError((error, c) => {
    process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`);
    return c.json({ error: 'Internal error in the simulator', code: 'server_error' }, 500);
  });
  return app;
}
