/**
 * What the screen shows, as reads for the poller: the focused pane's, and
 * from 120 columns the pane drawn beside it. The poller reads these often;
 * it learns them from here, so that it needs nothing of the UI itself.
 */
import { type Slot, slotKey } from '../poller/reads.js';
import type { AppState } from '../store/app-store.js';
import { paneById, panesOnScreen } from './registry.js';

export function visibleReads(state: AppState): Slot[] {
  const focused = paneById(state.focus);
  const panes = [focused, ...panesOnScreen(state).filter((pane) => pane !== focused)];
  const slots: Slot[] = [];
  const keys = new Set<string>();
  for (const pane of panes) {
    for (const slot of pane.reads(state)) {
      const key = slotKey(slot);
      if (keys.has(key)) continue;
      keys.add(key);
      slots.push(slot);
    }
  }
  return slots;
}
