/**
 * What the simulator has handled, for tests to prove what a client did or did
 * not send (GET /_sim/requests). `token` is the token's name ("write",
 * "read", …), never its value; null when no token was sent, "unknown" for a
 * value the simulator never issued.
 */
export interface LoggedRequest {
  method: string;
  path: string;
  /** The query string without "?", "" when none. */
  query: string;
  /** HTTP status sent; 0 when the connection was reset or left hanging. */
  status: number;
  token: string | null;
  /** The Idempotency-Key header as sent; null when none. */
  idempotencyKey: string | null;
  /** A write's JSON body as sent (its text when it is not JSON); absent for GET. */
  body?: unknown;
  /** The User-Agent header as sent; null when none (tests tell the processes of one key apart by it). */
  userAgent: string | null;
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 10_000) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries.length = 0;
  }
}
