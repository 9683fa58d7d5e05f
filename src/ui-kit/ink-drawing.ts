/**
 * Plugs the inbox's way of drawing into Ink (patched for it: patches/README.md) before anything
 * renders: a changed line sends only its changed cells, runs of unchanged lines are one move, a frame
 * after a resize or ctrl-l is drawn whole from the top left, and Ink's caches hold what the last two
 * frames used. The product and the in-process tests both go through here (shell/inbox-ui.tsx).
 */
import { setFrameHooks } from 'ink';
import { FrameCache, nextFrame } from './frame-cache.js';
import { collapseLineMoves, lineUpdate, wholeScreen } from './terminal-line-update.js';

let plugged = false;

export function plugDrawingIntoInk(): void {
  // Once per process: Ink makes its caches anew whenever hooks are plugged in.
  if (plugged) return;
  plugged = true;
  setFrameHooks({
    lineUpdate,
    collapseLineMoves,
    wholeScreen,
    createCache: () => new FrameCache<unknown, unknown>(),
    nextFrame,
  });
}
