/** `?`: every key of the focused pane and the global ones, from the keymap table. */
import { Box, Text } from 'ink';
import { PANE_TITLES } from '../../store/app-store.js';
import { useAppState } from '../app-context.js';
import { bindingsFor } from '../keymap.js';

export function HelpOverlay({ height }: { height: number }) {
  const focus = useAppState((state) => state.focus);
  const readOnly = useAppState((state) => state.readOnly);
  const bindings = bindingsFor(focus, readOnly);
  return (
    <Box
      flexDirection="column"
      height={height}
      borderStyle="double"
      borderColor="cyan"
      paddingX={1}
      overflow="hidden"
    >
      <Text bold color="cyan">
        Keys — {PANE_TITLES[focus]}
        {readOnly ? ' (read-only: keys that change the shop are off)' : ''}
      </Text>
      {bindings.map((binding) => (
        <Text key={binding.keys} wrap="truncate-end">
          <Text bold>{binding.keys.padEnd(16)}</Text>
          {binding.does}
        </Text>
      ))}
      <Text dimColor>?, esc or q closes this help</Text>
    </Box>
  );
}
