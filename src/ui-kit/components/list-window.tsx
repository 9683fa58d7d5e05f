/**
 * A list drawn as a window around the selection: only the rows that fit are
 * rendered, so a long list costs the same as a short one to draw and to send
 * over SSH.
 */
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { useServices } from '../app-context.js';
import { useClickable } from '../use-clickable.js';
import { Text } from './text.js';

export interface ListWindowProps<T> {
  items: readonly T[];
  selected: number;
  height: number;
  rowKey: (item: T, index: number) => string;
  renderRow: (item: T, selected: boolean, index: number) => ReactNode;
  empty: string;
  /** The pane whose selection this list shows: a click on a row selects it there. */
  pane?: string;
}

/** One row: a click focuses its pane and selects it. */
function Row({ pane, index, children }: { pane: string | undefined; index: number; children: ReactNode }) {
  const { commandContext } = useServices();
  const ref = useClickable(
    pane
      ? {
          click: () => {
            const { ui } = commandContext();
            ui.focusPane(pane);
            ui.select(pane, index);
          },
        }
      : {},
  );
  return (
    <Box ref={ref} height={1} overflow="hidden">
      {children}
    </Box>
  );
}

/**
 * Which rows of a list a window of `height` rows shows around the selection, and how many are out of sight
 * on either side. A side with rows out of sight gives one of the window's rows to its mark ("▲ 4", "▼ 12"),
 * so marks and rows together never take more than `height`; the selected row is always shown.
 */
export interface ListWindowRange {
  /** Index of the first row shown. */
  start: number;
  /** Rows shown. */
  count: number;
  /** Rows out of sight above (before `start`). */
  above: number;
  /** Rows out of sight below (after `start + count`). */
  below: number;
  /** Whether each mark has a row of its own (a window of one or two rows may have no room for it). */
  markAbove: boolean;
  markBelow: boolean;
}

export function listWindowRange(length: number, selected: number, height: number): ListWindowRange {
  const rows = Math.max(1, Math.floor(height));
  const at = Math.max(0, Math.min(length - 1, selected));
  const range = (start: number, count: number, markAbove: boolean, markBelow: boolean): ListWindowRange => ({
    start,
    count,
    above: start,
    below: length - start - count,
    markAbove,
    markBelow,
  });
  if (length <= rows) return range(0, Math.max(0, length), false, false);
  if (rows === 1) return range(at, 1, false, false);
  if (rows === 2) {
    if (at === 0) return range(0, 1, false, true);
    if (at === length - 1) return range(at, 1, true, false);
    return range(at, 1, false, true);
  }
  // The selection near the middle of the rows left between both marks; at either end one mark is enough.
  const count = rows - 2;
  const start = at - Math.floor(count / 2);
  if (start <= 1) return range(0, rows - 1, false, true);
  if (start + count >= length - 1) return range(length - (rows - 1), rows - 1, true, false);
  return range(start, count, true, true);
}

function OutOfSight({ direction, count }: { direction: 'above' | 'below'; count: number }) {
  return (
    <Box height={1} overflow="hidden">
      <Text dimColor wrap="truncate-end">
        {direction === 'above' ? '▲' : '▼'} {count} {direction === 'above' ? 'above' : 'below'}
      </Text>
    </Box>
  );
}

export function ListWindow<T>({
  items,
  selected,
  height,
  rowKey,
  renderRow,
  empty,
  pane,
}: ListWindowProps<T>) {
  if (items.length === 0) {
    return (
      <Box height={Math.max(1, height)}>
        <Text dimColor>{empty}</Text>
      </Box>
    );
  }
  const window = listWindowRange(items.length, selected, height);
  const visible = items.slice(window.start, window.start + window.count);
  return (
    <Box flexDirection="column" height={Math.max(1, height)} overflow="hidden">
      {window.markAbove ? <OutOfSight direction="above" count={window.above} /> : null}
      {visible.map((item, offset) => (
        <Row key={rowKey(item, window.start + offset)} pane={pane} index={window.start + offset}>
          {renderRow(item, window.start + offset === selected, window.start + offset)}
        </Row>
      ))}
      {window.markBelow ? <OutOfSight direction="below" count={window.below} /> : null}
    </Box>
  );
}
