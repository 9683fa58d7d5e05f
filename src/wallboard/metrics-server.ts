/**
 * Serves GET /metrics (Prometheus text format 0.0.4) from the figures this
 * process already holds. It exposes a shop's business figures, so it listens
 * on a loopback address unless the command line says otherwise explicitly.
 */
import { createServer, type Server } from 'node:http';
import { type MetricsSource, renderMetrics } from './metrics.js';
import type { MetricsAddress } from './metrics-address.js';

export interface MetricsServer {
  /** Where it listens ("http://127.0.0.1:9464/metrics"). */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens, or rejects (EADDRINUSE, EACCES…) before anything else starts. */
export async function serveMetrics(
  address: MetricsAddress,
  sources: () => readonly MetricsSource[],
  now: () => number = Date.now,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: try /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    const body = renderMetrics(sources(), now());
    response.writeHead(200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  // A scraper that holds a connection open must not keep the process alive after quitting.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : address.port;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
