/**
 * Every pane, in tab order: the tabs, the keys 1–N, tab/shift-tab, the
 * poller's plan and the help all come from this list. A new pane is a file
 * beside this one and a line here.
 */
import { type AppState, isWide } from '../store/app-store.js';
import { actionsPane } from './actions.js';
import { contactsPane } from './contacts.js';
import { inboxPane } from './inbox.js';
import type { PaneDescriptor } from './pane.js';
import { reviewsPane } from './reviews.js';
import { threadPane } from './thread.js';
import { todayPane } from './today.js';

export const PANES: readonly PaneDescriptor[] = [
  inboxPane,
  threadPane,
  reviewsPane,
  actionsPane,
  contactsPane,
  todayPane,
];

const byId = new Map(PANES.map((pane) => [pane.id, pane]));

export function paneById(id: string): PaneDescriptor {
  const pane = byId.get(id);
  if (!pane) throw new Error(`no pane "${id}"`);
  return pane;
}

/** The pane drawn beside this one from 120 columns, and which of the two is on the left. */
export function widePair(id: string): [PaneDescriptor, PaneDescriptor] | undefined {
  for (const pane of PANES) {
    if (!pane.beside) continue;
    if (pane.id === id || pane.beside === id) return [pane, paneById(pane.beside)];
  }
  return undefined;
}

/** The panes on screen, left to right: the focused one, and from 120 columns the one paired with it. */
export function panesOnScreen(state: AppState): [PaneDescriptor] | [PaneDescriptor, PaneDescriptor] {
  const pair = isWide(state) ? widePair(state.focus) : undefined;
  if (pair && (pair[0].besideWhile?.(state) ?? true)) return pair;
  return [paneById(state.focus)];
}
