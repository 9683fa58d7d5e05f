/**
 * The caches of drawing hold what the last two frames used and nothing
 * older, whatever texts come and however long the program runs: a wallboard
 * that makes new texts every second for weeks keeps a flat memory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameCache, nextFrame } from '../../src/ui-kit/frame-cache.js';
import { cachedLineCount, lineUpdate } from '../../src/ui-kit/terminal-line-update.js';

/** One step of a program drawing: a text used in this frame, or the next frame begun. */
const step = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }).map((text) => ({ use: `text ${text}` })) },
  { weight: 1, arbitrary: fc.constant({ frame: true }) },
);

describe('FrameCache', () => {
  it('keeps what this frame and the last used, forgets the frame before, and never holds more than two generations', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 100, maxLength: 400 }),
        fc.integer({ min: 1, max: 50 }),
        (steps, limit) => {
          const cache = new FrameCache<string, string>(limit);
          let thisFrame = new Set<string>();
          let lastFrame = new Set<string>();
          for (const each of steps) {
            if ('frame' in each) {
              cache.turnOver();
              lastFrame = thisFrame;
              thisFrame = new Set();
              continue;
            }
            const known = cache.get(each.use);
            // Whatever it gives is what was put there for that key.
            if (known !== undefined) expect(known).toBe(`value of ${each.use}`);
            // While frames use fewer texts than the limit, what the last frame used is still there.
            if (lastFrame.size < limit && thisFrame.size < limit && lastFrame.has(each.use))
              expect(known).toBeDefined();
            if (known === undefined) cache.set(each.use, `value of ${each.use}`);
            thisFrame.add(each.use);
            expect(cache.size).toBeLessThanOrEqual(2 * limit);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a text every frame uses, however many frames go by', () => {
    const cache = new FrameCache<string, number>();
    cache.set('Rivera Plumbing & Heating', 1);
    for (let frame = 0; frame < 10; frame += 1) {
      cache.turnOver();
      expect(cache.get('Rivera Plumbing & Heating')).toBe(1);
    }
  });

  it('keeps a text used again in a frame that filled up and turned over early', () => {
    const cache = new FrameCache<string, number>(2);
    cache.set('Rivera Plumbing & Heating', 1);
    cache.turnOver();
    cache.set('updated 3 s ago', 2);
    cache.set('updated 4 s ago', 3);
    // The frame is at its limit: this use turns it over, which sweeps what came before the last frame.
    expect(cache.get('Rivera Plumbing & Heating')).toBe(1);
    expect(cache.get('Rivera Plumbing & Heating')).toBe(1);
    cache.set('a new text', 4);
    expect(cache.get('a new text')).toBe(4);
    expect(cache.size).toBeLessThanOrEqual(4);
  });

  it('forgets a text no frame has used for two frames', () => {
    const cache = new FrameCache<string, number>();
    cache.set('updated 3 s ago', 1);
    cache.turnOver();
    expect(cache.get('updated 3 s ago')).toBe(1);
    cache.turnOver();
    cache.turnOver();
    expect(cache.get('updated 3 s ago')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe('the line diff over weeks of a live screen', () => {
  it('holds the cells of at most the last two frames, however many distinct lines went by', () => {
    const rows = 40;
    for (let frame = 0; frame < 150; frame += 1) {
      nextFrame();
      // Every row changes every frame: a clock, live counts, new texts.
      for (let row = 0; row < rows; row += 1)
        lineUpdate(
          `\u001B[1mrow ${row}\u001B[0m frame ${frame - 1}`,
          `\u001B[1mrow ${row}\u001B[0m frame ${frame}`,
        );
      expect(cachedLineCount()).toBeLessThanOrEqual(4 * rows);
    }
    // 6,000 distinct lines went by; a cache bounded by a count alone held up to 4,000 of them (~40 KB each).
    expect(cachedLineCount()).toBeLessThanOrEqual(4 * rows);
  });
});
