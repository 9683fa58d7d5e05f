/**
 * The command palette (: or ctrl-p): what is typed, then every command that
 * every pane has ranked (palette-rank.ts), each with its keys and the pane it
 * opens; enter runs the highlighted one.
 */
import { Box } from 'ink';
import { useMemo } from 'react';
import { emptyLine } from '../../store/line-editor.js';
import { useAppState, useServices, useTheme } from '../../ui-kit/app-context.js';
import { applies } from '../../ui-kit/commands/command.js';
import { showKeys } from '../../ui-kit/commands/describe.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { paletteItems } from '../commands/palette-items.js';

function Highlighted({ text, positions }: { text: string; positions: ReadonlySet<number> }) {
  const theme = useTheme();
  if (positions.size === 0) return <Text>{text}</Text>;
  const chars = [...text];
  return (
    <Text>
      {chars.map((char, index) =>
        positions.has(index) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of one fixed string
          <Text key={index} bold color={theme.accent}>
            {char}
          </Text>
        ) : (
          char
        ),
      )}
    </Text>
  );
}

export function Palette({ height }: { height: number }) {
  const { keymap, commandContext } = useServices();
  const query = useAppState((state) => state.palette?.query ?? emptyLine);
  const selected = useAppState((state) => state.palette?.selected ?? 0);
  // Items are rebuilt from what they depend on, not inside the store's selector (which must return stable values).
  const inputs = useAppState((state) => ({
    focus: state.focus,
    readOnly: state.readOnly,
    readOnlyReason: state.readOnlyReason,
    query: state.palette?.query,
  }));
  const { store } = useServices();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the items depend on exactly these inputs
  const items = useMemo(
    () => paletteItems(store.getState(), keymap),
    [inputs.focus, inputs.readOnly, inputs.readOnlyReason, inputs.query, keymap, store],
  );
  const room = Math.max(1, height - 4);
  const first = Math.max(0, Math.min(selected - Math.floor(room / 2), items.length - room));
  const shown = items.slice(first, first + room);
  const context = commandContext();
  return (
    <OverlayBox
      height={height}
      colour="special"
      title={
        <>
          Commands — type to find, enter runs, esc closes
          {/* Where the highlight is among what matches: the rest scrolls out of sight. */}
          {items.length > 0 ? ` · ${Math.min(selected, items.length - 1) + 1} of ${items.length}` : ''}
        </>
      }
    >
      <Text wrap="truncate-end">
        {': '}
        {query.text.slice(0, query.cursor)}
        <Text inverse>{query.text.slice(query.cursor, query.cursor + 1) || ' '}</Text>
        {query.text.slice(query.cursor + 1)}
      </Text>
      {items.length === 0 ? <Text dimColor>No command matches.</Text> : null}
      {shown.map((item, offset) => {
        const verdict = applies(item.command, context);
        const isSelected = first + offset === selected;
        return (
          <Box key={`${item.opens ?? ''}:${item.command.id}`} height={1} overflow="hidden">
            <Box flexGrow={1} flexBasis={0} overflow="hidden">
              <Text wrap="truncate-end" inverse={isSelected} dimColor={verdict !== true}>
                <Highlighted text={item.text} positions={item.positions} />
                {verdict !== true ? ` (not now: ${verdict})` : ''}
              </Text>
            </Box>
            <Box flexShrink={0} marginLeft={1}>
              <Text dimColor>{showKeys(item.keys)}</Text>
            </Box>
          </Box>
        );
      })}
    </OverlayBox>
  );
}
