/**
 * The young generation is collected when the screen rests, not in the middle of the next key: once per
 * quiet moment, only when it is worth it, never while frames keep coming, and with V8's real minor
 * collection.
 */
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  collectWhenIdle,
  MIN_FULLNESS,
  QUIET_MS,
  v8YoungGeneration,
  type YoungGeneration,
} from '../../src/ui-kit/idle-collection.js';

function fakeYoung(fullness: number) {
  const young = { level: fullness, collections: 0 } as {
    level: number;
    collections: number;
  } & YoungGeneration;
  young.fullness = () => young.level;
  young.collect = () => {
    young.collections++;
    young.level = 0.01;
  };
  return young;
}

describe('collecting when the screen rests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for a quiet moment after the last frame, then collects once', () => {
    const young = fakeYoung(0.9);
    const idle = collectWhenIdle({ young });
    // Frames 5 ms apart for a tenth of a second (keys held down, a busy live shop): never in between.
    for (let frame = 0; frame < 20; frame++) {
      idle.framed();
      vi.advanceTimersByTime(5);
    }
    expect(young.collections).toBe(0);
    vi.advanceTimersByTime(QUIET_MS - 5 - 1);
    expect(young.collections).toBe(0);
    vi.advanceTimersByTime(1);
    expect(young.collections).toBe(1);
    // Resting on: nothing more.
    vi.advanceTimersByTime(10 * QUIET_MS);
    expect(young.collections).toBe(1);
    idle.stop();
  });

  it('collects again after the next frames, and only when the young generation is full enough', () => {
    const young = fakeYoung(0.9);
    const idle = collectWhenIdle({ young });
    idle.framed();
    vi.advanceTimersByTime(QUIET_MS);
    expect(young.collections).toBe(1);
    // Little allocated since: V8's own collection, whenever it comes, is as good.
    young.level = MIN_FULLNESS - 0.01;
    idle.framed();
    vi.advanceTimersByTime(QUIET_MS);
    expect(young.collections).toBe(1);
    young.level = MIN_FULLNESS;
    idle.framed();
    vi.advanceTimersByTime(QUIET_MS);
    expect(young.collections).toBe(2);
    idle.stop();
  });

  it('does nothing once stopped', () => {
    const young = fakeYoung(0.9);
    const idle = collectWhenIdle({ young });
    idle.framed();
    idle.stop();
    idle.framed();
    vi.advanceTimersByTime(10 * QUIET_MS);
    expect(young.collections).toBe(0);
  });
});

describe("V8's young generation", () => {
  it('never keeps the process alive while it waits', () => {
    const young = fakeYoung(0.9);
    const idle = collectWhenIdle({ young });
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    idle.framed();
    expect(timers()).toBe(before);
    idle.stop();
  });

  it('reads as full when the half objects are made in is nearly full', () => {
    const young = v8YoungGeneration();
    if (!young) throw new Error('no minor collection in this Node');
    young.collect();
    // Short-lived objects until V8 collects on its own: just before it does, the half they fill is nearly full.
    let most = 0;
    const ring: Array<{ index: number }> = [];
    for (let index = 0; index < 5_000_000 && most < 0.8; index++) {
      ring[index % 64] = { index };
      if (index % 500 === 0) most = Math.max(most, young.fullness());
    }
    expect(most).toBeGreaterThanOrEqual(0.8);
    expect(ring).toHaveLength(64);
  });

  it('is collected by a real minor collection, with no global gc left behind', async () => {
    const globalBefore = typeof (globalThis as { gc?: unknown }).gc;
    const young = v8YoungGeneration();
    expect(young).toBeDefined();
    if (!young) return;
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(globalBefore);

    const kinds: Array<{ kind: number; at: number }> = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        kinds.push({
          kind: (entry as unknown as { detail: { kind: number } }).detail.kind,
          at: entry.startTime,
        });
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      // Short-lived objects, as a key's work makes.
      let held: Array<{ index: number; label: string }> = [];
      for (let index = 0; index < 5_000; index++) held.push({ index, label: `row ${index}` });
      const full = young.fullness();
      expect(full).toBeGreaterThan(0);
      expect(full).toBeLessThanOrEqual(1);
      held = [];
      const from = performance.now();
      young.collect();
      const to = performance.now();
      expect(young.fullness()).toBeLessThan(full);
      // Node hands the collections' entries to observers later, on its own schedule.
      const minorWithin = () =>
        kinds.some(
          (each) => each.kind === constants.NODE_PERFORMANCE_GC_MINOR && each.at >= from && each.at <= to,
        );
      for (let turn = 0; turn < 200 && !minorWithin(); turn++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(minorWithin()).toBe(true);
      expect(held).toHaveLength(0);
    } finally {
      observer.disconnect();
    }
  });
});
