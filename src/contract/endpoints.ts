/**
 * The thirteen endpoints of v1, described once. The client builds its calls
 * and parses answers from this table, the simulator validates requests with it,
 * and /openapi.json is generated from it.
 */
import * as z from 'zod';
import type { ServiceErrorCode } from './envelopes.js';
import {
  ActionList,
  ActionStatusValues,
  Billing,
  ContactList,
  DecisionResult,
  Inbox,
  InboxFilterValues,
  LeadDetail,
  ReplyDraft,
  ReviewList,
  SendResult,
  ShopOverview,
  TextingSetup,
  Today,
} from './resources.js';

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 25;

/**
 * Longest text body the simulator accepts. The reference does not give one
 * ("not shown"); 1600 characters is the common carrier ceiling (10 segments).
 */
export const TEXT_BODY_MAX = 1600;

/** Longest Idempotency-Key accepted (not shown in the reference; 255 is the usual bound). */
export const IDEMPOTENCY_KEY_MAX = 255;

/** Longest search fragment accepted by GET /contacts (not shown; an assumption). */
export const SEARCH_QUERY_MAX = 100;

export const limitParam = z.int().min(LIMIT_MIN).max(LIMIT_MAX);

/** A query parameter: the wire form is always a string; `kind` says how to read it. */
export interface QueryParam {
  kind: 'integer' | 'string';
  schema: z.ZodType;
  description: string;
}

const limit: QueryParam = {
  kind: 'integer',
  schema: limitParam,
  description: `number of items, ${LIMIT_MIN} to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}`,
};

export const SendTextBody = z
  .object({ body: z.string().trim().min(1, 'must not be empty').max(TEXT_BODY_MAX) })
  .meta({ id: 'SendTextRequest' });

export const DecideBody = z
  .object({
    status: z.literal('approved').meta({
      description: 'the only value the reference gives; the value that declines is not shown',
    }),
  })
  .meta({ id: 'DecideRequest' });

export type EndpointName =
  | 'getMe'
  | 'getToday'
  | 'getBilling'
  | 'getTexting'
  | 'getInbox'
  | 'getContacts'
  | 'getLead'
  | 'sendText'
  | 'getReviews'
  | 'draftReply'
  | 'getActions'
  | 'decideAction'
  | 'getOpenApi';

export interface Endpoint {
  name: EndpointName;
  method: 'GET' | 'POST';
  /** Path under the base URL, with `{id}` for the one path parameter any endpoint has. */
  path: string;
  /** read and write need the bearer token; public does not. */
  mode: 'read' | 'write' | 'public';
  summary: string;
  query?: Record<string, QueryParam>;
  body?: z.ZodType;
  /** Whether the endpoint takes an Idempotency-Key header. */
  idempotent?: boolean;
  /** Schema of `data` in the success envelope (absent for /openapi.json, which is not enveloped). */
  data?: z.ZodType;
  /** Error codes this endpoint can answer with, beyond 401/403 no_subscription/429 that all share. */
  errors: ServiceErrorCode[];
}

export const endpoints = {
  getMe: {
    name: 'getMe',
    method: 'GET',
    path: '/me',
    mode: 'read',
    summary: 'Shop overview',
    data: ShopOverview,
    errors: [],
  },
  getToday: {
    name: 'getToday',
    method: 'GET',
    path: '/today',
    mode: 'read',
    summary: 'Pending actions and recent activity',
    query: { limit },
    data: Today,
    errors: ['invalid'],
  },
  getBilling: {
    name: 'getBilling',
    method: 'GET',
    path: '/billing',
    mode: 'read',
    summary: 'Plan status and masked payment method',
    data: Billing,
    errors: [],
  },
  getTexting: {
    name: 'getTexting',
    method: 'GET',
    path: '/texting',
    mode: 'read',
    summary: 'Texting number and status',
    data: TextingSetup,
    errors: [],
  },
  getInbox: {
    name: 'getInbox',
    method: 'GET',
    path: '/inbox',
    mode: 'read',
    summary: 'Leads and latest inbound messages',
    query: {
      filter: {
        kind: 'string',
        schema: z.enum(InboxFilterValues),
        description: 'open (default) or callbacks: missed-call texts that have received no reply',
      },
      limit,
    },
    data: Inbox,
    errors: ['invalid'],
  },
  getContacts: {
    name: 'getContacts',
    method: 'GET',
    path: '/contacts',
    mode: 'read',
    summary: 'Contact list',
    query: {
      q: {
        kind: 'string',
        schema: z.string().max(SEARCH_QUERY_MAX),
        description: 'fragment of a name or phone number',
      },
      limit,
    },
    data: ContactList,
    errors: ['invalid'],
  },
  getLead: {
    name: 'getLead',
    method: 'GET',
    path: '/leads/{id}',
    mode: 'read',
    summary: 'One lead with contact, messages and consent',
    query: { limit },
    data: LeadDetail,
    errors: ['invalid', 'not_found'],
  },
  sendText: {
    name: 'sendText',
    method: 'POST',
    path: '/contacts/{id}/messages',
    mode: 'write',
    summary: 'Send a text',
    body: SendTextBody,
    idempotent: true,
    data: SendResult,
    errors: ['read_only', 'not_found', 'invalid', 'no_number', 'texting_inactive'],
  },
  getReviews: {
    name: 'getReviews',
    method: 'GET',
    path: '/reviews',
    mode: 'read',
    summary: 'Reviews',
    query: { limit },
    data: ReviewList,
    errors: ['invalid'],
  },
  draftReply: {
    name: 'draftReply',
    method: 'POST',
    path: '/reviews/{id}/draft',
    mode: 'write',
    summary: 'Create a reply draft (does not publish it)',
    data: ReplyDraft,
    errors: ['read_only', 'not_found'],
  },
  getActions: {
    name: 'getActions',
    method: 'GET',
    path: '/actions',
    mode: 'read',
    summary: 'Agent actions, newest first',
    query: {
      status: {
        kind: 'string',
        schema: z.enum(ActionStatusValues),
        description: 'only actions in this status',
      },
      limit,
    },
    data: ActionList,
    errors: ['invalid'],
  },
  decideAction: {
    name: 'decideAction',
    method: 'POST',
    path: '/actions/{id}/decide',
    mode: 'write',
    summary: 'Decide a pending action',
    body: DecideBody,
    data: DecisionResult,
    errors: ['read_only', 'not_found', 'invalid'],
  },
  getOpenApi: {
    name: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    mode: 'public',
    summary: 'Machine-readable description of this API',
    errors: [],
  },
} as const satisfies Record<EndpointName, Endpoint>;

export const endpointList: readonly Endpoint[] = Object.values(endpoints);

/** Fill the `{id}` placeholder, encoding the id so it can never change the path. */
export function endpointPath(endpoint: Endpoint, pathId?: string): string {
  if (!endpoint.path.includes('{id}')) return endpoint.path;
  if (pathId === undefined || pathId === '') throw new TypeError(`${endpoint.name} needs an id`);
  return endpoint.path.replace('{id}', encodeURIComponent(pathId));
}
