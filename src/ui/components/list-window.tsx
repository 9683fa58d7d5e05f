/**
 * A list drawn as a window around the selection: only the rows that fit are
 * rendered, so a long list costs the same as a short one to draw and to send
 * over SSH.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export interface ListWindowProps<T> {
  items: readonly T[];
  selected: number;
  height: number;
  rowKey: (item: T, index: number) => string;
  renderRow: (item: T, selected: boolean, index: number) => ReactNode;
  empty: string;
}

export function windowStart(length: number, selected: number, height: number): number {
  if (length <= height) return 0;
  const half = Math.floor(height / 2);
  return Math.max(0, Math.min(length - height, selected - half));
}

export function ListWindow<T>({ items, selected, height, rowKey, renderRow, empty }: ListWindowProps<T>) {
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
        <Box key={rowKey(item, start + offset)} height={1} overflow="hidden">
          {renderRow(item, start + offset === selected, start + offset)}
        </Box>
      ))}
    </Box>
  );
}
