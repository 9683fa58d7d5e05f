/**
 * The wallboard: a read-only screen for a monitor across the room. The four
 * counts that mean "a customer is waiting", in block digits when the
 * terminal is big enough; the oldest missed call with no reply and how long
 * it has waited; the newest inbound texts; and, prominently, how fresh it
 * all is. Nothing on it needs a key; q quits. Loaded only when shown.
 */
import { Box } from 'ink';
import { memo } from 'react';
import { type WaitingCounts, waitingCounts } from '../store/counts.js';
import { useAppState, useClockNow, useServices, useTheme } from '../ui-kit/app-context.js';
import { Text } from '../ui-kit/components/text.js';
import { age, oneLine } from '../ui-kit/format.js';
import { rowKeys } from '../ui-kit/row-keys.js';
import { fg } from '../ui-kit/theme.js';
import { bigText, GLYPH_HEIGHT, largestScaleFitting } from './big-digits.js';
import { dataReadAt, newestTexts, oldestMissedCall, waited } from './wallboard-data.js';

/** Rows besides the tiles' digits and the texts: top line, gaps, tile label and caption, the oldest call, headings, footer. */
const FIXED_ROWS = 10;
const MIN_TEXT_ROWS = 5;
const MAX_SCALE = 8;

export const TILES: ReadonlyArray<{
  key: keyof WaitingCounts;
  label: string;
  caption: string;
  urgent: boolean;
}> = [
  { key: 'missed', label: 'MISSED CALLS', caption: 'with no reply', urgent: true },
  { key: 'sameDay', label: 'SAME DAY', caption: 'open, same day', urgent: true },
  { key: 'reviews', label: 'REVIEWS', caption: 'unreplied', urgent: false },
  { key: 'approvals', label: 'APPROVALS', caption: 'to approve', urgent: false },
];

/** The scale of the block digits (0: plain numbers), from the size of the terminal and the widest count. */
export function digitScale(columns: number, height: number, counts: WaitingCounts): number {
  const tileWidth = Math.floor(columns / TILES.length) - 2;
  const widest = Math.max(1, ...Object.values(counts).map((value) => value.length));
  const byWidth = largestScaleFitting(widest, tileWidth);
  const byHeight = Math.floor((height - FIXED_ROWS - MIN_TEXT_ROWS) / GLYPH_HEIGHT);
  // The counts take at most about half the screen: the texts below them matter too.
  const half = Math.floor((height * 0.45) / GLYPH_HEIGHT);
  return Math.max(0, Math.min(byWidth, byHeight, half, MAX_SCALE));
}

const hhmm = (at: number) => {
  const date = new Date(at);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

/** How fresh the data is: "updated 12 s ago", or OFFLINE since when, in inverse. */
export function Freshness() {
  const now = useClockNow();
  const readAt = useAppState(dataReadAt);
  const connection = useAppState((state) => state.connection);
  const theme = useTheme();
  // Short enough to stay whole on a 60-column top line.
  const ago = readAt === undefined ? 'no data yet' : `data ${waited(now - readAt)} old`;
  if (connection.state === 'offline' || connection.state === 'server_error') {
    const retry = Math.max(0, Math.ceil((connection.retryAt - now) / 1000));
    return (
      <Text wrap="truncate-end">
        <Text inverse bold {...fg(theme.danger)}>
          {` ${connection.state === 'offline' ? 'OFFLINE' : 'SHOP API FAILING'} since ${hhmm(connection.since)} `}
        </Text>
        {` retrying in ${retry} s · ${ago}`}
      </Text>
    );
  }
  if (connection.state === 'rate_limited') {
    return (
      <Text wrap="truncate-end">
        <Text inverse bold {...fg(theme.warning)}>
          {` PAUSED until ${hhmm(connection.until)} (too many requests) `}
        </Text>
        {` ${ago}`}
      </Text>
    );
  }
  return (
    <Text bold wrap="truncate-end">
      {readAt === undefined ? 'loading…' : `updated ${waited(now - readAt)} ago`}
    </Text>
  );
}

/** Rows a row of tiles takes: its label, its digits (or a plain number), its caption. */
export const tileRowHeight = (scale: number) => (scale > 0 ? GLYPH_HEIGHT * scale : 1) + 2;

/** Tiles side by side, each `width` columns wide. */
export function TileRow({
  tiles,
  counts,
  width,
  scale,
}: {
  tiles: typeof TILES;
  counts: WaitingCounts;
  width: number;
  scale: number;
}) {
  return (
    <Box height={tileRowHeight(scale)}>
      {tiles.map((tile) => (
        <Tile
          key={tile.key}
          label={tile.label}
          caption={tile.caption}
          value={counts[tile.key]}
          urgent={tile.urgent}
          width={width}
          scale={scale}
        />
      ))}
    </Box>
  );
}

const Tile = memo(function Tile({
  label,
  caption,
  value,
  urgent,
  width,
  scale,
}: {
  label: string;
  caption: string;
  value: string;
  urgent: boolean;
  width: number;
  scale: number;
}) {
  const theme = useTheme();
  const waiting = urgent && value !== '-' && value !== '0';
  const colour = fg(waiting ? theme.danger : undefined);
  return (
    <Box flexDirection="column" width={width} paddingRight={2} overflow="hidden">
      <Text bold wrap="truncate-end" {...colour}>
        {waiting ? `${label} ●` : label}
      </Text>
      {scale > 0 ? (
        bigText(value, scale).map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of one glyph block, never reordered
          <Text key={index} wrap="truncate-end" {...colour}>
            {row}
          </Text>
        ))
      ) : (
        <Text bold wrap="truncate-end" {...colour}>
          {value}
        </Text>
      )}
      <Text wrap="truncate-end" dimColor={!waiting}>
        {`${value} ${caption}`}
      </Text>
    </Box>
  );
});

export function OldestMissedCall() {
  const now = useClockNow();
  const lead = useAppState(oldestMissedCall);
  const loaded = useAppState((state) => state.inbox.callbacks.data !== undefined);
  const theme = useTheme();
  if (!lead) {
    return <Text wrap="truncate-end">{loaded ? 'no missed call is waiting for a reply' : 'loading…'}</Text>;
  }
  const since = Date.parse(lead.created_at);
  return (
    <Text wrap="truncate-end">
      <Text bold {...fg(theme.danger)}>
        {Number.isNaN(since) ? 'waiting' : `waiting ${waited(now - since)}`}
      </Text>
      {`  ${oneLine(lead.contact_name).slice(0, 60)} · ${oneLine(lead.caller_phone).slice(0, 30)} · ${oneLine(lead.job_type).slice(0, 60)}`}
    </Text>
  );
}

function NewestTexts({ rows }: { rows: number }) {
  const now = useClockNow();
  // The copy of today's activity is selected (it changes only when read again), the texts made from it.
  const today = useAppState((state) => state.today);
  const texts = newestTexts(today, rows);
  const loaded = today.data !== undefined;
  if (texts.length === 0) return <Text dimColor>{loaded ? 'no inbound texts today' : 'loading…'}</Text>;
  const keys = rowKeys(texts, (text) => `${text.at}\u0000${text.text}`);
  return (
    <>
      {texts.map((text, index) => (
        <Text key={keys[index]} wrap="truncate-end">
          <Text bold>{age(text.at, now).padStart(4)}</Text>
          {`  ${oneLine(text.text)}`}
        </Text>
      ))}
    </>
  );
}

export function Wallboard({ height }: { height: number }) {
  const columns = useAppState((state) => state.columns);
  const counts = useAppState(waitingCounts);
  const business = useAppState((state) => state.me.data?.identity.business_name);
  const quitKeys = useServices().keymap.keysOf('quit');
  const scale = digitScale(columns, height, counts);
  const textRows = Math.max(1, height - FIXED_ROWS + 2 - tileRowHeight(scale));
  const tileWidth = Math.floor(columns / TILES.length);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Box height={1} justifyContent="space-between">
        {/* The freshness keeps its width: the shop's name gives way first. */}
        <Box flexShrink={1} overflow="hidden">
          <Text bold wrap="truncate-end">
            {`${business === undefined ? 'shop-inbox' : oneLine(business).slice(0, 80)} · wallboard (read-only)`}
          </Text>
        </Box>
        <Box flexShrink={0} marginLeft={2}>
          <Freshness />
        </Box>
      </Box>
      <Text> </Text>
      <TileRow tiles={TILES} counts={counts} width={tileWidth} scale={scale} />
      <Text> </Text>
      <Text bold>OLDEST MISSED CALL WITH NO REPLY</Text>
      <OldestMissedCall />
      <Text> </Text>
      <Text bold>NEWEST TEXTS</Text>
      <Box flexDirection="column" height={textRows} overflow="hidden">
        <NewestTexts rows={textRows} />
      </Box>
      <Text dimColor wrap="truncate-end">
        {`${quitKeys[0] ?? 'q'} quits · reads the shop every 10 s · nothing here needs a key`}
      </Text>
    </Box>
  );
}
