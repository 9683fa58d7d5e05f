/**
 * Redirects are never followed (a followed 307 re-posts a text's body, its
 * Idempotency-Key and the bearer key to wherever it points, plain http
 * included), and error pages from a proxy keep the meaning of their status.
 */
import { describe, expect, it } from 'vitest';
import type { ShopClientOptions } from '../../src/api/client.js';
import { explainApiError } from '../../src/api/explain-error.js';
import type { HostileServer } from '../support/hostile-server.js';
import { TITLE_PAYLOAD } from '../support/hostile-server.js';
import { hostile, clientOf as oneAttemptClient, rejection } from './hostile-client.js';

/** Retries allowed (fast), to show that a redirect is not retried. */
const clientOf = (server: HostileServer, options: Partial<ShopClientOptions> = {}) =>
  oneAttemptClient(server, { retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 }, ...options });

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i on a read: not followed, not retried, explained',
    async (status) => {
      const server = await hostile();
      server.behave({ kind: 'redirect', status });
      const error = await rejection(clientOf(server).getInbox());
      expect(error).toMatchObject({ code: 'redirect', status, attempts: 1 });
      expect(error.message).toBe(
        `the shop's API answered with a redirect (HTTP ${status}) to ${server.elsewhere.origin} — not followed; check the base URL`,
      );
      expect(error.transient).toBe(false);
      expect(server.requests).toHaveLength(1);
      expect(server.elsewhere.requests).toEqual([]);
    },
  );

  it('a 307 on a send: the text, its key and the bearer key reach no other origin, and the send is not repeated', async () => {
    const server = await hostile();
    server.behave({ kind: 'redirect', status: 307 }, 'sendText');
    const client = clientOf(server);
    const error = await rejection(
      client.sendText('con_1', 'Your boiler is fixed', { idempotencyKey: 'key-1' }),
    );
    expect(error).toMatchObject({
      code: 'redirect',
      status: 307,
      attempts: 1,
      endpoint: 'POST /contacts/{id}/messages',
    });
    expect(error.message).toContain('the text was not sent by this request');
    expect(explainApiError(error)).toContain('the text was not sent by this request');
    // The POST reached the API once, and nothing ever reached the origin the redirect named.
    expect(server.requests.map((r) => `${r.method} ${r.endpoint}`)).toEqual(['POST sendText']);
    expect(server.requests[0]?.body).toBe('{"body":"Your boiler is fixed"}');
    expect(server.elsewhere.requests).toEqual([]);
    // Give a follow-up (had one been scheduled) the time to happen.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.elsewhere.requests).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a redirect to another path of the same origin is not followed either', async () => {
    const server = await hostile();
    server.behave({ kind: 'redirect', status: 308, location: '/v2/me' });
    const error = await rejection(clientOf(server).getMe());
    expect(error.message).toContain(`to ${server.origin} — not followed`);
    expect(server.requests).toHaveLength(1);
  });

  it('the address named is cut, made safe to print, and never more than an origin', async () => {
    const server = await hostile();
    const client = clientOf(server);
    server.behave({
      kind: 'redirect',
      location: `http://${`${'a'.repeat(60)}.`.repeat(5)}example/path?key=secret`,
    });
    const long = await rejection(client.getMe());
    expect(long.message).not.toContain('secret');
    expect(long.message).toMatch(/to http:\/\/(a+\.)+a*… — not followed/);
    expect(long.message.length).toBeLessThan(300);

    // A header carries no C0 control (the HTTP parser refuses them); C1 controls (latin1) do pass.
    for (const location of [
      `http://x\u009B2J\u009D0;${TITLE_PAYLOAD}.example/`,
      `/\u009B2J\u009D0;${TITLE_PAYLOAD}`,
    ]) {
      server.behave({ kind: 'redirect', location });
      const hostileLocation = await rejection(client.getMe());
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
      expect(explainApiError(hostileLocation)).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/);
    }

    server.behave({ kind: 'redirect', location: `http://example.com/${'x'.repeat(3_000)}` });
    expect((await rejection(client.getMe())).message).toContain('to an address too long to show');
    server.behave({ kind: 'redirect', location: 'http://[not a url' });
    expect((await rejection(client.getMe())).message).toContain('to an address that is not a URL');
    server.behave({ kind: 'status', status: 302 });
    expect((await rejection(client.getMe())).message).toContain('to an address it did not give');
  });
});

describe('error pages from a proxy', () => {
  it('an HTML 502 page is a server error, retried per policy', async () => {
    const server = await hostile();
    server.behave({ kind: 'html', status: 502 });
    const error = await rejection(clientOf(server).getMe());
    expect(error).toMatchObject({ code: 'server', status: 502, attempts: 4 });
    expect(explainApiError(error)).toBe("the shop's API had a problem (HTTP 502).");
    expect(server.requests).toHaveLength(4);
  });

  it('an HTML 429 page is rate_limited with its Retry-After; an HTML 404 is not_found and not retried', async () => {
    const server = await hostile();
    server.behave({ kind: 'html', status: 429, retryAfter: '7' });
    const waits: number[] = [];
    const client = clientOf(server, {
      retry: { maxAttempts: 2 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await rejection(client.getMe())).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfter: 7,
    });
    expect(waits).toEqual([7_000]);
    server.behave({ kind: 'html', status: 404 });
    expect(await rejection(client.getMe())).toMatchObject({ code: 'not_found', status: 404, attempts: 1 });
  });

  it('a 200 whose body is not JSON is a server error, as before; malformed JSON too', async () => {
    const server = await hostile();
    const client = clientOf(server, { retry: { maxAttempts: 1 } });
    server.behave({ kind: 'status', status: 200, body: '<html>maintenance</html>' });
    expect(await rejection(client.getMe())).toMatchObject({ code: 'server', status: 200 });
    server.behave({ kind: 'malformed' });
    const malformed = await rejection(client.getMe());
    expect(malformed).toMatchObject({ code: 'server', status: 200 });
    expect(malformed.message).toMatch(/not JSON/);
  });
});
