/**
 * Reads a response body through a byte counter. `response.text()` has no
 * limit: a body that never ends grows the process until it dies, and a 50 MB
 * answer is held whole before anything can look at it. Here the body is
 * streamed and dropped (the connection closed) as soon as it passes the limit,
 * or as soon as `signal` aborts: the attempt's own timer covers the body too,
 * also when a server trickles bytes just fast enough to keep a socket alive.
 */

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/** Drops a body nobody will read, so its connection is closed rather than left streaming. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/**
 * The body as text (UTF-8), at most `limit` bytes. Rejects with BodyTooLarge
 * past the limit (without reading further when Content-Length already says
 * so), or with `signal.reason` once the signal aborts.
 */
export async function readBodyCapped(
  response: Response,
  limit: number,
  signal: AbortSignal,
): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    discardBody(response);
    throw new BodyTooLarge(limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  // The abort is handled here, not left to fetch: cancelling the reader ends a
  // pending read() at once, whatever the HTTP stack did with the signal.
  const onAbort = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        throw new BodyTooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
