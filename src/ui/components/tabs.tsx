/**
 * The pane tabs, 1–6, with how many new items each holds since staff last
 * looked: "(3 new)", or "●3" when the terminal is too narrow for the words.
 */
import { Box, Text } from 'ink';
import { PANE_TITLES, PANES, type PaneId } from '../../store/app-store.js';
import { useAppState } from '../app-context.js';

export function Tabs() {
  const focus = useAppState((state) => state.focus);
  const narrow = useAppState((state) => state.columns < 100);
  const fresh = useAppState((state) => ({
    inbox: state.seen.fresh.leads.size + state.seen.fresh.inbound.size,
    reviews: state.seen.fresh.reviews.size,
    actions: state.seen.fresh.actions.size,
  }));
  const count = (pane: PaneId) => (pane in fresh ? fresh[pane as keyof typeof fresh] : 0);
  const label = (pane: PaneId, index: number) => {
    const fresh = count(pane);
    const mark = fresh === 0 ? '' : narrow ? ` ●${fresh}` : ` (${fresh} new)`;
    return ` ${index + 1} ${PANE_TITLES[pane]}${mark} `;
  };
  return (
    <Box height={1} overflow="hidden">
      <Text wrap="truncate-end">
        {PANES.map((pane, index) => (
          <Text key={pane}>
            <Text inverse={pane === focus} bold={pane === focus}>
              {label(pane, index)}
            </Text>
            {index < PANES.length - 1 ? ' ' : ''}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
