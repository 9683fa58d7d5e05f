/**
 * What an overlay shows at a scroll (src/ui-kit/scroll-window.ts): every row is shown, above or below,
 * exactly once; the room is filled while there are rows to fill it; the scroll is held between the top and
 * the end, whatever it was asked to be.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrollWindow } from '../../src/ui-kit/scroll-window.js';

describe('the scroll window', () => {
  it('accounts for every row, fills the room, and holds the scroll between the top and the end', () => {
    fc.assert(
      fc.property(
        fc.nat(500),
        fc.integer({ min: -5, max: 60 }),
        fc.integer({ min: -10, max: 600 }),
        (total, room, scroll) => {
          const view = scrollWindow(total, room, scroll);
          expect(view.above + view.shown + view.below).toBe(total);
          expect(view.shown).toBe(Math.min(Math.max(1, room), total));
          expect(view.last).toBe(total - view.shown);
          expect(view.first).toBe(Math.max(0, Math.min(scroll, view.last)));
          expect(view.above).toBe(view.first);
        },
      ),
    );
  });

  it('at its end shows the last rows', () => {
    expect(scrollWindow(30, 10, 99)).toEqual({ first: 20, shown: 10, above: 20, below: 0, last: 20 });
    expect(scrollWindow(5, 10, 3)).toEqual({ first: 0, shown: 5, above: 0, below: 0, last: 0 });
  });
});
