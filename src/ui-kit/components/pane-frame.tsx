/** A pane's frame: a title line with its status, then the content. */

import { Box } from 'ink';
import type { ReactNode } from 'react';
import { useTheme } from '../app-context.js';
import { Text } from './text.js';

export function PaneFrame({
  title,
  focused,
  width,
  height,
  status,
  children,
}: {
  title: string;
  focused: boolean;
  width?: number | string;
  height: number;
  status?: ReactNode;
  children: ReactNode;
}) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      height={height}
      {...(width !== undefined ? { width } : { flexGrow: 1 })}
      borderStyle="single"
      borderColor={focused ? theme.accent : theme.muted}
      paddingX={1}
      overflow="hidden"
    >
      <Box height={1} overflow="hidden">
        {/* The title keeps its width; the status gives way first. */}
        <Box flexShrink={0}>
          <Text bold color={focused ? theme.accent : undefined} wrap="truncate-end">
            {title}
          </Text>
        </Box>
        {status ? (
          <Box flexGrow={1} flexShrink={1} minWidth={0} overflow="hidden">
            {/* The separator keeps its spaces; only the status itself is cut. */}
            <Box flexShrink={0}>
              <Text> · </Text>
            </Box>
            {status}
          </Box>
        ) : null}
      </Box>
      {children}
    </Box>
  );
}

/** Rows available for content inside a PaneFrame of this height (border and title take 3). */
export const frameContentRows = (height: number) => Math.max(1, height - 3);
