/**
 * What an overlay of rows shows at a scroll, and the scroll held within its rows. How far an overlay can
 * scroll depends on the room it is drawn in, which only the drawing knows: a key that scrolls past the end
 * is taken back once the overlay is drawn, so that the first key back scrolls at once.
 */
import { useEffect, useRef } from 'react';

export interface ScrollWindow {
  /** The first row shown. */
  first: number;
  /** How many rows are shown. */
  shown: number;
  /** Rows out of sight above and below. */
  above: number;
  below: number;
  /** The furthest scroll: the last rows in sight. */
  last: number;
}

/** The rows of `total` shown in `room` rows at `scroll`. */
export function scrollWindow(total: number, room: number, scroll: number): ScrollWindow {
  const shown = Math.min(Math.max(1, room), total);
  const last = total - shown;
  const first = Math.max(0, Math.min(scroll, last));
  return { first, shown, above: first, below: total - first - shown, last };
}

/** Once drawn, a scroll beyond `last` is set back to it with `holdAt` (which writes it where it is kept). */
export function useScrollHeld(scroll: number, last: number, holdAt: (last: number) => void): void {
  const hold = useRef(holdAt);
  hold.current = holdAt;
  useEffect(() => {
    if (scroll > last) hold.current(last);
  }, [scroll, last]);
}
