/**
 * What checking the owner of a loopback service costs (issue 19), run by hand:
 * `node scripts/loopback-bench.mjs`. Results go to stdout as JSON and are
 * copied into BENCHMARKS.md.
 *
 *   - one check on this machine's own tables, for fresh connections to the
 *     simulator in this process (the row sought is among the newest);
 *   - one check on written tables of a busy box (10,000 to 200,000 sockets),
 *     with the row sought last: the worst case, every line read;
 *   - the heap while reading the longest table: the read is streamed;
 *   - a client making 200 calls on one kept-alive connection: checked once.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShopClient } from '../src/api/client.js';
import { checkLoopbackService } from '../src/api/loopback-guard.js';
import { findServerOwner, tableForms } from '../src/api/socket-table.js';
import { createSimulator } from '../src/sim/simulator.js';

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => Math.round(value * 1000) / 1000;

const sim = createSimulator({ rateLimitPerMinute: 100_000 });
const { baseUrl } = await sim.listen({ host: '127.0.0.1', port: 0 });
const port = Number(new URL(baseUrl).port);

async function connected(): Promise<Socket> {
  const socket = createConnection({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

// 1. This machine's tables.
const tableRows = (await readFile('/proc/net/tcp', 'latin1')).split('\n').length - 2;
const table6Rows = (await readFile('/proc/net/tcp6', 'latin1')).split('\n').length - 2;
const own: number[] = [];
for (let round = 0; round < 200; round += 1) {
  const socket = await connected();
  const started = performance.now();
  await checkLoopbackService(socket);
  own.push(performance.now() - started);
  socket.destroy();
}

// 2. A busy box: the row sought is the last of N.
const work = await mkdtemp(join(tmpdir(), 'loopback-bench-'));
const server = { address: '127.0.0.1', port: 8080 };
const client = { address: '127.0.0.1', port: 50000 };
const forms = { server: tableForms(server), client: tableForms(client) };
const line = (local: string, remote: string, uid: number) =>
  `   0: ${local} ${remote} 01 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 4242 1 0000000000000000 20 4 30 10 -1\n`;
const header =
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
const busy: Record<string, unknown> = {};
for (const sockets of [10_000, 50_000, 200_000]) {
  const other = line('0100007F:0016', '0100007F:9C40', 0);
  const tcp = join(work, `tcp-${sockets}`);
  const text =
    header + other.repeat(sockets - 1) + line(forms.server.tcp ?? '', forms.client.tcp ?? '', 1000);
  await writeFile(tcp, text);
  const tables = { tcp, tcp6: join(work, 'none') };
  const times: number[] = [];
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  for (let round = 0; round < 10; round += 1) {
    const started = performance.now();
    const owner = await findServerOwner(server, client, { tables });
    times.push(performance.now() - started);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    if (owner.kind !== 'found') throw new Error(`not found in ${sockets}`);
  }
  busy[sockets] = {
    tableMiB: Math.round((text.length / 1024 / 1024) * 10) / 10,
    p50Ms: ms(quantile(times, 0.5)),
    maxMs: ms(Math.max(...times)),
    heapGrowthMiB: Math.round(((heapPeak - heapBefore) / 1024 / 1024) * 10) / 10,
  };
}
await rm(work, { recursive: true, force: true });

// 3. Kept alive: 200 calls, one connection, one check.
const keptAlive = createShopClient({
  baseUrl,
  apiKey: sim.tokens.read,
  retry: { baseDelayMs: 1, maxDelayMs: 5 },
});
const calls: number[] = [];
for (let round = 0; round < 200; round += 1) {
  const started = performance.now();
  await keptAlive.getMe();
  calls.push(performance.now() - started);
}

await sim.close();
process.stdout.write(
  `${JSON.stringify(
    {
      node: process.version,
      ownTables: {
        tcpRows: tableRows,
        tcp6Rows: table6Rows,
        checkP50Ms: ms(quantile(own, 0.5)),
        checkP99Ms: ms(quantile(own, 0.99)),
      },
      busyBox: busy,
      keptAlive: {
        calls: calls.length,
        firstCallMs: ms(calls[0] ?? Number.NaN),
        laterCallsP50Ms: ms(quantile(calls.slice(1), 0.5)),
      },
    },
    null,
    2,
  )}\n`,
);
