/**
 * A TCP listener on a loopback port that belongs to another user of this
 * machine: a child Node process started with another uid (root can; the tests
 * run as root) that accepts connections and reports, line by line, everything
 * that reaches it. It is what a stranger on a shared box would run on a port
 * the shop-inbox user's own service left free.
 *
 *   const stranger = await startForeignListener({ host: '127.0.0.1', port });
 *   ...point a client at http://127.0.0.1:PORT/v1...
 *   await stranger.closedConnections(1);   // the client hung up
 *   stranger.received                       // every byte it was sent, as text
 *   await stranger.stop();
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { until } from './until.js';

/** nobody: another user than the tests' (root). */
export const OTHER_UID = 65534;

export interface ForeignListener {
  /** The port it listens on (the one asked for, or the one the system gave). */
  port: number;
  uid: number;
  /** Connections it accepted so far. */
  readonly connections: number;
  /** Everything sent to it, over all connections, decoded as latin1 text. */
  readonly received: string;
  /** Waits until this many connections it accepted have closed. */
  closedConnections(count: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

// Run by the child: it only listens and tells. It answers nothing, so a client that does send a
// request would wait: the tests' refusals must come before any byte is written.
const LISTENER = `
const net = require('node:net');
const [host, port] = [process.argv[1], Number(process.argv[2])];
const server = net.createServer((socket) => {
  process.stdout.write('accepted\\n');
  socket.on('data', (chunk) => process.stdout.write('data ' + chunk.toString('base64') + '\\n'));
  socket.on('error', () => {});
  socket.on('close', () => process.stdout.write('closed\\n'));
});
server.listen({ host, port, ipv6Only: false }, () => {
  process.stdout.write('listening ' + server.address().port + ' ' + process.getuid() + '\\n');
});
server.on('error', (error) => { process.stdout.write('error ' + error.code + '\\n'); process.exit(3); });
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

export async function startForeignListener(options: {
  host: string;
  port?: number;
  uid?: number;
}): Promise<ForeignListener> {
  const uid = options.uid ?? OTHER_UID;
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', LISTENER, options.host, String(options.port ?? 0)],
    { uid, gid: uid, cwd: '/', stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let connections = 0;
  let closed = 0;
  let received = '';
  let listening: { port: number; uid: number } | undefined;
  let failed: string | undefined;
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on('line', (line) => {
    const [event, value, owner] = line.split(' ');
    if (event === 'listening') listening = { port: Number(value), uid: Number(owner) };
    else if (event === 'accepted') connections += 1;
    else if (event === 'closed') closed += 1;
    else if (event === 'data') received += Buffer.from(value ?? '', 'base64').toString('latin1');
    else if (event === 'error') failed = value;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(() => {
    if (failed) throw new Error(`the foreign listener could not listen: ${failed}`);
    return listening;
  });
  if (listening?.uid !== uid) throw new Error(`the foreign listener runs as ${listening?.uid}, not ${uid}`);
  return {
    port: listening.port,
    uid,
    get connections() {
      return connections;
    },
    get received() {
      return received;
    },
    async closedConnections(count, timeoutMs = 5_000) {
      await until(() => (closed >= count ? true : undefined), timeoutMs);
    },
    async stop() {
      child.stdin?.end();
      await exited;
    },
  };
}
