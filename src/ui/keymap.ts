/**
 * The keymap of the guide, as data: the help overlay and the status bar's
 * hints are drawn from it, so what they say is what the keys do.
 */
import type { PaneId } from '../store/app-store.js';

export interface Binding {
  keys: string;
  does: string;
  /** Changes the shop: not bound, not shown in read-only mode. */
  write?: boolean;
  /** Short label for the status bar, when this key matters enough to show there. */
  hint?: string;
}

export const GLOBAL_BINDINGS: Binding[] = [
  { keys: '?', does: 'this help', hint: 'help' },
  { keys: 'q ctrl-c', does: 'quit (asks first if a text is unsent)', hint: 'quit' },
  { keys: 'tab shift-tab', does: 'next / previous pane', hint: 'panes' },
  { keys: '1-6', does: 'jump to a pane' },
  { keys: 'j k ↑ ↓', does: 'move' },
  { keys: 'g G', does: 'top / bottom' },
  { keys: 'ctrl-d ctrl-u', does: 'page down / up' },
  { keys: 'r', does: 'refresh this pane now' },
  { keys: 'R', does: 'refresh everything now' },
];

export const PANE_BINDINGS: Record<PaneId, Binding[]> = {
  inbox: [
    { keys: 'enter', does: 'open the thread', hint: 'open' },
    { keys: 'f', does: 'switch open leads / missed calls with no reply', hint: 'callbacks' },
    { keys: '/', does: 'filter by name, phone or job', hint: 'filter' },
    { keys: 'c', does: "text the lead's contact", write: true, hint: 'text' },
  ],
  thread: [
    { keys: 'esc', does: 'back to the inbox', hint: 'back' },
    { keys: 'c', does: 'text this contact', write: true, hint: 'text' },
  ],
  reviews: [
    { keys: 'd', does: 'draft a reply (not published)', write: true, hint: 'draft reply' },
    { keys: '/', does: 'filter by reviewer or text', hint: 'filter' },
  ],
  actions: [
    { keys: 'a', does: 'approve the selected pending action (asks y/n)', write: true, hint: 'approve' },
    { keys: '/', does: 'show another status: pending, published, declined, failed', hint: 'status' },
  ],
  contacts: [
    { keys: '/', does: 'search by name or phone fragment', hint: 'search' },
    { keys: 'c', does: 'text the selected contact', write: true, hint: 'text' },
  ],
  today: [],
};

export const COMPOSER_BINDINGS: Binding[] = [
  { keys: 'enter', does: 'send (asks y/n first)', hint: 'send' },
  { keys: 'esc', does: 'close, keeping the text', hint: 'close (text kept)' },
  { keys: '← → home end', does: 'move in the text' },
];

export const SEARCH_BINDINGS: Binding[] = [
  { keys: 'enter', does: 'keep the filter', hint: 'keep' },
  { keys: 'esc', does: 'clear the filter', hint: 'clear' },
];

export const PROMPT_BINDINGS: Binding[] = [
  { keys: 'y', does: 'yes', hint: 'yes' },
  { keys: 'n esc', does: 'no', hint: 'no' },
];

export function bindingsFor(pane: PaneId, readOnly: boolean): Binding[] {
  return [...PANE_BINDINGS[pane], ...GLOBAL_BINDINGS].filter((binding) => !(readOnly && binding.write));
}
