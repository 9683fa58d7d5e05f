/**
 * One shared slow clock for every "12m ago" and "retrying in 8 s" on screen,
 * instead of a timer per component. It ticks every second only while a
 * countdown is showing, and every 15 s otherwise: an idle screen stays quiet
 * over SSH.
 */
import { useSyncExternalStore } from 'react';

export interface Clock {
  now(): number;
  subscribe(listener: () => void): () => void;
  /** Tick every second (a countdown is visible) or slowly. */
  setFast(fast: boolean): void;
  stop(): void;
}

export function createClock(now: () => number = Date.now, slowMs = 15_000): Clock {
  const listeners = new Set<() => void>();
  let current = now();
  let fast = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = setInterval(
      () => {
        current = now();
        for (const listener of listeners) listener();
      },
      fast ? 1_000 : slowMs,
    );
    timer.unref?.();
  };
  schedule();
  return {
    now: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setFast(value) {
      if (value === fast) return;
      fast = value;
      current = now();
      schedule();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

export function useNow(clock: Clock): number {
  return useSyncExternalStore(clock.subscribe, clock.now);
}
