/**
 * How a read's result lands in the store: the data with its time, or the
 * failure next to the last good copy. Also where "new since last seen" is
 * observed, and what a copy says of the threads, since both are properties
 * of a fresh copy of a list.
 */
import { ApiError } from '../api/errors.js';
import type { AppStore, RequestFailure } from '../store/app-store.js';
import type { ReadChange } from '../store/read-slices.js';
import { readOf, type Slot, type SlotData } from './reads.js';

export function failureOf(error: unknown, at: number): RequestFailure {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      status: error.status,
      message: error.message,
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      at,
    };
  }
  return { code: 'internal', status: 0, message: error instanceof Error ? error.message : String(error), at };
}

/** Applies one step of a read to the part of the state its slot fills (src/poller/reads.ts says which). */
function write(store: AppStore, slot: Slot, change: ReadChange<SlotData>): void {
  store.setState((state) => {
    const read = readOf(slot.kind);
    const patch = read.write(state, slot, change);
    if (change.kind !== 'answered') return patch;
    // Both compare the fresh copy with the one in the state, which the patch replaces.
    const seen = read.observe?.(state.seen, slot, change.data, change.at) ?? state.seen;
    const threadNews = read.news?.(state, slot, change.data, change.at) ?? state.threadNews;
    return {
      ...patch,
      ...(seen === state.seen ? {} : { seen }),
      ...(threadNews === state.threadNews ? {} : { threadNews }),
    };
  });
}

export function markLoading(store: AppStore, slot: Slot): void {
  write(store, slot, { kind: 'started' });
}

export function storeFailure(store: AppStore, slot: Slot, failure: RequestFailure): void {
  write(store, slot, { kind: 'failed', failure });
}

export function storeData(store: AppStore, slot: Slot, data: SlotData, at: number): void {
  write(store, slot, { kind: 'answered', data, at });
}
