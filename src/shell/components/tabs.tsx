/**
 * The pane tabs, numbered from the registry, with how many new items each
 * holds since staff last looked: "(3 new)", or "●3" when the terminal is too
 * narrow for the words.
 */
import { Box } from 'ink';
import type { PaneDescriptor } from '../../panes/pane.js';
import { PANES } from '../../panes/registry.js';
import { useAppState, useServices } from '../../ui-kit/app-context.js';
import { Text } from '../../ui-kit/components/text.js';
import { useClickable } from '../../ui-kit/use-clickable.js';

function Tab({ pane, label, focused }: { pane: PaneDescriptor; label: string; focused: boolean }) {
  const { commandContext } = useServices();
  const ref = useClickable({ click: () => commandContext().ui.focusPane(pane.id) });
  return (
    <Box ref={ref} flexShrink={0} marginRight={1}>
      <Text inverse={focused} bold={focused} wrap="truncate-end">
        {label}
      </Text>
    </Box>
  );
}

export function Tabs() {
  const focus = useAppState((state) => state.focus);
  const narrow = useAppState((state) => state.columns < 100);
  const fresh = useAppState((state) =>
    PANES.map((pane) =>
      pane.seen?.count
        ? pane.seen.count(state)
        : (pane.seen?.kinds ?? []).reduce((sum, kind) => sum + state.seen.fresh[kind].size, 0),
    ),
  );
  return (
    <Box height={1} overflow="hidden">
      {PANES.map((pane, index) => {
        const count = fresh[index] ?? 0;
        const mark = count === 0 ? '' : narrow ? ` ●${count}` : ` (${count} new)`;
        return (
          <Tab
            key={pane.id}
            pane={pane}
            label={` ${index + 1} ${pane.title}${mark} `}
            focused={pane.id === focus}
          />
        );
      })}
    </Box>
  );
}
