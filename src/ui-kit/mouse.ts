/**
 * The mouse: a click on a tab switches to it, a click on a row selects it
 * (and focuses its pane), the wheel moves the selection of the pane under the
 * pointer. Components say where they can be clicked (use-clickable.ts); a click
 * goes to the smallest region under it, found from Ink's layout.
 */
import type { DOMElement } from 'ink';
import type { AppStore } from '../store/app-store.js';
import type { ShellControls } from './commands/shell-controls.js';
import type { MouseEvent } from './input/key-event.js';

export interface ClickHandlers {
  click?(): void;
  /** +1 down, −1 up. */
  wheel?(direction: 1 | -1): void;
}

interface Region {
  element: DOMElement;
  handlers: { current: ClickHandlers };
}

export interface Mouse {
  handle(event: MouseEvent): void;
  register(element: DOMElement, handlers: { current: ClickHandlers }): () => void;
}

/** Where an element is on screen: its layout box, in cells from the top left. */
export function screenBox(
  element: DOMElement,
): { x: number; y: number; width: number; height: number } | undefined {
  const own = element.yogaNode;
  if (!own) return undefined;
  let x = 0;
  let y = 0;
  for (let node: DOMElement | undefined = element; node; node = node.parentNode) {
    if (!node.yogaNode) continue;
    x += node.yogaNode.getComputedLeft();
    y += node.yogaNode.getComputedTop();
  }
  return { x, y, width: own.getComputedWidth(), height: own.getComputedHeight() };
}

/** Rows the wheel moves a list per notch. */
const WHEEL_ROWS = 3;

export function createMouse(store: AppStore, ui: Pick<ShellControls, 'move'>): Mouse {
  const regions = new Set<Region>();
  const under = (event: MouseEvent, want: keyof ClickHandlers) => {
    let best: { region: Region; area: number } | undefined;
    for (const region of regions) {
      if (!region.handlers.current[want]) continue;
      const box = screenBox(region.element);
      if (!box) continue;
      const inside =
        event.x >= box.x && event.x < box.x + box.width && event.y >= box.y && event.y < box.y + box.height;
      const area = box.width * box.height;
      if (inside && (!best || area < best.area)) best = { region, area };
    }
    return best?.region.handlers.current;
  };
  return {
    handle(event) {
      const state = store.getState();
      // Over a question, the help, the palette or the full-screen stop, the mouse does nothing.
      if (state.prompt || state.fatal || state.helpOpen || state.palette || state.quitting) return;
      if (event.action === 'press' && event.button === 0) {
        under(event, 'click')?.click?.();
        return;
      }
      if (event.action === 'wheel-down' || event.action === 'wheel-up') {
        const direction = event.action === 'wheel-down' ? 1 : -1;
        const target = under(event, 'wheel');
        if (target?.wheel) target.wheel(direction);
        else ui.move((current) => current + direction * WHEEL_ROWS);
      }
    },
    register(element, handlers) {
      const region: Region = { element, handlers };
      regions.add(region);
      return () => regions.delete(region);
    },
  };
}

export { WHEEL_ROWS };
