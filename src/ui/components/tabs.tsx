/** The pane tabs, 1–6, with how many new items each holds since staff last looked. */
import { Box, Text } from 'ink';
import { PANE_TITLES, PANES, type PaneId } from '../../store/app-store.js';
import { useAppState } from '../app-context.js';

export function Tabs() {
  const focus = useAppState((state) => state.focus);
  const fresh = useAppState((state) => ({
    inbox: state.seen.fresh.leads.size + state.seen.fresh.inbound.size,
    reviews: state.seen.fresh.reviews.size,
    actions: state.seen.fresh.actions.size,
  }));
  const count = (pane: PaneId) => (pane in fresh ? fresh[pane as keyof typeof fresh] : 0);
  return (
    <Box height={1} overflow="hidden">
      {PANES.map((pane, index) => (
        <Text key={pane} wrap="truncate-end">
          <Text inverse={pane === focus} bold={pane === focus}>
            {` ${index + 1} ${PANE_TITLES[pane]}${count(pane) > 0 ? ` (${count(pane)} new)` : ''} `}
          </Text>
          <Text> </Text>
        </Text>
      ))}
    </Box>
  );
}
