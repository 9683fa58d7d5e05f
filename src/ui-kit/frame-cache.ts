/**
 * Caches that hold what the last two frames used, and nothing older. Drawing
 * a frame measures, wraps and tokenizes every text on screen again; most of
 * them are the last frame's, so each is kept for the next one. A wallboard
 * runs for weeks and its clock and live data make new texts all the time:
 * a cache bounded only by a count grew by hundreds of MiB before it was
 * emptied (a line's styled cells are ~40 KB). Here each cache has two
 * generations: what this frame used and what the last one did. At each new
 * frame (`nextFrame()`, called by the patched Ink as it draws) the
 * older generation goes. A generation that grows past its limit between two
 * frames (many renders while no frame is drawn: a terminal that does not
 * read) is turned over early, so memory stays bounded whatever happens.
 *
 * Used by the patched Ink (patches/, plugged in by ink-drawing.ts) and by the
 * line diff (terminal-line-update.ts).
 */

/** Entries a generation may hold: a frame of a large terminal uses a few hundred texts. */
export const GENERATION_LIMIT = 4_000;

const caches = new Set<FrameCache<unknown, unknown>>();

export class FrameCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly limit = GENERATION_LIMIT) {
    caches.add(this as FrameCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const earlier = this.previous.get(key);
    // Used again in this frame: kept for the next one.
    if (earlier !== undefined) this.set(key, earlier);
    return earlier;
  }

  set(key: K, value: V): this {
    if (this.current.size >= this.limit) this.turnOver();
    this.current.set(key, value);
    return this;
  }

  /** Entries held in both generations (an entry used in both counts twice). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** This frame's entries become the last frame's; the last frame's go. */
  turnOver(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  clear(): void {
    this.previous = new Map();
    this.current = new Map();
  }
}

/** A new frame is being drawn: every cache forgets what the frame before the last one used. */
export function nextFrame(): void {
  for (const cache of caches) cache.turnOver();
}
