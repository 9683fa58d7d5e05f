/**
 * The inbox UI for a session: the React element to render, its key handler
 * and its clock. The terminal runner and the tests both render this.
 */
import type { ReactElement } from 'react';
import type { Session } from '../session/create-session.js';
import { App } from './app.js';
import { AppServicesContext } from './app-context.js';
import { type Clock, createClock } from './clock.js';
import { createKeyHandler, type KeyHandler } from './key-handler.js';

export interface InboxUi {
  element: ReactElement;
  onKey: KeyHandler;
  clock: Clock;
  dispose(): void;
}

export interface InboxUiOptions {
  quit(): void;
  now?: () => number;
  searchDebounceMs?: number;
}

export function createInboxUi(session: Session, options: InboxUiOptions): InboxUi {
  const clock = createClock(options.now);
  // Count down every second only while a countdown is on screen.
  const unsubscribe = session.store.subscribe((state) => clock.setFast(state.connection.state !== 'ok'));
  const onKey = createKeyHandler({
    store: session.store,
    poller: session.poller,
    sendText: (target, body) => session.sender.confirm(target, body),
    approve: (actionId) => void session.approve(actionId),
    draft: (reviewId) => void session.draft(reviewId),
    quit: options.quit,
    ...(options.searchDebounceMs !== undefined ? { searchDebounceMs: options.searchDebounceMs } : {}),
  });
  const element = (
    <AppServicesContext.Provider value={{ store: session.store, clock }}>
      <App onKey={onKey} />
    </AppServicesContext.Provider>
  );
  return {
    element,
    onKey,
    clock,
    dispose: () => {
      unsubscribe();
      clock.stop();
    },
  };
}
