/**
 * The shops of config.json (O): the one on screen marked, the highlighted one
 * opened with enter. Their names are config.json's own, checked when it was read.
 */
import { Box } from 'ink';
import { useAppState } from '../../ui-kit/app-context.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';

export function ShopPicker({ height }: { height: number }) {
  const picker = useAppState((state) => state.shopPicker);
  const current = useAppState((state) => state.shop);
  const names = picker?.names ?? [];
  const selected = picker?.selected ?? 0;
  const room = Math.max(1, height - 3);
  const first = Math.max(0, Math.min(selected - Math.floor(room / 2), names.length - room));
  return (
    <OverlayBox
      height={height}
      colour="special"
      title={<>Shops — enter switches to the highlighted one, esc stays</>}
    >
      {names.slice(first, first + room).map((name, offset) => (
        <Box key={name} height={1} overflow="hidden">
          <Text wrap="truncate-end" inverse={first + offset === selected}>
            {name === current ? '● ' : '  '}
            <Text bold={name === current}>{name}</Text>
            {name === current ? '  (on screen)' : ''}
          </Text>
        </Box>
      ))}
    </OverlayBox>
  );
}
