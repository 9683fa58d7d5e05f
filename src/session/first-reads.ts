/**
 * The first screen's reads, awaited before the UI is loaded: loading Ink, React and Yoga holds the
 * process for a hundred milliseconds and more, and answers that arrive meanwhile wait for it. Awaited
 * first, the hub's election and the shop's answers go through untouched, and the first frame is drawn
 * with the shop's data (not "loading the shop…" and, moments later, the whole screen again).
 */
import type { AppState, AppStore, Loaded } from '../store/app-store.js';

/** Longest the first frame waits for the first reads: after it, the inbox is drawn loading. */
export const FIRST_READS_WAIT_MS = 300;

const answered = (loaded: Loaded<unknown>) => loaded.data !== undefined || loaded.error !== undefined;

/** Whether the shop (GET /me) and the first list have answered, with data or an error. */
export function firstReadsAnswered(state: AppState): boolean {
  return answered(state.me) && answered(state.inbox[state.inboxFilter]);
}

/** Resolves once the first reads have answered, or after `waitMs`, whichever is first. */
export function firstReads(store: AppStore, waitMs = FIRST_READS_WAIT_MS): Promise<void> {
  if (firstReadsAnswered(store.getState())) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const unsubscribe = store.subscribe((state) => {
      if (firstReadsAnswered(state)) done();
    });
  });
}
