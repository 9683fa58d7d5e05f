/**
 * For the client's tests against the hostile server: one server per test
 * (closed after it), a client with one attempt unless told otherwise, and how
 * a call failed and after how long.
 */
import { afterEach, expect } from 'vitest';
import { createShopClient, type ShopClientOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import {
  type HostileServer,
  type HostileServerOptions,
  startHostileServer,
} from '../support/hostile-server.js';

export const MiB = 1024 * 1024;

const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A hostile server for this test, closed after it. */
export async function hostile(options?: HostileServerOptions): Promise<HostileServer> {
  const server = await startHostileServer(options);
  servers.push(server);
  return server;
}

export function clientOf(server: HostileServer, options: Partial<ShopClientOptions> = {}) {
  return createShopClient({
    baseUrl: server.baseUrl,
    apiKey: 'shk_test_key',
    retry: { maxAttempts: 1 },
    ...options,
  });
}

/** The ApiError the call rejected with, and how long it took. */
export async function failure(promise: Promise<unknown>): Promise<{ error: ApiError; ms: number }> {
  const started = performance.now();
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { error: error as ApiError, ms: performance.now() - started };
}

export const rejection = async (promise: Promise<unknown>): Promise<ApiError> =>
  (await failure(promise)).error;

/** Code points, as a person counts characters. */
export const length = (text: string) => [...text].length;
