import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createShopClient } from '../../src/api/client.js';
import { ApiError, redact } from '../../src/api/errors.js';
import { recordingSleep, startSim } from '../support/sim.js';

describe('read-only switch', () => {
  it('refuses every write before the network and sends the reads', async () => {
    const t = await startSim();
    const client = t.client('write', { readOnly: true });
    const shop = t.sim.shops.main;
    const writes = [
      client.sendText(shop.contacts[0]?.id ?? '', 'hello', { idempotencyKey: 'k-1' }),
      client.draftReply(shop.reviews[0]?.id ?? ''),
      client.decideAction(shop.actions[0]?.id ?? ''),
    ];
    for (const write of writes) {
      const error = await write.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'read_only', local: true, status: 0, attempts: 0 });
    }
    await client.getMe();
    const requests = await t.requests();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(requests.map((r) => r.path)).toEqual(['/v1/me']);
  });

  it('can be switched on for the rest of the process', async () => {
    const t = await startSim();
    const client = t.client('write');
    expect(client.readOnly).toBe(false);
    client.setReadOnly(true);
    expect(client.readOnly).toBe(true);
    await expect(client.draftReply(t.sim.shops.main.reviews[0]?.id ?? '')).rejects.toMatchObject({
      local: true,
    });
    expect(await t.requests()).toEqual([]);
  });
});

describe('the API key stays secret', () => {
  it('is absent from every error string, inspection and JSON form', async () => {
    const t = await startSim();
    const key = t.sim.tokens.write;
    t.sim.faults.failNext({ kind: 'status', status: 500 });
    t.sim.faults.rateLimitBurst(1, 9);
    t.sim.faults.failNext({ kind: 'malformed' });
    const client = t.client('write', { retry: { maxAttempts: 1 }, sleep: recordingSleep().sleep });
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i += 1) errors.push(await client.getMe().catch((e: unknown) => e));
    errors.push(await client.getLead('lead_nope').catch((e: unknown) => e));
    errors.push(
      await createShopClient({ baseUrl: t.baseUrl, apiKey: `${key}x` })
        .getMe()
        .catch((e: unknown) => e),
    );
    errors.push(
      await t
        .client('read')
        .draftReply('rev_x')
        .catch((e: unknown) => e),
    );
    const offline = createShopClient({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: key,
      retry: { maxAttempts: 1 },
    });
    errors.push(await offline.getMe().catch((e: unknown) => e));

    expect(errors.map((e) => (e as ApiError).code)).toEqual([
      'server',
      'rate_limited',
      'server',
      'not_found',
      'unauthorized',
      'read_only',
      'network',
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      const forms = [
        String(error),
        (error as Error).message,
        (error as Error).stack ?? '',
        inspect(error, { depth: 10, showHidden: true }),
        JSON.stringify(error),
      ];
      for (const form of forms) {
        expect(form).not.toContain(key);
        expect(form).not.toContain(key.slice(4, 20));
      }
    }
  });

  it('is not visible by inspecting the client', async () => {
    const t = await startSim();
    const client = t.client();
    const text = inspect(client, { depth: 10, showHidden: true }) + JSON.stringify(client);
    expect(text).not.toContain(t.sim.tokens.write);
  });

  it('is redacted from anything the server echoes back', () => {
    expect(redact('bad key shk_abc123 given', 'shk_abc123')).toBe('bad key [redacted] given');
    expect(redact('nothing here', 'shk_abc123')).toBe('nothing here');
  });
});
