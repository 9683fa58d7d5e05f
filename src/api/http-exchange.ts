/**
 * One HTTP exchange, on Node's own http and https modules: the request goes
 * out, the answer's status and headers come back, and its body is read only
 * through a byte cap.
 *
 * Not fetch: Node loads its fetch (undici) on first use, ~50 ms of start-up and
 * ~10 MiB held for the life of the process, in a program staff start over SSH
 * and run several copies of on one box. Nothing here needs what fetch adds; a
 * redirect is never followed (this module never follows one), and a body is
 * never read whole before its size is known.
 *
 * A body that never ends, or a 50 MB one, is dropped (the connection closed) as
 * soon as it passes the limit, or as soon as the signal aborts: the attempt's
 * own timer covers the body too, also when a server trickles bytes just fast
 * enough to keep a socket alive. A compressed body is limited by what it
 * inflates to.
 */
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex, Readable } from 'node:stream';
import type { TLSSocket, ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { LoopbackCheckedAgent, type LoopbackGuardOptions } from './loopback-guard.js';

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** A compressed body whose bytes are not what its Content-Encoding says. */
export class BodyUndecodable extends Error {
  override name = 'BodyUndecodable';
  constructor(readonly encoding: string) {
    super(`body is not valid ${encoding}`);
  }
}

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** Sent as is (the caller sets content-type). */
  body?: string;
  /** Aborts the exchange, answer and body included. */
  signal: AbortSignal;
  /**
   * Called just before the request's first byte is written, once its
   * connection is ready to take it: what it throws refuses the request
   * (nothing is written) and rejects the exchange.
   */
  beforeWrite?: () => void;
}

export interface HttpAnswer {
  status: number;
  /** A header's value (the first, if the server sent it more than once); undefined when absent. */
  header(name: string): string | undefined;
  /**
   * The body as UTF-8 text, at most `limit` bytes once inflated. Rejects with
   * BodyTooLarge past the limit (without reading when Content-Length already
   * says so), or with the signal's reason once it aborts.
   */
  text(limit: number): Promise<string>;
  /** Drops the body unread and closes its connection, rather than leave it streaming. */
  discard(): void;
}

/**
 * Keep-alive connections, shared by the requests of one client (the agents unref idle sockets).
 * Plain http goes only to loopback, and only to a service of this user's (loopback-guard.ts).
 */
export interface Connections {
  http: HttpAgent;
  https: HttpsAgent;
}

export function createConnections(guard: LoopbackGuardOptions = {}): Connections {
  return {
    http: new LoopbackCheckedAgent({ keepAlive: true }, guard),
    https: new HandshakenHttpsAgent({ keepAlive: true }),
  };
}

/**
 * Hands a new TLS connection to its request only once the handshake is done,
 * so that the request is written the moment it gets it (see exchange's
 * beforeWrite), not buffered to go out whenever the handshake ends.
 */
class HandshakenHttpsAgent extends HttpsAgent {
  override createConnection(
    options: TlsConnectionOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    // The base agent's own connection: its TLS session cache stays in use.
    const socket = super.createConnection(options) as TLSSocket;
    const settle = (error: Error | null) => {
      socket.off('secureConnect', onSecure);
      socket.off('error', settle);
      if (error) socket.destroy();
      callback?.(error, socket);
    };
    const onSecure = () => settle(null);
    socket.once('secureConnect', onSecure);
    socket.once('error', settle);
    return undefined;
  }
}

/** Sends the request; resolves once the answer's status and headers are in. */
export function exchange(request: HttpRequest, connections: Connections): Promise<HttpAnswer> {
  const secure = request.url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) return reject(request.signal.reason);
    const outgoing = send(request.url, {
      method: request.method,
      headers: {
        ...request.headers,
        'accept-encoding': 'gzip, deflate, br',
        ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
      },
      agent: secure ? connections.https : connections.http,
    });
    const onAbort = () => {
      outgoing.destroy();
      reject(request.signal.reason);
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => {
      request.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    outgoing.on('response', (incoming) => {
      request.signal.removeEventListener('abort', onAbort);
      resolve(answer(incoming, request.signal));
    });
    // Written only once a connection ready to take it is handed over, so that nothing comes between
    // beforeWrite's last word and the write: not a connection being made or checked, not a stop of this process.
    outgoing.once('socket', (socket) => {
      const write = () => {
        try {
          request.beforeWrite?.();
        } catch (refusal) {
          request.signal.removeEventListener('abort', onAbort);
          outgoing.destroy();
          reject(refusal);
          return;
        }
        outgoing.end(request.body);
      };
      if (socket.connecting) socket.once('connect', write);
      else write();
    });
  });
}

function answer(incoming: IncomingMessage, signal: AbortSignal): HttpAnswer {
  // A connection that fails before the body is read must not throw where nobody listens; reading it says so.
  incoming.on('error', () => {});
  const discard = () => {
    incoming.destroy();
  };
  return {
    status: incoming.statusCode ?? 0,
    header(name) {
      const value = incoming.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    discard,
    text: (limit) => readCapped(incoming, limit, signal),
  };
}

function contentEncoding(incoming: IncomingMessage): string {
  return String(incoming.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
}

function inflated(incoming: IncomingMessage): Readable {
  switch (contentEncoding(incoming)) {
    case 'identity':
    case '':
      return incoming;
    case 'gzip':
    case 'x-gzip':
      return incoming.pipe(createGunzip());
    case 'deflate':
      return incoming.pipe(createInflate());
    case 'br':
      return incoming.pipe(createBrotliDecompress());
    default:
      // Not asked for and not understood: read as is (it will not parse, and says so).
      return incoming;
  }
}

function readCapped(incoming: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
    if (contentEncoding(incoming) === 'identity' && Number.isFinite(declared) && declared > limit) {
      incoming.destroy();
      return reject(new BodyTooLarge(limit));
    }
    const body = inflated(incoming);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: unknown, text?: string) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve(text ?? '');
      incoming.destroy();
      if (body !== incoming) body.destroy();
      reject(error);
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) return finish(new BodyTooLarge(limit));
      chunks.push(chunk);
    });
    body.on('end', () => finish(undefined, Buffer.concat(chunks, size).toString('utf8')));
    if (body === incoming) body.on('error', (error) => finish(error));
    else {
      body.on('error', () => finish(new BodyUndecodable(contentEncoding(incoming))));
      incoming.on('error', (error) => finish(error));
    }
    // The connection closing before the body's end (a reset mid-body) is an error, not a short body.
    incoming.on('close', () => {
      if (!incoming.complete)
        finish(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' }));
    });
  });
}
