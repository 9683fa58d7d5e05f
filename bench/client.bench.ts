/**
 * What the client costs on top of the network: a call through the client
 * (auth, retry loop, zod parsing) against a raw fetch of the same endpoint,
 * both over a real loopback socket to the simulator. Compare the two rows.
 */
import { afterAll, bench, describe } from 'vitest';
import { createShopClient } from '../src/api/client.js';
import { endpoints } from '../src/contract/endpoints.js';
import { successEnvelope } from '../src/contract/envelopes.js';
import { createSimulator } from '../src/sim/simulator.js';

const sim = createSimulator({ rateLimitPerMinute: 10_000_000 });
const { baseUrl } = await sim.listen();
const key = sim.tokens.write;
const client = createShopClient({ baseUrl, apiKey: key });
const headers = { authorization: `Bearer ${key}` };
const inboxJson = await (await fetch(`${baseUrl}/inbox?limit=100`, { headers })).json();
const inboxEnvelope = successEnvelope(endpoints.getInbox.data);

afterAll(() => sim.close());

describe('GET /inbox?limit=100 over loopback', () => {
  bench('raw fetch + JSON.parse', async () => {
    await (await fetch(`${baseUrl}/inbox?limit=100`, { headers })).json();
  });
  bench('client.getInbox (ky, retry loop, zod)', async () => {
    await client.getInbox({ limit: 100 });
  });
});

describe('parsing only', () => {
  bench('zod parse of a 100-lead inbox envelope', () => {
    inboxEnvelope.parse(inboxJson);
  });
});
