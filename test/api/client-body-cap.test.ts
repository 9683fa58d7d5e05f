/**
 * No answer can exhaust the client's memory: every body is read through a
 * byte cap and dropped (its connection closed) past it. Against the hostile
 * server over a real socket.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/api/limits.js';
import { until } from '../support/until.js';
import { clientOf, failure, hostile, MiB, rejection } from './hostile-client.js';

describe('the body cap', () => {
  it('a body that never ends: "too large" long before the attempt timeout, and the connection is dropped', async () => {
    const server = await hostile();
    server.behave({ kind: 'endless' });
    const client = clientOf(server, { attemptTimeoutMs: 10_000 });
    const { error, ms } = await failure(client.getInbox());
    expect(error).toMatchObject({ code: 'bad_response', status: 200, attempts: 1 });
    expect(error.message).toMatch(/^the shop's answer was too large/);
    expect(ms).toBeLessThan(3_000);
    const [request] = server.requests;
    // The client stopped reading: the server found its connection closed and stopped writing.
    await until(() => (request?.closedEarly ? true : undefined), 2_000);
    expect(request?.bytesSent).toBeLessThan(64 * MiB);
  });

  it('a body that never ends: memory stays bounded over many reads', async () => {
    const server = await hostile();
    // Paced like the body observed in the field (it grew a process by 1.2 GiB a minute), only faster.
    server.behave({ kind: 'endless', bytesPerSecond: 100 * MiB });
    const client = clientOf(server, { attemptTimeoutMs: 2_000 });
    // Collect between reads, so the peak measures what one read holds, not garbage not yet collected.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const rss = () => process.memoryUsage().rss;
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 5);
    try {
      for (let i = 0; i < 10; i += 1) {
        expect(await rejection(client.getInbox())).toMatchObject({ code: 'bad_response' });
        gc();
      }
    } finally {
      clearInterval(sampler);
    }
    // The server wrote little more than the cap each time before the client hung up…
    expect(server.requests.every((request) => request.bytesSent < 16 * MiB)).toBe(true);
    // …and ten reads of an endless body held a bounded amount at any moment:
    // (About 45 MiB measured here; the old client held hundreds of MiB per read.)
    expect((peak - before) / MiB).toBeLessThan(96);
  });

  it('a 50 MB answer: "too large" at once when Content-Length says so, and after the cap when it does not', async () => {
    const server = await hostile();
    const client = clientOf(server);
    server.behave({ kind: 'huge', bytes: 50 * MiB });
    const declared = await failure(client.getInbox());
    expect(declared.error).toMatchObject({ code: 'bad_response', status: 200 });
    expect(declared.error.message).toMatch(/too large/);
    expect(declared.ms).toBeLessThan(1_000);

    server.behave({ kind: 'huge', bytes: 50 * MiB, contentLength: false });
    const streamed = await failure(client.getInbox());
    expect(streamed.error).toMatchObject({ code: 'bad_response', status: 200 });
    expect(streamed.ms).toBeLessThan(2_000);
    await until(() => (server.requests.every((request) => request.closedEarly) ? true : undefined), 2_000);
    expect(server.requests.every((request) => request.bytesSent < 50 * MiB)).toBe(true);
  });

  it('a send whose answer is too large says the text may have been sent (the service had accepted it)', async () => {
    const server = await hostile();
    server.behave({ kind: 'huge', bytes: 8 * MiB }, 'sendText');
    const error = await rejection(clientOf(server).sendText('con_1', 'hello', { idempotencyKey: 'k-1' }));
    expect(error).toMatchObject({ code: 'bad_response', status: 200 });
    expect(error.message).toContain('the text may have been sent');
  });

  it.each(['gzip', 'deflate', 'br'] as const)(
    'a %s answer is read as the JSON it inflates to',
    async (encoding) => {
      const server = await hostile();
      server.behave({ kind: 'compressed', encoding });
      const me = await clientOf(server).getMe();
      expect(me.identity.business_name).toBe('Hostile Plumbing');
      expect(server.requests[0]?.headers['accept-encoding']).toContain(encoding);
    },
  );

  it('a compressed body that inflates past the cap (a "zip bomb") is dropped at the cap, not inflated whole', async () => {
    const server = await hostile();
    server.behave({ kind: 'compressed', encoding: 'gzip', inflatesTo: 1024 * MiB });
    const { error, ms } = await failure(clientOf(server).getInbox());
    expect(error).toMatchObject({ code: 'bad_response', status: 200 });
    expect(error.message).toMatch(/^the shop's answer was too large/);
    expect(ms).toBeLessThan(3_000);
    // What came over the wire was a few KiB: the cap counts what it inflates to.
    await until(() => (server.requests[0]?.closedEarly ? true : undefined), 2_000);
    expect(server.requests[0]?.bytesSent).toBeLessThan(MAX_BODY_BYTES);
  });

  it('a body that is not what its Content-Encoding says is a bad answer, not a network failure', async () => {
    const server = await hostile();
    server.behave({ kind: 'compressed', encoding: 'gzip', corrupt: true });
    const error = await rejection(clientOf(server).getMe());
    expect(error).toMatchObject({ code: 'bad_response', status: 200, attempts: 1 });
    expect(error.message).toBe("the shop's answer could not be decoded (it said gzip)");
  });

  it('an answer just under the cap is read', async () => {
    const server = await hostile();
    server.behave({ kind: 'huge', bytes: MAX_BODY_BYTES - 1024 });
    const me = await clientOf(server).getMe();
    expect(me.identity.business_name).toBe('Hostile Plumbing');
  });

  it('an error status with a body past the cap keeps its meaning (a 502 is still a server error, retried)', async () => {
    const server = await hostile();
    server.behave({ kind: 'endless', status: 502 });
    const client = clientOf(server, { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await rejection(client.getMe());
    expect(error).toMatchObject({ code: 'server', status: 502, attempts: 2 });
    server.behave({ kind: 'endless', status: 422 });
    expect(await rejection(client.getMe())).toMatchObject({ code: 'invalid', status: 422, attempts: 1 });
  });
});
