/**
 * What the shell asks of a list of panes: one by id, the pair drawn side by
 * side from 120 columns, which are on screen. The registry is one such list;
 * tests build small ones to try the shell's machinery on panes of their own.
 */
import { type AppState, isWide, type PaneId } from '../store/app-store.js';
import type { PaneDescriptor } from './pane.js';

export interface PaneSet {
  /** In tab order. */
  panes: readonly PaneDescriptor[];
  paneById(id: PaneId): PaneDescriptor;
  /** The pane drawn beside this one from 120 columns, and which of the two is on the left. */
  widePair(id: PaneId): [PaneDescriptor, PaneDescriptor] | undefined;
  /** The panes on screen, left to right: the focused one, and from 120 columns the one paired with it. */
  panesOnScreen(state: AppState): [PaneDescriptor] | [PaneDescriptor, PaneDescriptor];
  /** The pane is on screen: focused, or beside the focused one. */
  visible(state: AppState, id: PaneId): boolean;
}

export function paneSet(panes: readonly PaneDescriptor[]): PaneSet {
  const byId = new Map(panes.map((pane) => [pane.id, pane]));
  if (byId.size !== panes.length) throw new Error('two panes share an id');
  const paneById = (id: PaneId): PaneDescriptor => {
    const pane = byId.get(id);
    if (!pane) throw new Error(`no pane "${id}"`);
    return pane;
  };
  // Made once: the poller asks which panes are on screen at every change of the store.
  const pairs = new Map<PaneId, [PaneDescriptor, PaneDescriptor]>();
  for (const pane of [...panes].reverse()) {
    if (!pane.beside) continue;
    const pair: [PaneDescriptor, PaneDescriptor] = [pane, paneById(pane.beside)];
    // The first pane (in tab order) that names an id as itself or beside it gives that id's pair.
    pairs.set(pane.id, pair);
    pairs.set(pane.beside, pair);
  }
  const widePair = (id: PaneId): [PaneDescriptor, PaneDescriptor] | undefined => pairs.get(id);
  const panesOnScreen = (state: AppState): [PaneDescriptor] | [PaneDescriptor, PaneDescriptor] => {
    const pair = isWide(state) ? widePair(state.focus) : undefined;
    if (pair && (pair[0].besideWhile?.(state) ?? true)) return pair;
    return [paneById(state.focus)];
  };
  const visible = (state: AppState, id: PaneId) => panesOnScreen(state).some((pane) => pane.id === id);
  return { panes, paneById, widePair, panesOnScreen, visible };
}
