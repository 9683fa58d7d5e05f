/** The row a pane highlights: its selected record's place in the list as shown. */
import type { AppState } from '../store/app-store.js';
import { type ListShape, selectedIndexIn } from '../store/selection.js';
import { selectionOf } from '../store/selectors.js';
import { useAppState } from '../ui-kit/app-context.js';

export function useSelectedIndex<T>(pane: string, list: (state: AppState) => ListShape<T>): number {
  return useAppState((state) => selectedIndexIn(list(state), selectionOf(state, pane)));
}
