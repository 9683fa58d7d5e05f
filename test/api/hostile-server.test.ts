/**
 * The hostile test server itself: its injection answers are valid v1 answers
 * for all thirteen endpoints (so a display test sees them on screen rather
 * than a contract error), every string in them carries a payload, and its
 * behaviour can be switched while it runs.
 */
import { describe, expect, it } from 'vitest';
import { createShopClient, type ShopClient } from '../../src/api/client.js';
import { type EndpointName, endpointList } from '../../src/contract/endpoints.js';
import { successEnvelope } from '../../src/contract/envelopes.js';
import { INJECTION_PAYLOADS, makeAnswer } from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';
import { hostile } from './hostile-client.js';

/** Every string anywhere inside `value`. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const startsWithPayload = (text: string) =>
  INJECTION_PAYLOADS.some((payload) => text.startsWith(payload.text)) ||
  text.includes(INJECTION_PAYLOADS[0]?.text ?? '');

/** One call of each of the thirteen endpoints. */
function callEvery(client: ShopClient, id: string): Record<EndpointName, Promise<unknown>> {
  return {
    getMe: client.getMe(),
    getToday: client.getToday(),
    getBilling: client.getBilling(),
    getTexting: client.getTexting(),
    getInbox: client.getInbox(),
    getContacts: client.getContacts({ q: 'a' }),
    getLead: client.getLead(id),
    sendText: client.sendText(id, 'hello', { idempotencyKey: 'k-1' }),
    getReviews: client.getReviews(),
    draftReply: client.draftReply(id),
    getActions: client.getActions({ status: 'pending_approval' }),
    decideAction: client.decideAction(id),
    getOpenApi: client.getOpenApi(),
  };
}

describe('the hostile server', () => {
  it('injection answers match the contract of all 13 endpoints, and every string in them is hostile', async () => {
    for (const endpoint of endpointList) {
      const data = makeAnswer(endpoint.name, { limit: 5 });
      if (endpoint.data)
        expect(successEnvelope(endpoint.data).safeParse({ data }).success, endpoint.name).toBe(true);
      const found = strings(data);
      expect(found.length, endpoint.name).toBeGreaterThan(0);
      for (const text of found)
        expect(startsWithPayload(text), `${endpoint.name}: ${JSON.stringify(text)}`).toBe(true);
    }
  });

  it('serves them over HTTP to the real client, ids with payloads included', async () => {
    const server = await hostile({ behaviour: { kind: 'injection' } });
    const client = createShopClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { maxAttempts: 1 } });
    const inbox = await client.getInbox({ limit: 3 });
    const leadId = inbox.open_leads[0]?.id ?? '';
    expect(leadId).toContain('\u001B');
    const answers = callEvery(client, leadId);
    const results = await Promise.all(Object.values(answers));
    expect(results).toHaveLength(13);
    for (const [name, data] of Object.entries(answers).map(([name], i) => [name, results[i]] as const)) {
      // sendText answers only { sent, replayed }: the client keeps no string of it.
      if (name !== 'sendText') expect(strings(data).length, name).toBeGreaterThan(0);
    }
    // The id came back to the server intact, through the path.
    expect(((await answers.getLead) as { lead: { id: string } }).lead.id).toBe(leadId);
    expect(server.requests.map((r) => r.endpoint).filter(Boolean)).toHaveLength(14);
  });

  it('switches behaviour at runtime, everywhere or per endpoint, and proxies to an upstream', async () => {
    const sim = await startSim();
    const server = await hostile({ upstream: sim.baseUrl });
    const client = createShopClient({
      baseUrl: server.baseUrl,
      apiKey: sim.sim.tokens.write,
      retry: { maxAttempts: 1 },
    });
    const business = sim.sim.shops.main.identity.businessName;
    expect((await client.getMe()).identity.business_name).toBe(business);

    server.behave({ kind: 'status', status: 503 }, 'getMe');
    await expect(client.getMe()).rejects.toMatchObject({ status: 503, code: 'server' });
    await expect(client.getBilling()).resolves.toBeDefined();

    server.behave({ kind: 'injection' });
    expect((await client.getMe()).identity.business_name).toContain('Hostile Plumbing');

    server.reset();
    expect((await client.getMe()).identity.business_name).toBe(business);
    expect(server.requests.map((r) => r.behaviour)).toEqual([
      'normal',
      'status',
      'normal',
      'injection',
      'normal',
    ]);
  });
});
