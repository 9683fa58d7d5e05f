/**
 * What covers the panes for a moment (the help, the message log, the
 * palette, the template picker): a double border and a bold title, both in
 * one role's colour, the content clipped to the height it is given.
 */
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { useTheme } from '../app-context.js';
import type { ColourRole } from '../theme.js';
import { Text } from './text.js';

export function OverlayBox({
  height,
  colour,
  title,
  children,
}: {
  height: number;
  colour: ColourRole;
  title: ReactNode;
  children: ReactNode;
}) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      height={height}
      borderStyle="double"
      borderColor={theme[colour]}
      paddingX={1}
      overflow="hidden"
    >
      {/* The title keeps its row whatever the content below asks for. */}
      <Box flexShrink={0}>
        <Text bold color={theme[colour]} wrap="truncate-end">
          {title}
        </Text>
      </Box>
      {children}
    </Box>
  );
}
