/** Where a component can be clicked: its regions go to the mouse of the screen's services. */
import type { DOMElement } from 'ink';
import { useEffect, useRef } from 'react';
import { useServices } from './app-context.js';
import type { ClickHandlers } from './mouse.js';

/** Makes a Box clickable: put the returned ref on it. The handlers may change on every render. */
export function useClickable(handlers: ClickHandlers) {
  const { mouse } = useServices();
  const ref = useRef<DOMElement>(null);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!mouse || !ref.current) return;
    return mouse.register(ref.current, latest);
  }, [mouse]);
  return ref;
}
