/**
 * 1 Inbox: open leads, or (f) the missed calls with no reply, with the latest
 * inbound texts below. New since staff last looked is marked with ●.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { InboundPreview, InboxLead } from '../../contract/resources.js';
import { inboundId } from '../../store/seen.js';
import { inboxRows, selectedIndex } from '../../store/selectors.js';
import { useAppState, useClockNow } from '../app-context.js';
import { ListWindow } from '../components/list-window.js';
import { LoadedStatus, statusOf } from '../components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../components/pane-frame.js';
import { SearchLine } from '../components/search-line.js';
import { age, enumLabel, oneLine } from '../format.js';

const PREVIEW_ROWS = 3;

const LeadRow = memo(function LeadRow({
  lead,
  selected,
  fresh,
  now,
  wide,
}: {
  lead: InboxLead;
  selected: boolean;
  fresh: boolean;
  now: number;
  wide: boolean;
}) {
  const sameDay = String(lead.urgency) === 'same_day';
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color="yellow">{fresh ? '●' : ' '}</Text>
      </Box>
      <Box flexGrow={1} flexBasis={0} minWidth={8}>
        <Text wrap="truncate-end" inverse={selected} bold={selected}>
          {oneLine(lead.contact_name)}
        </Text>
      </Box>
      <Box width={12} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end">{oneLine(lead.caller_phone)}</Text>
      </Box>
      <Box width={wide ? 16 : 12} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end">{oneLine(lead.job_type)}</Text>
      </Box>
      <Box width={9} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end" {...(sameDay ? { color: 'red', bold: true } : { dimColor: true })}>
          {sameDay ? 'SAME DAY' : enumLabel(lead.urgency)}
        </Text>
      </Box>
      <Box width={9} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end">{enumLabel(lead.status)}</Text>
      </Box>
      <Box width={4} flexShrink={0} marginLeft={1} justifyContent="flex-end">
        <Text dimColor>{age(lead.created_at, now)}</Text>
      </Box>
    </Box>
  );
});

function Previews({ previews }: { previews: InboundPreview[] }) {
  const fresh = useAppState((state) => state.seen.fresh.inbound);
  const now = useClockNow();
  return (
    <Box flexDirection="column" height={PREVIEW_ROWS + 1}>
      <Text dimColor>Latest inbound texts</Text>
      {previews.length === 0 ? <Text dimColor>none</Text> : null}
      {previews.slice(0, PREVIEW_ROWS).map((preview) => (
        <Box key={inboundId(preview)} height={1}>
          <Text wrap="truncate-end">
            <Text color="yellow">{fresh.has(inboundId(preview)) ? '● ' : '  '}</Text>
            <Text dimColor>{age(preview.occurred_at, now).padStart(4)} </Text>
            {oneLine(preview.body_preview)}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

export function InboxPane({
  height,
  width,
  focused,
}: {
  height: number;
  width?: number | string;
  focused: boolean;
}) {
  const filter = useAppState((state) => state.inboxFilter);
  const loaded = useAppState((state) => statusOf(state.inbox[state.inboxFilter]));
  const rows = useAppState(inboxRows);
  const selected = useAppState((state) => selectedIndex(state, 'inbox'));
  const previews = useAppState((state) => state.inbox.open.data?.latest_inbound ?? []);
  const freshLeads = useAppState((state) => state.seen.fresh.leads);
  const search = useAppState((state) => ({
    text: state.search.inbox.text,
    editing: state.searching && focused,
  }));
  // The list has the whole width unless the thread shares it.
  const wide = useAppState((state) => state.columns < 120 || state.columns >= 160);
  const now = useClockNow();
  const title = filter === 'open' ? 'Inbox — open leads' : 'Inbox — missed calls with no reply';
  const contentRows = frameContentRows(height);
  const searchRows = search.text || search.editing ? 1 : 0;
  const listRows = Math.max(1, contentRows - PREVIEW_ROWS - 1 - searchRows);
  return (
    <PaneFrame
      title={`${title} (${rows.length})`}
      focused={focused}
      height={height}
      {...(width !== undefined ? { width } : {})}
      status={<LoadedStatus loaded={loaded} />}
    >
      {searchRows ? <SearchLine text={search.text} editing={search.editing} /> : null}
      <ListWindow
        items={rows}
        selected={selected}
        height={listRows}
        rowKey={(lead) => lead.id}
        empty={
          loaded.updatedAt === undefined
            ? ' '
            : filter === 'open'
              ? 'No open leads.'
              : 'No missed calls waiting for a reply.'
        }
        renderRow={(lead, isSelected) => (
          <LeadRow
            lead={lead}
            selected={isSelected && focused}
            fresh={freshLeads.has(lead.id)}
            now={now}
            wide={wide}
          />
        )}
      />
      <Previews previews={previews} />
    </PaneFrame>
  );
}
