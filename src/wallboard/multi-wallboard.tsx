/**
 * The wallboard of several shops (`--wallboard --shop north,south`, `--all`):
 * one column per shop, side by side, as a room with several locations puts
 * them on one TV. Each column is that shop's own session (its store, its
 * budget, its hub): the single wallboard's tiles and freshness, drawn from
 * the column's store, with "OFFLINE since" per shop.
 */
import { Box } from 'ink';
import { type ComponentType, useSyncExternalStore } from 'react';
import type { AppStore } from '../store/app-store.js';
import { type WaitingCounts, waitingCounts } from '../store/counts.js';
import { AppServicesContext, useAppState, useServices } from '../ui-kit/app-context.js';
import { Text } from '../ui-kit/components/text.js';
import { oneLine } from '../ui-kit/format.js';
import { GLYPH_HEIGHT, largestScaleFitting } from './big-digits.js';
import { Freshness, OldestMissedCall, TILES, TileRow } from './wallboard.js';

export interface WallboardShop {
  name: string;
  store: AppStore;
}

/** Rows of a column besides its digits: name, freshness, gap, two tile rows' labels and captions, gap, the oldest call (2). */
const COLUMN_FIXED_ROWS = 10;
const MAX_SCALE = 6;

/** The digits' scale in a column of `width` whose tiles stand two by two (0: plain numbers). */
export function columnDigitScale(width: number, height: number, counts: readonly WaitingCounts[]): number {
  const tileWidth = Math.floor(width / 2) - 2;
  const widest = Math.max(1, ...counts.flatMap((each) => Object.values(each).map((value) => value.length)));
  const byWidth = largestScaleFitting(widest, tileWidth);
  const byHeight = Math.floor((height - COLUMN_FIXED_ROWS - 1) / (2 * GLYPH_HEIGHT));
  return Math.max(0, Math.min(byWidth, byHeight, MAX_SCALE));
}

/**
 * The widest count of every shop, followed in each shop's store, so a count that grows on any shop resizes
 * the digits (made once per screen: its functions keep their identity between renders).
 */
function widestCountSource(shops: readonly WallboardShop[]) {
  const widest = () =>
    Math.max(
      1,
      ...shops.flatMap((shop) =>
        Object.values(waitingCounts(shop.store.getState())).map((value) => value.length),
      ),
    );
  const subscribe = (changed: () => void) => {
    const stops = shops.map((shop) => shop.store.subscribe(changed));
    return () => {
      for (const stop of stops) stop();
    };
  };
  return { subscribe, widest };
}

function ShopColumn({ name, width, scale }: { name: string; width: number; scale: number }) {
  const counts = useAppState(waitingCounts);
  const business = useAppState((state) => state.me.data?.identity.business_name);
  const tileWidth = Math.floor(width / 2);
  const rows = [TILES.slice(0, 2), TILES.slice(2, 4)];
  return (
    <Box flexDirection="column" width={width} paddingRight={1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {`${name}${business === undefined ? '' : ` · ${oneLine(business).slice(0, 80)}`}`}
      </Text>
      <Box height={1} overflow="hidden">
        <Freshness />
      </Box>
      <Text> </Text>
      {rows.map((row) => (
        <TileRow
          key={row.map((tile) => tile.key).join()}
          tiles={row}
          counts={counts}
          width={tileWidth}
          scale={scale}
        />
      ))}
      <Text> </Text>
      <Text bold wrap="truncate-end">
        OLDEST MISSED CALL
      </Text>
      <OldestMissedCall />
    </Box>
  );
}

/** The screen for these shops; the primary session's store gives the terminal's size and the keys. */
export function multiWallboard(shops: readonly WallboardShop[]): ComponentType<{ height: number }> {
  const widestCount = widestCountSource(shops);
  return function MultiWallboard({ height }: { height: number }) {
    const services = useServices();
    const columns = useAppState((state) => state.columns);
    const quitKeys = services.keymap.keysOf('quit');
    const width = Math.max(10, Math.floor(columns / Math.max(1, shops.length)));
    // Re-renders when any shop's widest count changes, not only the primary store's.
    useSyncExternalStore(widestCount.subscribe, widestCount.widest);
    const counts = shops.map((shop) => waitingCounts(shop.store.getState()));
    const scale = columnDigitScale(width, height - 1, counts);
    return (
      <Box flexDirection="column" height={height} overflow="hidden">
        <Box height={height - 1} overflow="hidden">
          {shops.map((shop) => (
            <AppServicesContext.Provider key={shop.name} value={{ ...services, store: shop.store }}>
              <ShopColumn name={shop.name} width={width} scale={scale} />
            </AppServicesContext.Provider>
          ))}
        </Box>
        <Text dimColor wrap="truncate-end">
          {`${quitKeys[0] ?? 'q'} quits · ${shops.length} shops, each read every 10 s with its own key · read-only`}
        </Text>
      </Box>
    );
  };
}
