import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { endpointList } from '../../src/contract/endpoints.js';
import { buildOpenApiDocument } from '../../src/contract/openapi.js';
import { startSim } from '../support/sim.js';

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  security?: unknown[];
};

async function servedDocument(): Promise<Doc> {
  const t = await startSim();
  const response = await fetch(`${t.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await servedDocument();
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('v1');
    expect(doc.info.title).toMatch(/Shop/);
  });

  it('describes all thirteen endpoints with their parameters, bodies and errors', async () => {
    const doc = await servedDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    expect(operations).toHaveLength(13);
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'GET /me',
        'GET /today',
        'GET /billing',
        'GET /texting',
        'GET /inbox',
        'GET /contacts',
        'GET /leads/{id}',
        'POST /contacts/{id}/messages',
        'GET /reviews',
        'POST /reviews/{id}/draft',
        'GET /actions',
        'POST /actions/{id}/decide',
        'GET /openapi.json',
      ].sort(),
    );
    const byId = Object.fromEntries(operations.map((o) => [o.op.operationId, o.op]));
    const paramNames = (id: string) => (byId[id]?.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    expect(paramNames('getInbox')).toEqual(['query:filter', 'query:limit']);
    expect(paramNames('getContacts')).toEqual(['query:q', 'query:limit']);
    expect(paramNames('getActions')).toEqual(['query:status', 'query:limit']);
    expect(paramNames('getLead')).toEqual(['path:id', 'query:limit']);
    expect(paramNames('sendText')).toEqual(['path:id', 'header:Idempotency-Key']);
    const limit = byId.getReviews?.parameters?.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(byId.sendText?.requestBody).toBeDefined();
    expect(byId.decideAction?.requestBody).toBeDefined();
    expect(Object.keys(byId.sendText?.responses ?? {}).sort()).toEqual([
      '200',
      '401',
      '403',
      '404',
      '422',
      '429',
    ]);
    expect(Object.keys(byId.getMe?.responses ?? {}).sort()).toEqual(['200', '401', '403', '429']);
    expect(byId.getOpenApi?.security).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'ShopOverview',
        'Lead',
        'InboxLead',
        'Contact',
        'Review',
        'Action',
        'Error',
        'Issue',
      ]),
    );
  });

  it('resolves every $ref to a component', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const name = ref.replace(/^"\$ref":"#\/components\/schemas\//, '').replace(/"$/, '');
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
  });

  it('follows the endpoint table the client and simulator use', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    for (const endpoint of endpointList) {
      expect(doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.operationId).toBe(endpoint.name);
    }
  });
});
