/**
 * Caches that hold what the last two frames used, and nothing older. Drawing
 * a frame measures, wraps and tokenizes every text on screen again; most of
 * them are the last frame's, so each is kept for the next one. A wallboard
 * runs for weeks and its clock and live data make new texts all the time:
 * a cache bounded only by a count grew by hundreds of MiB before it was
 * emptied (a line's styled cells are ~40 KB). Here each cache holds two
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

interface Entry<V> {
  value: V;
  /** The last frame that used it. */
  frame: number;
}

/**
 * One map whose entries carry the last frame that used them, rather than a map per frame: an entry used
 * again is stamped, not copied into a new map, so a frame that reuses most of the last one's texts
 * allocates nothing for them.
 */
export class FrameCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private frame = 0;
  /** Entries stamped with this frame. */
  private usedThisFrame = 0;

  constructor(private readonly limit = GENERATION_LIMIT) {
    caches.add(this as FrameCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.frame !== this.frame) {
      // Used again in this frame: kept for the next one (put back if an early turn-over swept it).
      if (this.usedThisFrame >= this.limit) {
        this.turnOver();
        this.entries.set(key, entry);
      }
      entry.frame = this.frame;
      this.usedThisFrame += 1;
    }
    return entry.value;
  }

  set(key: K, value: V): this {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.frame === this.frame) {
      entry.value = value;
      return this;
    }
    if (this.usedThisFrame >= this.limit) this.turnOver();
    this.entries.set(key, { value, frame: this.frame });
    this.usedThisFrame += 1;
    return this;
  }

  /** Entries held: what this frame and the last one used. */
  get size(): number {
    return this.entries.size;
  }

  /** This frame's entries become the last frame's; the last frame's go. */
  turnOver(): void {
    this.frame += 1;
    this.usedThisFrame = 0;
    const last = this.frame - 1;
    // forEach, not for…of: no [key, entry] pair made for each entry at every frame.
    this.entries.forEach((entry, key, entries) => {
      if (entry.frame < last) entries.delete(key);
    });
  }

  clear(): void {
    this.entries.clear();
    this.usedThisFrame = 0;
  }
}

/** A new frame is being drawn: every cache forgets what the frame before the last one used. */
export function nextFrame(): void {
  for (const cache of caches) cache.turnOver();
}
