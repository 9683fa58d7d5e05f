/**
 * The OpenAPI 3.1.0 document of v1, generated from the endpoint table and the
 * zod schemas, so it can never drift from what the client and simulator do.
 */
import * as z from 'zod';
import { type Endpoint, endpointList } from './endpoints.js';
import { ErrorCodeStatus, type ServiceErrorCode } from './envelopes.js';

type JsonObject = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

function withoutSchemaKeywords(schema: JsonObject): JsonObject {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function inlineSchema(schema: z.ZodType): JsonObject {
  return withoutSchemaKeywords(z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonObject);
}

/** Every schema that carries `.meta({ id })`, as OpenAPI components that reference each other. */
function componentSchemas(): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, withoutSchemaKeywords(schema)]),
  );
}

function ref(schema: z.ZodType): JsonObject {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `${COMPONENT_PREFIX}${id}` } : inlineSchema(schema);
}

const errorResponse = (description: string, codes: readonly string[]): JsonObject => ({
  description: `${description} (code: ${codes.join(', ')})`,
  content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}Error` } } },
});

/** Error codes every authenticated endpoint can answer with. */
const SHARED_ERRORS: readonly ServiceErrorCode[] = ['unauthorized', 'no_subscription', 'rate_limited'];

function errorResponses(endpoint: Endpoint): Record<string, JsonObject> {
  const codes = endpoint.mode === 'public' ? [] : [...SHARED_ERRORS, ...endpoint.errors];
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ErrorCodeStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response = errorResponse(describeStatus(status), statusCodes);
    if (status === 429) {
      response.headers = {
        'Retry-After': {
          description: 'seconds to wait before retrying',
          schema: { type: 'integer', minimum: 0 },
        },
      };
    }
    responses[String(status)] = response;
  }
  return responses;
}

function describeStatus(status: number): string {
  switch (status) {
    case 401:
      return 'Token missing, truncated or rotated';
    case 403:
      return 'Not allowed for this shop or token';
    case 404:
      return 'Record missing or owned by another shop';
    case 422:
      return 'Request does not match the contract, or the shop cannot text';
    case 429:
      return 'More than 120 requests in a minute on this token';
    default:
      return 'Error';
  }
}

function operation(endpoint: Endpoint): JsonObject {
  const parameters: JsonObject[] = [];
  if (endpoint.path.includes('{id}')) {
    parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } });
  }
  for (const [name, param] of Object.entries(endpoint.query ?? {})) {
    parameters.push({
      name,
      in: 'query',
      required: false,
      description: param.description,
      schema: inlineSchema(param.schema),
    });
  }
  if (endpoint.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Repeating a key within 24 hours sends nothing new and answers { sent, replayed }',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }

  const success: JsonObject = endpoint.data
    ? {
        description: 'Success',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['data'], properties: { data: ref(endpoint.data) } },
          },
        },
      }
    : {
        description: 'This document',
        content: { 'application/json': { schema: { type: 'object' } } },
      };

  const op: JsonObject = {
    operationId: endpoint.name,
    summary: endpoint.summary,
    responses: { '200': success, ...errorResponses(endpoint) },
  };
  if (parameters.length > 0) op.parameters = parameters;
  if (endpoint.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: ref(endpoint.body) } } };
  }
  if (endpoint.mode === 'public') op.security = [];
  return op;
}

export function buildOpenApiDocument(options: { serverUrl?: string } = {}): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpointList) {
    const item = paths[endpoint.path] ?? {};
    item[endpoint.method.toLowerCase()] = operation(endpoint);
    paths[endpoint.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shop Operations REST API',
      version: 'v1',
      description:
        "JSON over HTTPS for one small-business shop account: what the shop's dashboard shows, and sending a text.",
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: componentSchemas(),
    },
  };
}
