/**
 * AIMD against the real simulator over a real socket: a process whose own
 * budget (60 a minute) is above what the shop has left for its key (20 a
 * minute, as when other users' hubs or another machine use the rest) settles
 * below the limit after a 429 instead of meeting one every few requests.
 * The simulator's clock and the budget's run 60 × faster than real time (one
 * minute a second), so five minutes of traffic take five seconds.
 */
import { expect, it } from 'vitest';
import { createShopClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { RequestBudget } from '../../src/poller/request-budget.js';
import { startSim } from '../support/sim.js';

const SPEED = 60;

function fastClock() {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * SPEED,
    setTimer: (callback: () => void, ms: number) => setTimeout(callback, ms / SPEED),
    clearTimer: (timer: unknown) => clearTimeout(timer as NodeJS.Timeout),
  };
}

it('halves its rate on a 429 and keeps the 429s under 4 % where a fixed budget meets one every few requests', async () => {
  const clock = fastClock();
  const { baseUrl, sim } = await startSim({ rateLimitPerMinute: 20, now: clock.now });
  const budget = new RequestBudget({ maxPerMinute: 60, increaseEveryMs: 60_000, ...clock });
  // Wired as createSession wires it: every attempt waits on the budget, a 429 pauses and cuts it.
  const client = createShopClient({
    baseUrl,
    apiKey: sim.tokens.write,
    beforeAttempt: (_request, signal) => budget.acquire('poll', signal),
    afterAttempt: (_request, error) => {
      if (error?.code === 'rate_limited') budget.rateLimited(clock.now() + (error.retryAfter ?? 60) * 1000);
    },
  });
  const end = clock.now() + 5 * 60_000;
  let ok = 0;
  let limited = 0;
  while (clock.now() < end) {
    try {
      await client.getMe({ maxAttempts: 1 });
      ok += 1;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'rate_limited') throw error;
      limited += 1;
    }
  }
  budget.close();
  const share = limited / (ok + limited);
  // Five minutes at 20 a minute: at most 100 answered; the cuts leave some of it unused.
  expect(ok).toBeGreaterThanOrEqual(50);
  expect(budget.rateCuts).toBeGreaterThanOrEqual(1);
  expect(share).toBeLessThan(0.04);
}, 30_000);
