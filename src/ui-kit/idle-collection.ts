/**
 * A key's frame should not wait for the garbage collector. The young generation is kept small (2 × 1 MiB,
 * `src/cli/runtime-tuning.ts`) and a key's work fills most of it, so V8 used to collect it in the middle of
 * nearly every key, ~1 ms of the few a key takes. Once the screen has been quiet for a moment (no frame for
 * `quietMs`), the young generation is collected here instead, if it is at least `minFullness` full: the next
 * key starts with it nearly empty and its work fits. A minor collection costs what survives, not what died,
 * so collecting at rest costs about what V8's own collection would have.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface YoungGeneration {
  /** How full it is, from 0 to 1. */
  fullness(): number;
  /** One minor collection, now. */
  collect(): void;
}

export interface IdleCollectionOptions {
  young: YoungGeneration;
  /** How long without a frame counts as quiet. */
  quietMs?: number;
  /** Below this fullness nothing is collected: V8's own collection is as good. */
  minFullness?: number;
}

export interface IdleCollection {
  /** A frame was drawn: the quiet starts again. */
  framed(): void;
  stop(): void;
}

export const QUIET_MS = 20;
export const MIN_FULLNESS = 0.25;

export function collectWhenIdle({
  young,
  quietMs = QUIET_MS,
  minFullness = MIN_FULLNESS,
}: IdleCollectionOptions): IdleCollection {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const atRest = () => {
    if (young.fullness() >= minFullness) young.collect();
  };
  return {
    framed() {
      if (stopped) return;
      // One timer for the whole run, pushed back by each frame: no allocation per frame.
      if (timer === undefined) timer = setTimeout(atRest, quietMs).unref();
      else timer.refresh();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/**
 * This process's young generation. V8 offers a minor collection only to code given its `gc` function
 * (`--expose-gc`); the flag is set now and the function taken from a context made after it, so that no
 * global `gc` appears in the program's own context. Undefined where V8 does not offer it.
 */
export function v8YoungGeneration(): YoungGeneration | undefined {
  let gc: unknown;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('typeof gc === "function" ? gc : undefined');
  } catch {
    return undefined;
  }
  if (typeof gc !== 'function') return undefined;
  const minor = { type: 'minor' };
  return {
    fullness() {
      for (const space of getHeapSpaceStatistics()) {
        if (space.space_name !== 'new_space') continue;
        // Its size counts both halves of the young generation once it has been collected; objects are made
        // in one: what is used and what is still free of it.
        const half = space.space_used_size + space.space_available_size;
        return half > 0 ? space.space_used_size / half : 0;
      }
      return 0;
    },
    collect: () => gc(minor),
  };
}
