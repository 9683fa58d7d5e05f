import { describe, expect, it } from 'vitest';
import { createShopClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { closedPort, startSim } from '../support/sim.js';

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('client errors: one typed error for every code', () => {
  it('unauthorized for an unknown, truncated or rotated key', async () => {
    const t = await startSim();
    const base = { baseUrl: t.baseUrl, retry: { maxAttempts: 3 } };
    for (const apiKey of ['shk_not_a_real_key', t.sim.tokens.write.slice(0, -1)]) {
      const error = await rejection(createShopClient({ ...base, apiKey }).getMe());
      expect(error).toMatchObject({ status: 401, code: 'unauthorized', attempts: 1, local: false });
      expect(error.message).toMatch(/invalid API key/i);
    }
    const old = t.client('write');
    t.sim.rotateToken('write');
    expect(await rejection(old.getMe())).toMatchObject({ status: 401, code: 'unauthorized' });
    await expect(t.client('write').getMe()).resolves.toBeDefined();
    // 401 is never retried: one request per failed call.
    expect((await t.requests()).filter((r) => r.status === 401)).toHaveLength(3);
  });

  it('no_subscription for a shop without an API plan', async () => {
    const t = await startSim();
    expect(await rejection(t.client('no_subscription').getInbox())).toMatchObject({
      status: 403,
      code: 'no_subscription',
    });
  });

  it('read_only when the server refuses a write with a read key', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[0];
    const error = await rejection(
      t.client('read').sendText(contact?.id ?? '', 'hi', { idempotencyKey: 'k-1' }),
    );
    expect(error).toMatchObject({ status: 403, code: 'read_only', local: false, attempts: 1 });
  });

  it('not_found for another shop records, as for missing ones', async () => {
    const t = await startSim();
    const foreignLead = t.sim.shops.other.leads[0]?.id ?? '';
    const error = await rejection(t.client('write').getLead(foreignLead));
    expect(error).toMatchObject({ status: 404, code: 'not_found', endpoint: 'GET /leads/{id}' });
    expect(await rejection(t.client('write').getLead('lead_missing'))).toMatchObject({ code: 'not_found' });
  });

  it('invalid with the issues naming the field', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[0]?.id ?? '';
    const error = await rejection(t.client().sendText(contact, '   '));
    expect(error).toMatchObject({ status: 422, code: 'invalid' });
    expect(error.issues).toEqual([expect.objectContaining({ field: 'body' })]);
    const tooLong = await rejection(t.client().sendText(contact, 'x'.repeat(1601)));
    expect(tooLong.issues).toEqual([expect.objectContaining({ field: 'body' })]);
  });

  it('a bad limit is refused locally, before the network', async () => {
    const t = await startSim();
    const client = t.client();
    for (const limit of [0, 101, 2.5, Number.NaN]) {
      const error = await rejection(client.getReviews({ limit }));
      expect(error).toMatchObject({ code: 'invalid', local: true, status: 0 });
      expect(error.issues).toEqual([expect.objectContaining({ field: 'limit' })]);
    }
    await expect(client.getReviews({ limit: 100 })).resolves.toBeDefined();
    await expect(client.getReviews({ limit: 1 })).resolves.toBeDefined();
    expect((await t.requests()).map((r) => r.query)).toEqual(['limit=100', 'limit=1']);
  });

  it('no_number and texting_inactive for shops that cannot text', async () => {
    const t = await startSim();
    const noNumber = t.sim.shops.noNumber.contacts[0]?.id ?? '';
    expect(await rejection(t.client('no_number').sendText(noNumber, 'hello'))).toMatchObject({
      status: 422,
      code: 'no_number',
    });
    const inactive = t.sim.shops.textingInactive.contacts[0]?.id ?? '';
    expect(await rejection(t.client('texting_inactive').sendText(inactive, 'hello'))).toMatchObject({
      status: 422,
      code: 'texting_inactive',
    });
  });

  it('rate_limited with retryAfter in seconds', async () => {
    const t = await startSim();
    t.sim.faults.rateLimitBurst(1, 42);
    const error = await rejection(t.client('write', { retry: { maxAttempts: 1 } }).getMe());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 42 });
    expect(error.transient).toBe(true);
  });

  it('server for 5xx and for a body that is not JSON', async () => {
    const t = await startSim();
    const client = t.client('write', { retry: { maxAttempts: 1 } });
    t.sim.faults.failNext({ kind: 'status', status: 502 });
    expect(await rejection(client.getMe())).toMatchObject({ status: 502, code: 'server' });
    t.sim.faults.failNext({ kind: 'malformed' });
    const malformed = await rejection(client.getMe());
    expect(malformed).toMatchObject({ status: 200, code: 'server' });
    expect(malformed.message).toMatch(/not JSON/);
  });

  it('network when nothing listens, timeout when nothing answers', async () => {
    const port = await closedPort();
    const offline = createShopClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'k',
      retry: { maxAttempts: 1 },
    });
    const network = await rejection(offline.getMe());
    expect(network).toMatchObject({ status: 0, code: 'network' });
    expect(network.message).toMatch(/ECONNREFUSED/);

    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' });
    const hung = t.client('write', { attemptTimeoutMs: 200, retry: { maxAttempts: 1 } });
    expect(await rejection(hung.getMe())).toMatchObject({ status: 0, code: 'timeout' });
  });

  it('aborted when the caller cancels', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'hang' });
    const controller = new AbortController();
    const pending = t.client().getMe({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await rejection(pending)).toMatchObject({ code: 'aborted', status: 0 });
  });

  it('bad_response when a 200 breaks the contract', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: { items: [{ id: 1 }] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const client = createShopClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k' });
      const error = await rejection(client.getContacts());
      expect(error).toMatchObject({ code: 'bad_response', status: 200 });
      expect(error.message).toMatch(/items\[0\]\.id/);
      expect(error.attempts).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('client errors: answers that are not the service envelope', () => {
  it('reads the status of an HTML error page from a proxy: 429 waits Retry-After, 502 is retried, 401 is not', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const answers = [
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 502, headers: {} },
      { status: 200, headers: {} },
      { status: 401, headers: {} },
    ];
    const seen: number[] = [];
    const server = createHttpServer((_req, res) => {
      const answer = answers.shift() ?? { status: 500, headers: {} };
      seen.push(answer.status);
      if (answer.status === 200) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { items: [] } }));
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers });
      res.end(`<html><body><h1>${answer.status}</h1>nginx</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const waits: number[] = [];
      const client = createShopClient({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: 'k',
        retry: { baseDelayMs: 1 },
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      await expect(client.getContacts()).resolves.toEqual({ items: [] });
      expect(seen).toEqual([429, 502, 200]);
      expect(waits[0]).toBe(2000);
      const error = await rejection(client.getContacts());
      expect(error).toMatchObject({ status: 401, code: 'unauthorized', attempts: 1 });
      expect(seen).toEqual([429, 502, 200, 401]);
    } finally {
      server.close();
    }
  });
});
