/**
 * The process-wide request scheduler, on an injected clock and timers: at most
 * N starts in any 60 s window, staff actions before polls, a 429's pause holds
 * everything (and is never shortened), an abort while waiting gives the place
 * back, and closing rejects whoever is still waiting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestBudget, type RequestPriority } from '../../src/poller/request-budget.js';

const MINUTE = 60_000;

/** A clock and timers the test moves by hand; due timers fire in order as time passes. */
function fakeTime(start = 1_000_000) {
  let current = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => current,
    setTimer: (callback: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: current + Math.max(0, ms), callback });
      return id;
    },
    clearTimer: (timer: unknown) => {
      timers.delete(timer as number);
    },
    get pendingTimers() {
      return timers.size;
    },
    /** Moves the clock forward, firing each timer at its own time, and lets promises settle. */
    async advance(ms: number) {
      // Whatever was let through before the clock moves is recorded at the current time.
      await flush();
      const end = current + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers) {
          if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
        }
        if (!due) break;
        timers.delete(due[0]);
        current = Math.max(current, due[1].at);
        due[1].callback();
        await flush();
      }
      current = end;
      await flush();
    },
    flush,
  };
}

function budgetWith(
  maxPerMinute: number,
  time = fakeTime(),
  increaseEveryMs?: number,
  burstPerMinute?: number,
) {
  const budget = new RequestBudget({
    maxPerMinute,
    ...(burstPerMinute !== undefined ? { burstPerMinute } : {}),
    ...(increaseEveryMs !== undefined ? { increaseEveryMs } : {}),
    now: time.now,
    setTimer: time.setTimer,
    clearTimer: time.clearTimer,
  });
  return { budget, time };
}

/** Acquires and records the clock time at which the request was let through. */
function track(budget: RequestBudget, time: ReturnType<typeof fakeTime>) {
  const starts: Array<{ label: string; at: number }> = [];
  const rejected: Array<{ label: string; reason: unknown }> = [];
  const acquire = (label: string, priority: RequestPriority = 'poll', signal?: AbortSignal) =>
    budget.acquire(priority, signal).then(
      () => {
        starts.push({ label, at: time.now() });
      },
      (reason: unknown) => {
        rejected.push({ label, reason });
      },
    );
  return { starts, rejected, acquire };
}

/** The most starts in any half-open 60 s window [t, t + 60 s). */
function maxInAnyWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    const from = sorted[i] ?? 0;
    let count = 0;
    for (let j = i; j < sorted.length && (sorted[j] ?? 0) < from + MINUTE; j += 1) count += 1;
    most = Math.max(most, count);
  }
  return most;
}

describe('RequestBudget', () => {
  it('refuses a budget that is not a whole number of at least 1', () => {
    expect(() => new RequestBudget({ maxPerMinute: 0 })).toThrow(RangeError);
    expect(() => new RequestBudget({ maxPerMinute: 2.5 })).toThrow(RangeError);
  });

  it('lets N requests start at once, then each next one when the oldest leaves the window', async () => {
    const { budget, time } = budgetWith(3);
    const { starts, acquire } = track(budget, time);
    const t0 = time.now();
    for (let i = 0; i < 5; i += 1) void acquire(`r${i}`);
    await time.flush();
    expect(starts.map((s) => s.label)).toEqual(['r0', 'r1', 'r2']);
    expect(budget.available).toBe(0);
    expect(budget.waiting).toBe(2);
    expect(budget.usedInLastMinute).toBe(3);
    expect(budget.nextSlotAt()).toBe(t0 + MINUTE);

    await time.advance(MINUTE - 1);
    expect(starts).toHaveLength(3);
    await time.advance(1);
    expect(starts.map((s) => s.label)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(starts.slice(3).every((s) => s.at === t0 + MINUTE)).toBe(true);
    expect(budget.waiting).toBe(0);
  });

  it('never lets more than N start in any 60 s window, whatever the arrival pattern', async () => {
    const { budget, time } = budgetWith(7);
    const { starts, acquire } = track(budget, time);
    // A deterministic, bursty pattern of arrivals over five minutes.
    let seed = 42;
    const random = () => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    const pending: Array<Promise<void>> = [];
    for (let step = 0; step < 300; step += 1) {
      const burst = random() < 0.1 ? 6 : random() < 0.3 ? 1 : 0;
      for (let i = 0; i < burst; i += 1) {
        pending.push(acquire(`s${step}.${i}`, random() < 0.3 ? 'user' : 'poll'));
      }
      await time.advance(1_000);
    }
    await time.advance(30 * MINUTE);
    await Promise.all(pending);
    expect(starts).toHaveLength(pending.length);
    expect(pending.length).toBeGreaterThan(40);
    expect(maxInAnyWindow(starts.map((s) => s.at))).toBeLessThanOrEqual(7);
    // And it does not waste the budget: some window is full.
    expect(maxInAnyWindow(starts.map((s) => s.at))).toBe(7);
  });

  it('lets waiting user actions go before waiting polls, in arrival order within each', async () => {
    const { budget, time } = budgetWith(1);
    const { starts, acquire } = track(budget, time);
    void acquire('first poll');
    void acquire('poll 1');
    void acquire('poll 2');
    void acquire('user 1', 'user');
    void acquire('poll 3');
    void acquire('user 2', 'user');
    await time.flush();
    expect(starts.map((s) => s.label)).toEqual(['first poll']);
    for (let i = 0; i < 5; i += 1) await time.advance(MINUTE);
    expect(starts.map((s) => s.label)).toEqual([
      'first poll',
      'user 1',
      'user 2',
      'poll 1',
      'poll 2',
      'poll 3',
    ]);
  });

  it('holds every request, user actions too, until a pause ends, even with budget left', async () => {
    const { budget, time } = budgetWith(10);
    const { starts, acquire } = track(budget, time);
    const t0 = time.now();
    budget.pauseUntil(t0 + 5_000);
    expect(budget.pausedUntil).toBe(t0 + 5_000);
    expect(budget.available).toBe(0);
    expect(budget.nextSlotAt()).toBe(t0 + 5_000);
    void acquire('poll');
    void acquire('user', 'user');
    await time.advance(4_999);
    expect(starts).toEqual([]);
    expect(budget.waiting).toBe(2);
    await time.advance(1);
    expect(starts).toEqual([
      { label: 'user', at: t0 + 5_000 },
      { label: 'poll', at: t0 + 5_000 },
    ]);
    expect(budget.pausedUntil).toBeUndefined();
    expect(budget.available).toBe(8);
  });

  it('never shortens a pause: a shorter Retry-After arriving later leaves the longer one', async () => {
    const { budget, time } = budgetWith(10);
    const { starts, acquire } = track(budget, time);
    const t0 = time.now();
    budget.pauseUntil(t0 + 10_000);
    budget.pauseUntil(t0 + 2_000);
    expect(budget.pausedUntil).toBe(t0 + 10_000);
    void acquire('poll');
    await time.advance(2_000);
    budget.pauseUntil(t0 + 3_000);
    await time.advance(5_000);
    expect(starts).toEqual([]);
    // A longer one extends it.
    budget.pauseUntil(t0 + 12_000);
    await time.advance(3_000);
    expect(starts).toEqual([]);
    await time.advance(2_000);
    expect(starts).toEqual([{ label: 'poll', at: t0 + 12_000 }]);
  });

  it('tells subscribers when a pause starts and when the waiting line changes', async () => {
    const { budget, time } = budgetWith(1);
    let calls = 0;
    const unsubscribe = budget.subscribe(() => {
      calls += 1;
    });
    budget.pauseUntil(time.now() + 1_000);
    expect(calls).toBeGreaterThan(0);
    const before = calls;
    const controller = new AbortController();
    const waiting = budget.acquire('poll', controller.signal).catch(() => undefined);
    controller.abort();
    await waiting;
    expect(calls).toBeGreaterThan(before);
    unsubscribe();
    const after = calls;
    budget.pauseUntil(time.now() + 5_000);
    expect(calls).toBe(after);
  });

  it('rejects an abort while waiting with the reason, and gives its place to the next waiter', async () => {
    const { budget, time } = budgetWith(2);
    const { starts, rejected, acquire } = track(budget, time);
    const t0 = time.now();
    void acquire('a');
    void acquire('b');
    const controller = new AbortController();
    const aborted = acquire('c', 'user', controller.signal);
    void acquire('d');
    await time.flush();
    expect(budget.waiting).toBe(2);

    const reason = new Error('staff pressed Esc');
    controller.abort(reason);
    await aborted;
    expect(rejected).toEqual([{ label: 'c', reason }]);
    expect(budget.waiting).toBe(1);

    await time.advance(MINUTE);
    // d takes the slot c would have had; c was never counted.
    expect(starts.map((s) => s.label)).toEqual(['a', 'b', 'd']);
    expect(starts[2]?.at).toBe(t0 + MINUTE);
    expect(budget.usedInLastMinute).toBe(1);
    expect(budget.available).toBe(1);
    expect(budget.waiting).toBe(0);
  });

  it('rejects at once when the signal is already aborted, without counting it', async () => {
    const { budget } = budgetWith(1);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(budget.acquire('user', controller.signal)).rejects.toThrow('gone');
    expect(budget.usedInLastMinute).toBe(0);
    expect(budget.available).toBe(1);
  });

  it('an abort during a pause rejects without waiting for the pause to end', async () => {
    const { budget, time } = budgetWith(5);
    const { rejected, starts, acquire } = track(budget, time);
    budget.pauseUntil(time.now() + 30_000);
    const controller = new AbortController();
    const waiting = acquire('poll', 'poll', controller.signal);
    await time.advance(1_000);
    controller.abort();
    await waiting;
    expect(rejected.map((r) => r.label)).toEqual(['poll']);
    await time.advance(60_000);
    expect(starts).toEqual([]);
    expect(budget.usedInLastMinute).toBe(0);
  });

  it('close rejects every waiter with its reason and stops its timer', async () => {
    const { budget, time } = budgetWith(1);
    const { starts, rejected, acquire } = track(budget, time);
    void acquire('a');
    const controller = new AbortController();
    const waiting = [acquire('b'), acquire('c', 'user', controller.signal)];
    await time.flush();
    expect(time.pendingTimers).toBe(1);
    const reason = new Error('shutting down');
    budget.close(reason);
    await Promise.all(waiting);
    expect(rejected).toEqual([
      { label: 'c', reason },
      { label: 'b', reason },
    ]);
    expect(time.pendingTimers).toBe(0);
    expect(budget.waiting).toBe(0);
    // The abort listener is gone: aborting later does nothing more.
    controller.abort();
    await time.advance(2 * MINUTE);
    expect(starts.map((s) => s.label)).toEqual(['a']);
    expect(rejected).toHaveLength(2);
  });

  describe('after a 429 (AIMD)', () => {
    it('halves the rate once per burst of 429s, grows it back by one a minute every step, then slowly near where it met the 429', async () => {
      const time = fakeTime();
      const { budget } = budgetWith(30, time, 10_000);
      expect(budget.limit).toBe(30);
      budget.rateLimited(time.now() + 5_000);
      // The other answers of the same burst do not cut again.
      budget.rateLimited(time.now() + 5_000);
      budget.rateLimited(time.now() + 4_000);
      expect(budget.limit).toBe(15);
      expect(budget.rateCuts).toBe(1);
      await time.advance(5_000);
      expect(budget.limit).toBe(15);
      await time.advance(10_000);
      expect(budget.limit).toBe(16);
      // Quickly up to 85 % of the 30 that met the 429 (25), then one every eight steps.
      await time.advance(90_000);
      expect(budget.limit).toBe(25);
      await time.advance(70_000);
      expect(budget.limit).toBe(25);
      await time.advance(10_000);
      expect(budget.limit).toBe(26);
      // A new 429 halves from where the rate is now.
      budget.rateLimited(time.now() + 1_000);
      expect(budget.limit).toBe(13);
      expect(budget.rateCuts).toBe(2);
      await time.advance(1_000 + 200 * 10_000);
      expect(budget.limit).toBe(30);
    });

    it('never cuts below its floor', async () => {
      const { budget, time } = budgetWith(8);
      for (let i = 0; i < 10; i += 1) {
        budget.rateLimited(time.now());
        await time.advance(1_000);
      }
      expect(budget.rateCuts).toBe(10);
      expect(budget.limit).toBe(2);
    });

    it('lets no more than the cut rate start in any window while it holds', async () => {
      const time = fakeTime();
      const { budget } = budgetWith(40, time, 600_000);
      const { starts, acquire } = track(budget, time);
      budget.rateLimited(time.now() + 1_000);
      for (let i = 0; i < 60; i += 1) void acquire(`p${i}`);
      await time.advance(3 * MINUTE);
      expect(maxInAnyWindow(starts.map((start) => start.at))).toBe(20);
      expect(starts.length).toBe(60);
    });

    it('waits out requests already in the window when a cut leaves it over the new rate', async () => {
      const time = fakeTime();
      const { budget } = budgetWith(20, time, 600_000);
      const { starts, acquire } = track(budget, time);
      for (let i = 0; i < 10; i += 1) void acquire(`first${i}`);
      await time.advance(30_000);
      for (let i = 0; i < 10; i += 1) void acquire(`second${i}`);
      await time.advance(1_000);
      expect(starts.length).toBe(20);
      // Cut to 10: the first ten leaving the window still leaves ten in it.
      budget.rateLimited(time.now());
      void acquire('late');
      await time.advance(30_000);
      expect(starts.length).toBe(20);
      await time.advance(30_000);
      expect(starts.map((start) => start.label)).toContain('late');
    });
  });

  describe('while the clients of a silent hub read on their own (a share)', () => {
    it('takes 1/n of the rate, and gives the waiting line the whole rate back when the share ends', async () => {
      const { budget, time } = budgetWith(12);
      const { starts, acquire } = track(budget, time);
      budget.setShare(3);
      expect(budget.limit).toBe(4);
      expect(budget.sharedWith).toBe(3);
      for (let i = 0; i < 10; i += 1) void acquire(`r${i}`);
      await time.advance(30_000);
      expect(starts).toHaveLength(4);
      expect(budget.available).toBe(0);
      budget.setShare(1);
      await time.flush();
      expect(starts).toHaveLength(10);
      expect(budget.limit).toBe(12);
    });

    it('shares what a 429 left, and never goes below one request a minute', async () => {
      const { budget, time } = budgetWith(30, fakeTime(), 600_000);
      budget.rateLimited(time.now() + 1_000);
      budget.setShare(4);
      expect(budget.limit).toBe(3);
      budget.setShare(100);
      expect(budget.limit).toBe(1);
      // A 429 met while sharing halves the whole rate, not the share.
      budget.setShare(1);
      await time.advance(2_000);
      budget.setShare(3);
      budget.rateLimited(time.now() + 1_000);
      budget.setShare(1);
      expect(budget.limit).toBe(7);
    });

    it('n terminals on their shares never start more than the whole rate in any window together', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 120 }),
          fc.integer({ min: 1, max: 12 }),
          fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 60 }),
          async (maxPerMinute, terminals, gaps) => {
            const time = fakeTime();
            const budgets = Array.from({ length: terminals }, () => {
              const budget = new RequestBudget({
                maxPerMinute,
                now: time.now,
                setTimer: time.setTimer,
                clearTimer: time.clearTimer,
              });
              budget.setShare(terminals);
              return budget;
            });
            const starts: number[] = [];
            for (const gap of gaps) {
              for (const budget of budgets) void budget.acquire().then(() => starts.push(time.now()));
              await time.advance(gap);
            }
            await time.advance(3 * MINUTE);
            // Each takes at least one a minute, so only then can they pass the whole together.
            expect(maxInAnyWindow(starts)).toBeLessThanOrEqual(Math.max(maxPerMinute, terminals));
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('a gate (the hub of a box that another terminal took over from)', () => {
    it('refuses, with its reason, the request about to start and every one waiting; without it they start again', async () => {
      const { budget, time } = budgetWith(2);
      const { starts, rejected, acquire } = track(budget, time);
      await Promise.all([acquire('a'), acquire('b')]);
      void acquire('c');
      void acquire('d', 'user');
      await time.flush();
      expect(budget.waiting).toBe(2);
      const reason = new Error('taken over');
      let asked = 0;
      budget.setGate(() => {
        asked += 1;
        return reason;
      });
      await time.advance(MINUTE);
      expect(starts.map((s) => s.label)).toEqual(['a', 'b']);
      expect(rejected).toEqual([
        { label: 'd', reason },
        { label: 'c', reason },
      ]);
      expect(asked).toBe(1);
      // A request made later is refused too, at once.
      await acquire('e');
      expect(rejected.map((r) => r.label)).toEqual(['d', 'c', 'e']);
      budget.setGate(() => undefined);
      await acquire('f');
      budget.setGate(undefined);
      await acquire('g');
      expect(starts.map((s) => s.label)).toEqual(['a', 'b', 'f', 'g']);
    });

    it('refuses what waits for a slot as soon as it is set, not when the slot comes (it may be gone by then)', async () => {
      const { budget, time } = budgetWith(1);
      const { starts, rejected, acquire } = track(budget, time);
      await acquire('a');
      void acquire('b');
      await time.flush();
      const reason = new Error('taken over');
      budget.setGate(() => reason);
      await time.flush();
      expect(rejected).toEqual([{ label: 'b', reason }]);
      // Removed before the slot would have come: what was waiting stays refused.
      budget.setGate(undefined);
      await time.advance(MINUTE);
      expect(starts.map((s) => s.label)).toEqual(['a']);
    });

    it('confirms a grant just before its write against the gate it was granted under, and the one in force then', async () => {
      const { budget } = budgetWith(10);
      let taken = false;
      const reason = new Error('taken over');
      budget.setGate(() => (taken ? reason : undefined));
      const underTheHub = await budget.acquire();
      expect(() => underTheHub.confirm()).not.toThrow();
      taken = true;
      budget.setGate(undefined);
      // Its gate is gone (this process reads through the new hub now): still refused, by the gate it had.
      expect(() => underTheHub.confirm()).toThrow(reason);
      const afterwards = await budget.acquire();
      expect(() => afterwards.confirm()).not.toThrow();
      // Granted without a gate, written once one refuses: refused.
      const joining = new Error('joining the new hub');
      budget.setGate(() => joining);
      expect(() => afterwards.confirm()).toThrow(joining);
    });
  });

  describe('bursts (catching up with the shop) above the quiet rate', () => {
    it('lets bursts and user actions go on past the quiet limit up to the burst limit; background reads wait', async () => {
      const { budget, time } = budgetWith(3, fakeTime(), undefined, 6);
      const { starts, acquire } = track(budget, time);
      for (let i = 0; i < 3; i += 1) void acquire(`p${i}`);
      await time.flush();
      void acquire('poll-late');
      await time.flush();
      expect(starts.map((s) => s.label)).toEqual(['p0', 'p1', 'p2']);
      expect(budget.availableFor('poll')).toBe(0);
      expect(budget.availableFor('burst')).toBe(3);
      // The waiting poll is first in line; a burst behind it waits for it (one line, in order)…
      void acquire('burst-behind', 'burst');
      await time.flush();
      expect(starts).toHaveLength(3);
      // …and a user action goes before both, within the burst limit.
      void acquire('send', 'user');
      await time.flush();
      expect(starts.map((s) => s.label)).toEqual(['p0', 'p1', 'p2', 'send']);
      await time.advance(MINUTE);
      expect(starts.map((s) => s.label)).toContain('burst-behind');
    });

    it('never lets more than the burst limit start in any 60 s window, nor background reads past the quiet limit', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.integer({ min: 0, max: 5_000 }),
              fc.constantFrom<RequestPriority>('poll', 'burst', 'user'),
            ),
            {
              maxLength: 80,
            },
          ),
          async (arrivals) => {
            const { budget, time } = budgetWith(4, fakeTime(), undefined, 10);
            const { starts, acquire } = track(budget, time);
            const pending: Array<Promise<void>> = [];
            const priorities = new Map<string, RequestPriority>();
            for (const [index, [gap, priority]] of arrivals.entries()) {
              await time.advance(gap);
              priorities.set(`r${index}`, priority);
              pending.push(acquire(`r${index}`, priority));
            }
            await time.advance(60 * MINUTE);
            await Promise.all(pending);
            expect(starts).toHaveLength(arrivals.length);
            expect(maxInAnyWindow(starts.map((s) => s.at))).toBeLessThanOrEqual(10);
            // A background read starts only while fewer background reads than the quiet limit started in the
            // minute before it: the bursts count against the burst limit, not against the quiet reads.
            const polls = starts.filter((start) => priorities.get(start.label) === 'poll');
            for (const [index, start] of polls.entries()) {
              const before = polls.slice(0, index).filter((other) => other.at > start.at - MINUTE);
              expect(before.length).toBeLessThan(4);
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    it('a burst that went past the quiet limit leaves the quiet reads their own limit', async () => {
      const { budget, time } = budgetWith(3, fakeTime(), undefined, 10);
      const { starts, acquire } = track(budget, time);
      for (let i = 0; i < 6; i += 1) void acquire(`b${i}`, 'burst');
      await time.flush();
      for (let i = 0; i < 4; i += 1) void acquire(`p${i}`);
      await time.flush();
      // Three polls go at once beside six bursts; the fourth waits for the first poll to leave the window.
      expect(starts.map((s) => s.label)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'p0', 'p1', 'p2']);
      expect(budget.availableFor('burst')).toBe(1);
    });

    it('a 429 in a burst halves the rate the burst was at; one met at the quiet rate halves that', async () => {
      const bursting = budgetWith(30, fakeTime(), undefined, 90);
      for (let i = 0; i < 80; i += 1) await bursting.budget.acquire('burst');
      bursting.budget.rateLimited(bursting.time.now() + 1_000);
      expect(bursting.budget.burstLimit).toBe(40);
      expect(bursting.budget.limit).toBe(30);

      const quiet = budgetWith(30, fakeTime(), undefined, 90);
      for (let i = 0; i < 20; i += 1) await quiet.budget.acquire('poll');
      quiet.budget.rateLimited(quiet.time.now() + 1_000);
      expect(quiet.budget.limit).toBe(15);
      expect(quiet.budget.burstLimit).toBe(15);
      // It grows back: one a step to 25, one every eight steps to 30 (where the 429 came), then one a step
      // again, the burst limit past the quiet one to its own.
      await quiet.time.advance(1_000 + 10 * 30_000);
      expect(quiet.budget.limit).toBe(25);
      await quiet.time.advance(40 * 30_000);
      expect(quiet.budget.limit).toBe(30);
      expect(quiet.budget.burstLimit).toBe(30);
      await quiet.time.advance(20 * 30_000);
      expect(quiet.budget.limit).toBe(30);
      expect(quiet.budget.burstLimit).toBe(50);
      await quiet.time.advance(40 * 30_000);
      expect(quiet.budget.burstLimit).toBe(90);
    });
  });
});
