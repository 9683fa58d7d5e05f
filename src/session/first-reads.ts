/**
 * The first screen's reads, and the screen's code loaded beside them. Loading Ink, React and Yoga holds
 * the process for a hundred milliseconds and more, and nothing else moves meanwhile: started before the
 * hub's election is over, it would hold the reads back; after their answers, it adds its time to theirs.
 * So the code is loaded once the reads are on their way (the election over, the requests made), while
 * they travel, and the first frame waits for their answers: it is drawn with the shop's data (not
 * "loading the shop…" and, moments later, the whole screen again).
 */
import type { AppState, AppStore, Loaded } from '../store/app-store.js';

/** Longest the first frame waits for the first reads: after it, the inbox is drawn loading. */
export const FIRST_READS_WAIT_MS = 300;

const answered = (loaded: Loaded<unknown>) => loaded.data !== undefined || loaded.error !== undefined;
const askedFor = (loaded: Loaded<unknown>) => loaded.loading || answered(loaded);

/** Whether the shop (GET /me) and the first list have answered, with data or an error. */
export function firstReadsAnswered(state: AppState): boolean {
  return answered(state.me) && answered(state.inbox[state.inboxFilter]);
}

/** Whether the shop and the first list have been asked for (by this process or its hub), or are in. */
export function firstReadsAskedFor(state: AppState): boolean {
  return askedFor(state.me) && askedFor(state.inbox[state.inboxFilter]);
}

/** Resolves once the first reads have answered, or after `waitMs`, whichever is first. */
export function firstReads(store: AppStore, waitMs = FIRST_READS_WAIT_MS): Promise<void> {
  return until(store, firstReadsAnswered, waitMs);
}

/**
 * Calls `load` once the first reads of every store are on their way, and resolves once they have
 * answered (or `waitMs` after the call) with the load, which may still be under way.
 */
export async function firstReadsBeside<T>(
  stores: AppStore[],
  load: () => Promise<T>,
  waitMs = FIRST_READS_WAIT_MS,
): Promise<{ loaded: Promise<T> }> {
  const began = performance.now();
  const left = () => Math.max(0, waitMs - (performance.now() - began));
  await Promise.all(stores.map((store) => until(store, firstReadsAskedFor, left())));
  // One turn of the event loop, so that the requests' sockets connect and send before the load holds it.
  await new Promise((resolve) => setImmediate(resolve));
  const loaded = load();
  // Seen now, so that a load that fails while the reads are awaited is not reported as unhandled.
  loaded.catch(() => {});
  await Promise.all(stores.map((store) => firstReads(store, left())));
  return { loaded };
}

function until(store: AppStore, test: (state: AppState) => boolean, waitMs: number): Promise<void> {
  if (test(store.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const unsubscribe = store.subscribe((state) => {
      if (test(state)) done();
    });
  });
}
