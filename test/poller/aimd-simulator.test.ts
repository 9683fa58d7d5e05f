/**
 * AIMD against the real simulator over a real socket, through the budget
 * wiring of the real session (createSession): a process whose own budget (60 a
 * minute) is above what the shop has left for its key (20 a minute, as when
 * other users' hubs or another machine use the rest) settles below the limit
 * after a 429 instead of meeting one every few requests.
 *
 * The simulator and the session share a clock the test moves: each call waits
 * for its slot in the session's budget as the poller does (the clock jumps to
 * the slot), so five minutes of traffic take no time, and the outcome does not
 * depend on how fast this machine is.
 */
import { expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { createSession } from '../../src/session/create-session.js';
import { manualClock, startSim } from '../support/sim.js';

it('halves its rate on a 429 and keeps the 429s under 4 % where a fixed budget meets one every 21 requests', async () => {
  const clock = manualClock();
  const { baseUrl, sim } = await startSim({ rateLimitPerMinute: 20, now: clock.now });
  const session = createSession({ baseUrl, apiKey: sim.tokens.write, maxRpm: 60, now: clock.now });
  const end = clock.now() + 5 * 60_000;
  let ok = 0;
  let limited = 0;
  // Far more calls than five minutes of the budget allow: a budget that lets everything through ends here.
  for (let calls = 0; clock.now() < end && calls < 1_000; calls += 1) {
    clock.advance(Math.max(0, session.budget.nextSlotAt() - clock.now()));
    try {
      await session.client.getMe({ maxAttempts: 1 });
      ok += 1;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'rate_limited') throw error;
      limited += 1;
      // The session pauses until the 429's Retry-After and says so on screen.
      expect(session.store.getState().connection).toEqual({
        state: 'rate_limited',
        until: clock.now() + (error.retryAfter ?? 60) * 1000,
      });
      expect(session.budget.pausedUntil).toBe(clock.now() + (error.retryAfter ?? 60) * 1000);
    }
  }
  session.close();
  const share = limited / (ok + limited);
  // Without the cut, each minute ends with one: 5 of 106.
  expect(share).toBeLessThan(0.04);
  expect(session.budget.rateCuts).toBeGreaterThanOrEqual(1);
  // Five minutes at 20 a minute: about 100 answered; the cuts leave some of it unused.
  expect(ok).toBeGreaterThanOrEqual(50);
});
