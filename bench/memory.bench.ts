/**
 * Memory over a long run: thousands of polls through one client, the way an
 * unattended monitoring screen polls for days. Reports heap and RSS growth;
 * growth that keeps rising with the number of calls is a leak.
 */
import { afterAll, bench, describe } from 'vitest';
import { createShopClient } from '../src/api/client.js';
import { createSimulator } from '../src/sim/simulator.js';

const sim = createSimulator({ rateLimitPerMinute: 10_000_000 });
const { baseUrl } = await sim.listen();
const client = createShopClient({ baseUrl, apiKey: sim.tokens.read });

afterAll(() => sim.close());

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function poll(times: number) {
  for (let i = 0; i < times; i += 1) {
    await Promise.all([client.getMe(), client.getInbox(), client.getToday({ limit: 10 })]);
  }
}

describe('memory', () => {
  bench(
    'heap after 1,000 and 3,000 poll rounds (3 calls each)',
    async () => {
      await poll(200);
      global.gc?.();
      const start = process.memoryUsage();
      await poll(1_000);
      global.gc?.();
      const mid = process.memoryUsage();
      await poll(2_000);
      global.gc?.();
      const end = process.memoryUsage();
      console.log(
        `memory: heap ${mib(start.heapUsed)} -> ${mib(mid.heapUsed)} (1k rounds) -> ${mib(end.heapUsed)} (3k rounds); rss ${mib(start.rss)} -> ${mib(end.rss)}${global.gc ? '' : ' (no --expose-gc: figures include garbage)'}`,
      );
    },
    { iterations: 1, time: 0, warmupIterations: 0 },
  );
});
