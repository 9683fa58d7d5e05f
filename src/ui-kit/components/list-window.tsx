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

export function windowStart(length: number, selected: number, height: number): number {
  if (length <= height) return 0;
  const half = Math.floor(height / 2);
  return Math.max(0, Math.min(length - height, selected - half));
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
  const start = windowStart(items.length, selected, Math.max(1, height));
  const visible = items.slice(start, start + Math.max(1, height));
  return (
    <Box flexDirection="column" height={Math.max(1, height)} overflow="hidden">
      {visible.map((item, offset) => (
        <Row key={rowKey(item, start + offset)} pane={pane} index={start + offset}>
          {renderRow(item, start + offset === selected, start + offset)}
        </Row>
      ))}
    </Box>
  );
}
