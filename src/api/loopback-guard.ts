/**
 * Plain http is allowed only to loopback (base-url.ts), but on a shared box
 * loopback is no boundary: when the local service behind a port stops, any
 * user can listen on that port and receive the next request, bearer key
 * included. So every plain-http connection is checked once it is made and
 * before a byte is written: the other end must be on this machine and must
 * belong to this user or to root. A connection kept alive is checked once.
 *
 * Where the kernel's socket tables cannot be read (not Linux), nobody can be
 * told apart: plain http is then refused, unless the user says with
 * SHOP_INBOX_TRUST_LOOPBACK=1 that no other user runs programs on the machine.
 */
import { type AgentOptions, Agent as HttpAgent } from 'node:http';
import { createConnection, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { findServerOwner, type SocketOwnerOptions } from './socket-table.js';

/** The service at the other end is not this user's: nothing was sent to it. Never retried. */
export class UntrustedServiceError extends Error {
  override name = 'UntrustedServiceError';
}

export interface LoopbackGuardOptions {
  /** The user whose services are trusted besides root (default: this process's). */
  uid?: number;
  /** Where the socket tables cannot be read, trust any loopback service (SHOP_INBOX_TRUST_LOOPBACK=1). */
  trustWhenUnknown?: boolean;
  /** The socket tables to read (tests). */
  socketTables?: SocketOwnerOptions;
}

/** SHOP_INBOX_TRUST_LOOPBACK=1: the user's word that only they run programs on this machine. */
export function trustLoopbackFromEnv(env: NodeJS.ProcessEnv): boolean {
  return env.SHOP_INBOX_TRUST_LOOPBACK === '1';
}

/** "127.0.0.1:8080", "[::1]:8080". */
function hostPort(address: string, port: number): string {
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** Throws UntrustedServiceError unless the other end of this connected socket may receive the key. */
export async function checkLoopbackService(
  socket: Socket,
  options: LoopbackGuardOptions = {},
): Promise<void> {
  const { remoteAddress, remotePort, localAddress, localPort } = socket;
  if (!remoteAddress || !remotePort || !localAddress || !localPort) {
    throw Object.assign(new Error('the connection closed before it could be used'), { code: 'ECONNRESET' });
  }
  const where = hostPort(remoteAddress, remotePort);
  if (!ipaddr.isValid(remoteAddress) || ipaddr.process(remoteAddress).range() !== 'loopback') {
    throw new UntrustedServiceError(
      `plain http reached ${where}, which is not this machine: the key was not sent. Use https`,
    );
  }
  const owner = await findServerOwner(
    { address: remoteAddress, port: remotePort },
    { address: localAddress, port: localPort },
    options.socketTables,
  );
  const uid = options.uid ?? process.geteuid?.();
  if (owner.kind === 'found') {
    if (owner.uid === uid || owner.uid === 0) return;
    throw new UntrustedServiceError(
      `the service on ${where} belongs to user ${owner.uid}, not you: the key was not sent. Check that your own service runs there, or use https`,
    );
  }
  if (owner.kind === 'unknown' && options.trustWhenUnknown) return;
  throw new UntrustedServiceError(
    owner.kind === 'unknown'
      ? `cannot tell which user runs the service on ${where} (${owner.why}), so the key is not sent over plain http: use https, or set SHOP_INBOX_TRUST_LOOPBACK=1 if no other user can run programs on this machine`
      : `cannot tell which user runs the service on ${where} (the connection is not listed in /proc/net/tcp): the key was not sent`,
  );
}

/**
 * A keep-alive agent for plain http whose connections are checked by
 * checkLoopbackService before the agent hands them to a request: a request
 * (its headers, the key among them) is written only to a checked socket.
 */
export class LoopbackCheckedAgent extends HttpAgent {
  readonly #guard: LoopbackGuardOptions;

  constructor(agentOptions: AgentOptions, guard: LoopbackGuardOptions = {}) {
    super(agentOptions);
    this.#guard = guard;
  }

  override createConnection(
    options: NetConnectOpts,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = createConnection(options);
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      socket.off('error', settle);
      socket.off('close', onClose);
      if (error) socket.destroy();
      callback?.(error, socket);
    };
    const onClose = () =>
      settle(Object.assign(new Error('the connection closed at once'), { code: 'ECONNRESET' }));
    socket.once('error', settle);
    socket.once('close', onClose);
    socket.once('connect', () => {
      checkLoopbackService(socket, this.#guard).then(
        () => settle(null),
        (error: Error) => settle(error),
      );
    });
    // Handed over through the callback once checked: returning it here would let a request write at once.
    return undefined;
  }
}
