/**
 * Thread: one lead, its contact, the latest consent record and the texts,
 * oldest first, with what this process sent (sending, sent, waiting, failed)
 * at the end. The service truncates message bodies; the pane says so.
 */
import { Box } from 'ink';
import type { Slot } from '../poller/refresh-plan.js';
import type { AppState, OutgoingText } from '../store/app-store.js';
import { openLead, type ThreadEntry, targetFromLead, threadLeadId, threadList } from '../store/selectors.js';
import { useAppState } from '../ui/app-context.js';
import { LoadedStatus } from '../ui/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui/components/pane-frame.js';
import { Text } from '../ui/components/text.js';
import { block, dateTime, enumLabel, oneLine } from '../ui/format.js';
import { composeCommand } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

type Entry = ThreadEntry;

const OUTGOING_LABEL: Record<OutgoingText['state'], { text: string; color: string }> = {
  sending: { text: 'sending…', color: 'cyan' },
  sent: { text: 'sent', color: 'green' },
  replayed: { text: 'sent (replayed: the service had it already)', color: 'green' },
  waiting: { text: 'not confirmed — will retry with the same key', color: 'yellow' },
  failed: { text: 'NOT SENT', color: 'red' },
};

/** Rough count of terminal lines a text takes at this width. */
const linesFor = (text: string, width: number) =>
  text
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / Math.max(10, width))), 0);

function entryText(entry: Entry): string {
  return block(entry.kind === 'message' ? entry.message.body : entry.text.body);
}

function EntryView({ entry, selected }: { entry: Entry; selected: boolean }) {
  if (entry.kind === 'message') {
    const inbound = String(entry.message.direction) === 'inbound';
    return (
      <Box flexDirection="column">
        <Text inverse={selected} color={inbound ? 'yellow' : 'blue'} wrap="truncate-end">
          {inbound ? '◀ them' : '▶ shop'} · {dateTime(entry.message.occurred_at)}
          {inbound || String(entry.message.direction) === 'outbound'
            ? ''
            : ` · ${enumLabel(entry.message.direction)}`}
        </Text>
        <Text wrap="wrap">{entryText(entry)}</Text>
      </Box>
    );
  }
  const label = OUTGOING_LABEL[entry.text.state];
  return (
    <Box flexDirection="column">
      <Text inverse={selected} color={label.color} wrap="truncate-end">
        ▶ you · {dateTime(new Date(entry.text.confirmedAt).toISOString())} · {label.text}
        {entry.text.reason ? ` — ${entry.text.reason}` : ''}
      </Text>
      <Text wrap="wrap">{entryText(entry)}</Text>
    </Box>
  );
}

function ThreadPane({ height, width, focused }: PaneProps) {
  const leadId = useAppState(threadLeadId);
  const loaded = useAppState((state) => {
    const id = threadLeadId(state);
    const entry = id ? state.leads[id] : undefined;
    return { updatedAt: entry?.updatedAt, loading: entry?.loading ?? false, error: entry?.error };
  });
  const detail = useAppState(openLead);
  const entries = useAppState((state) => threadList(state).rows);
  const composingElsewhere = useAppState((state) => state.presence.composingElsewhere);
  const selected = useSelectedIndex('thread', threadList);
  const email = useAppState((state) => {
    const contactId = openLead(state)?.contact.id;
    return state.contacts.data?.items.find((contact) => contact.id === contactId)?.email;
  });
  const columns = useAppState((state) => state.columns);
  const contentRows = frameContentRows(height);

  if (!leadId) {
    return (
      <PaneFrame title="Thread" focused={focused} height={height} {...(width !== undefined ? { width } : {})}>
        <Text dimColor>Select a lead in the inbox and press enter.</Text>
      </PaneFrame>
    );
  }
  if (!detail) {
    return (
      <PaneFrame title="Thread" focused={focused} height={height} {...(width !== undefined ? { width } : {})}>
        <LoadedStatus loaded={loaded} />
      </PaneFrame>
    );
  }
  const { lead, contact, consent_latest: consent } = detail;
  const repliedElsewhere = composingElsewhere.includes(contact.id);
  const textWidth = (typeof width === 'number' ? width : columns) - 4;
  // Show the selected entry at the bottom, with as many earlier ones as fit above it.
  const headerRows = 4;
  let room = Math.max(1, contentRows - headerRows);
  let start = Math.min(selected, entries.length - 1);
  while (start > 0) {
    const need = 1 + linesFor(entryText(entries[start - 1] as Entry), textWidth);
    if (need > room - (1 + linesFor(entryText(entries[start] as Entry), textWidth))) break;
    room -= need;
    start -= 1;
  }
  const visible = entries.slice(Math.max(0, start), selected + 1);
  return (
    <PaneFrame
      title={`Thread — ${oneLine(contact.name)}`}
      focused={focused}
      height={height}
      {...(width !== undefined ? { width } : {})}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Text wrap="truncate-end">
        {repliedElsewhere ? (
          <Text color="yellow" bold>
            being replied to in another terminal ·{' '}
          </Text>
        ) : null}
        {oneLine(contact.phone)} · {email ? oneLine(email) : 'no email on file'} · stage{' '}
        {enumLabel(contact.stage)}
      </Text>
      <Text wrap="truncate-end">
        lead {enumLabel(lead.status)} ·{' '}
        {String(lead.urgency) === 'same_day' ? (
          <Text color="red" bold>
            SAME DAY
          </Text>
        ) : (
          enumLabel(lead.urgency)
        )}{' '}
        · from {enumLabel(lead.source)} · {dateTime(lead.created_at)}
      </Text>
      {consent ? (
        <Text wrap="truncate-end" color={consent.sms_initial ? 'green' : 'red'}>
          consent: {consent.sms_initial ? 'given' : 'NOT given'} ({oneLine(consent.phone)}, recorded{' '}
          {dateTime(consent.recorded_at)})
        </Text>
      ) : (
        <Text color="red" wrap="truncate-end">
          consent: no consent on record
        </Text>
      )}
      <Text dimColor wrap="truncate-end">
        {entries.length} {entries.length === 1 ? 'text' : 'texts'}, oldest first · bodies come truncated by
        the service
      </Text>
      <Box flexDirection="column" overflow="hidden" height={Math.max(1, contentRows - headerRows)}>
        {entries.length === 0 ? <Text dimColor>No texts yet.</Text> : null}
        {visible.map((entry, offset) => (
          <EntryView
            key={entry.kind === 'message' ? entry.message.id : entry.text.localId}
            entry={entry}
            selected={focused && start + offset === selected}
          />
        ))}
      </Box>
    </PaneFrame>
  );
}

function reads(state: AppState): Slot[] {
  const leadId = threadLeadId(state);
  return leadId ? [{ kind: 'lead', id: leadId }] : [];
}

export const threadPane: PaneDescriptor = {
  id: 'thread',
  title: 'Thread',
  Component: ThreadPane,
  list: {
    identity: threadLeadId,
    of: threadList,
    noun: 'text',
    rowLabel: (entry: ThreadEntry) =>
      oneLine(entry.kind === 'message' ? entry.message.body : entry.text.body).slice(0, 40),
  },
  reads,
  seen: [],
  commands: [
    {
      id: 'back',
      mode: 'pane',
      pane: 'thread',
      keys: ['esc'],
      label: 'back to the inbox',
      hint: 'back',
      run: (context) => context.ui.focusPane('inbox'),
    },
    composeCommand('thread', 'text this contact', {
      when: (context) => (openLead(context.state()) ? true : 'the thread is not loaded yet'),
      run: (context) => {
        const detail = openLead(context.state());
        if (detail) context.ui.openComposer(targetFromLead(detail));
      },
    }),
  ],
};
