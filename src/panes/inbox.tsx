/**
 * Inbox: open leads, or (f) the missed calls with no reply, with the latest
 * inbound texts below. New since staff last looked is marked with ●. From 120
 * columns the selected lead's thread shows beside it.
 */
import { Box } from 'ink';
import { memo, useMemo } from 'react';
import type { InboundPreview, InboxFilter, InboxLead } from '../contract/resources.js';
import type { Slot } from '../poller/reads.js';
import { type AppState, type InboxOrder, inboxOrdersOf, isWide } from '../store/app-store.js';
import { type ConversationMarks, isDone, isUnread } from '../store/conversation-marks.js';
import { pictureCoverage } from '../store/conversation-picture.js';
import { callbackCount, listCount, openLeadCount } from '../store/counts.js';
import { INBOUND_SHOWN, type PreviewSender, previewSender, previewsShown } from '../store/inbound-match.js';
import { inboundId } from '../store/seen.js';
import { inboxList, repliedFromHere, searchText, selectedLead, threadLeadId } from '../store/selectors.js';
import { leadUnread, newestInboundAt, waitingConversations } from '../store/waiting.js';
import { useAppState, useClockNow, useServices, useTheme } from '../ui-kit/app-context.js';
import type { CommandContext } from '../ui-kit/commands/command.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { SearchLine } from '../ui-kit/components/search-line.js';
import { Text } from '../ui-kit/components/text.js';
import { age, enumLabel, oneLine, WAITED_FOR_WIDTH, waitedFor } from '../ui-kit/format.js';
import { rowKeys } from '../ui-kit/row-keys.js';
import { useClickable } from '../ui-kit/use-clickable.js';
import {
  composeCommand,
  copyCommand,
  doneCommand,
  filterCommands,
  openThreadAtText,
} from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

/** How an order is said in the title and when `o` picks it; a callback's age is how long it has waited. */
function orderWords(order: InboxOrder, filter: InboxFilter | 'waiting'): string {
  switch (order) {
    case 'newest':
      return 'newest first';
    case 'same-day':
      return 'same-day first';
    case 'oldest':
      return filter === 'callbacks' ? 'waiting longest first' : 'oldest first';
  }
}

const LeadRow = memo(function LeadRow({
  lead,
  selected,
  fresh,
  now,
  wide,
  repliedElsewhere,
  waitingSince,
}: {
  lead: InboxLead;
  selected: boolean;
  fresh: boolean;
  now: number;
  wide: boolean;
  /** Another terminal of this box is writing to this lead's contact (the hub's presence). */
  repliedElsewhere: boolean;
  /** In the waiting list: since when the customer waits. */
  waitingSince: string | undefined;
}) {
  const theme = useTheme();
  const sameDay = String(lead.urgency) === 'same_day';
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color={theme.warning}>{fresh ? '●' : ' '}</Text>
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
        <Text wrap="truncate-end" {...(sameDay ? { color: theme.danger, bold: true } : { dimColor: true })}>
          {sameDay ? 'SAME DAY' : enumLabel(lead.urgency)}
        </Text>
      </Box>
      {repliedElsewhere || waitingSince === undefined ? (
        <Box width={9} flexShrink={0} marginLeft={1}>
          {repliedElsewhere ? (
            <Text wrap="truncate-end" color={theme.warning} bold>
              ✎ typing
            </Text>
          ) : (
            <Text wrap="truncate-end">{enumLabel(lead.status)}</Text>
          )}
        </Box>
      ) : null}
      {waitingSince === undefined ? (
        <Box width={4} flexShrink={0} marginLeft={1} justifyContent="flex-end">
          <Text dimColor>{age(lead.created_at, now)}</Text>
        </Box>
      ) : (
        <Box width={WAITED_FOR_WIDTH} flexShrink={0} marginLeft={1} justifyContent="flex-end">
          <Text wrap="truncate-end" color={theme.warning}>
            {waitedFor(waitingSince, now)}
          </Text>
        </Box>
      )}
    </Box>
  );
});

/** Opens the thread a latest inbound text belongs to, with that text selected; false when it is not matched. */
export function openPreview(context: CommandContext, preview: InboundPreview): boolean {
  const sender = previewSender(context.state(), preview);
  if (sender.kind !== 'matched') return false;
  openThreadAtText(context, sender.lead.lead.id, sender.message.id);
  return true;
}

/** The latest inbound texts shown, and where the one chosen with the keys is among them (-1: not there now). */
export function pickedPreview(state: AppState): { shown: InboundPreview[]; index: number } {
  const shown = previewsShown(state);
  return { shown, index: shown.findIndex((preview) => inboundId(preview) === state.inboundPick) };
}

/** Moves the choice among the latest inbound texts; one that left the list starts again at the newest. */
export function movePick(context: CommandContext, step: number) {
  const { shown, index } = pickedPreview(context.state());
  const next = shown[index < 0 ? 0 : Math.max(0, Math.min(shown.length - 1, index + step))];
  if (next) context.store.setState({ inboundPick: inboundId(next) });
}

/** Why a latest inbound text cannot be opened yet, or true; `which` names it in the reason. */
export function previewOpens(
  state: AppState,
  preview: InboundPreview | undefined,
  which = 'the latest inbound text',
): true | string {
  if (!preview) return 'no inbound text is listed';
  switch (previewSender(state, preview).kind) {
    case 'matched':
      return true;
    case 'not-matched-yet':
      return `${which} is not matched to its lead yet: the open leads' threads are being read`;
    case 'no-open-lead':
      return `${which} is in none of the open leads' threads (its lead may be closed): find it in Contacts`;
  }
}

const SENDER_WORDS = { 'not-matched-yet': 'not matched yet', 'no-open-lead': 'not an open lead' } as const;

function PreviewRow({
  preview,
  sender,
  fresh,
  picked,
  now,
}: {
  preview: InboundPreview;
  sender: PreviewSender;
  fresh: boolean;
  /** Highlighted by the keys (I, then j/k): enter opens it. */
  picked: boolean;
  now: number;
}) {
  const theme = useTheme();
  const { commandContext } = useServices();
  // A click opens its thread at this text (the keys: i the newest, I then j/k any).
  const ref = useClickable({ click: () => void openPreview(commandContext(), preview) });
  return (
    <Box ref={ref} height={1}>
      <Text wrap="truncate-end" inverse={picked}>
        <Text color={theme.warning}>{fresh ? '● ' : '  '}</Text>
        <Text dimColor>{age(preview.occurred_at, now).padStart(4)} </Text>
        {sender.kind === 'matched' ? (
          <Text bold>
            {oneLine(sender.lead.contact.name)} ({oneLine(sender.lead.contact.phone)}):{' '}
          </Text>
        ) : (
          <Text dimColor>{SENDER_WORDS[sender.kind]}: </Text>
        )}
        {oneLine(preview.body_preview)}
      </Text>
    </Box>
  );
}

/**
 * A latest inbound text is marked while it is unread: matched to its lead, until its thread was open with it
 * (kept by this inbox, src/store/conversation-marks.ts); not matched yet, while it is new since staff looked.
 */
function previewMarked(
  sender: PreviewSender | undefined,
  preview: InboundPreview,
  fresh: ReadonlySet<string>,
  conversations: ConversationMarks,
): boolean {
  if (sender?.kind === 'matched')
    return isUnread(conversations, sender.lead.lead.id, Date.parse(preview.occurred_at));
  return fresh.has(inboundId(preview));
}

function Previews({ previews, loaded }: { previews: InboundPreview[]; loaded: boolean }) {
  const fresh = useAppState((state) => state.seen.fresh.inbound);
  const conversations = useAppState((state) => state.conversations);
  // Who sent each, as far as the threads read say: matched only when the previews or the threads change.
  const leads = useAppState((state) => state.leads);
  const inbox = useAppState((state) => state.inbox);
  const threadNews = useAppState((state) => state.threadNews);
  const shown = useMemo(() => previews.slice(0, INBOUND_SHOWN), [previews]);
  const senders = useMemo(
    () => shown.map((preview) => previewSender({ leads, inbox, threadNews }, preview)),
    [shown, leads, inbox, threadNews],
  );
  const now = useClockNow();
  const picking = useAppState((state) => (state.focus === 'inbox' ? state.inboundPick : undefined));
  const keys = rowKeys(shown, inboundId);
  return (
    <Box flexDirection="column" height={INBOUND_SHOWN + 1}>
      <Text dimColor wrap="truncate-end">
        {picking === undefined
          ? 'Latest inbound texts'
          : 'Latest inbound texts — j/k choose · enter opens at that text · esc back to the leads'}
      </Text>
      {previews.length === 0 ? <Text dimColor>{loaded ? 'none' : 'loading…'}</Text> : null}
      {shown.map((preview, index) => (
        <PreviewRow
          key={keys[index]}
          preview={preview}
          sender={senders[index] ?? { kind: 'not-matched-yet' }}
          fresh={previewMarked(senders[index], preview, fresh, conversations)}
          picked={picking === inboundId(preview)}
          now={now}
        />
      ))}
    </Box>
  );
}

const TITLES = {
  open: 'Inbox — open leads',
  callbacks: 'Inbox — missed calls with no reply',
  waiting: 'Inbox — waiting for a reply, oldest first',
};
const EMPTY = {
  open: 'No open leads.',
  callbacks: 'No missed calls waiting for a reply.',
  waiting: "Nobody is waiting for a reply (as far as the open leads' threads read say).",
};

function InboxPane({ height, width, focused }: PaneProps) {
  const filter = useAppState((state) => (state.waitingOnly ? 'waiting' : state.inboxFilter));
  // Since when each waits, in the waiting list; one string so that the pane renders only when it changes.
  const waitingSince = useAppState((state) =>
    state.waitingOnly
      ? waitingConversations(state)
          .map((waiting) => `${waiting.lead.id}\u0001${waiting.since}`)
          .join('\u0000')
      : '',
  );
  const waitingPairs = useMemo(
    () =>
      waitingSince
        ? waitingSince.split('\u0000').map((pair) => pair.split('\u0001') as [string, string])
        : [],
    [waitingSince],
  );
  const sinceOf = useMemo(() => new Map(waitingPairs), [waitingPairs]);
  const loaded = useAppState((state) => statusOf(state.inbox[state.inboxFilter]));
  const rows = useAppState((state) => inboxList(state).rows);
  const pageCount = useAppState((state) => state.inbox[state.inboxFilter].data?.open_leads.length ?? 0);
  // The waiting list is counted from the list already worked out above, not worked out again.
  const loadedCount = filter === 'waiting' ? waitingPairs.length : pageCount;
  // The list's count as the header, Today and the title give it: more than a page means the title says so.
  const total = useAppState((state) =>
    state.waitingOnly
      ? undefined
      : state.inboxFilter === 'open'
        ? openLeadCount(state)
        : callbackCount(state),
  );
  const selected = useSelectedIndex('inbox', inboxList);
  const previews = useAppState((state) => state.inbox.open.data?.latest_inbound ?? []);
  const previewsLoaded = useAppState((state) => state.inbox.open.updatedAt !== undefined);
  const freshLeads = useAppState((state) => state.seen.fresh.leads);
  // Leads with an inbound text staff have not had open: one string, so that the pane renders when it changes.
  const unread = useAppState((state) => unreadLeadIds(state).join('\u0000'));
  const unreadIds = useMemo(() => new Set(unread ? unread.split('\u0000') : []), [unread]);
  // Leads whose contact another terminal is writing to, as far as this one has read their contact.
  const repliedElsewhere = useAppState((state) => {
    const writing = state.presence.composingElsewhere;
    if (writing.length === 0) return '';
    return Object.entries(state.leads)
      .filter(([, lead]) => lead.data && writing.includes(lead.data.contact.id))
      .map(([id]) => id)
      .join('\u0000');
  });
  const search = useAppState((state) => ({
    text: searchText(state, 'inbox'),
    editing: state.searching && focused,
  }));
  // The list has the whole width unless the thread shares it.
  const wide = useAppState((state) => state.columns < 120 || state.columns >= 160);
  const now = useClockNow();
  const order = useAppState((state) => state.inboxOrder);
  // The waiting list is made from the threads read: while some are not, its title says how many are.
  const coverage = useAppState((state) => {
    if (!state.waitingOnly) return '';
    const { read, of } = pictureCoverage(state);
    return read < of ? ` · ${read} of ${of} conversations read` : '';
  });
  const title = TITLES[filter];
  const contentRows = frameContentRows(height);
  const searchRows = search.text || search.editing ? 1 : 0;
  const listRows = Math.max(1, contentRows - INBOUND_SHOWN - 1 - searchRows);
  return (
    <PaneFrame
      title={`${title} ${listCount({ updatedAt: loaded.updatedAt, shown: rows.length, loaded: loadedCount, total })}${coverage}${order === 'newest' || filter === 'waiting' ? '' : ` · ${orderWords(order, filter)}`}`}
      focused={focused}
      height={height}
      {...(width !== undefined ? { width } : {})}
      status={<LoadedStatus loaded={loaded} />}
    >
      {searchRows ? <SearchLine text={search.text} editing={search.editing} /> : null}
      <ListWindow
        pane="inbox"
        items={rows}
        selected={selected}
        height={listRows}
        rowKey={(lead) => lead.id}
        empty={
          loaded.updatedAt === undefined
            ? ' '
            : coverage
              ? `Nobody is waiting among the conversations read so far${coverage}.`
              : EMPTY[filter]
        }
        renderRow={(lead, isSelected) => (
          <LeadRow
            lead={lead}
            selected={isSelected && focused}
            fresh={freshLeads.has(lead.id) || unreadIds.has(lead.id)}
            now={now}
            wide={wide}
            repliedElsewhere={repliedElsewhere !== '' && repliedElsewhere.split('\u0000').includes(lead.id)}
            waitingSince={sinceOf.get(lead.id)}
          />
        )}
      />
      <Previews previews={previews} loaded={previewsLoaded} />
    </PaneFrame>
  );
}

/** The listed leads (open and callbacks) with an inbound text staff have not had open. */
function unreadLeadIds(state: AppState): string[] {
  const ids = new Set<string>();
  for (const filter of ['open', 'callbacks'] as const)
    for (const lead of state.inbox[filter].data?.open_leads ?? [])
      if (leadUnread(state, lead.id)) ids.add(lead.id);
  return [...ids];
}

/** The Inbox's tab: new leads and unread conversations (once each), and new texts shown not matched to a lead yet. */
function marksCounted(state: AppState): number {
  const leads = new Set([...state.seen.fresh.leads, ...unreadLeadIds(state)]);
  const unmatched = previewsShown(state).filter(
    (preview) =>
      state.seen.fresh.inbound.has(inboundId(preview)) && previewSender(state, preview).kind !== 'matched',
  );
  return leads.size + unmatched.length;
}

/** The thread beside the inbox (from 120 columns) is the selected lead's: read once the selection rests. */
function reads(state: AppState): Slot[] {
  const slots: Slot[] = [{ kind: 'inbox', filter: state.inboxFilter }];
  const leadId = isWide(state) && state.focus === 'inbox' ? threadLeadId(state) : undefined;
  if (leadId) slots.push({ kind: 'lead', id: leadId });
  return slots;
}

export const inboxPane: PaneDescriptor = {
  id: 'inbox',
  title: 'Inbox',
  Component: InboxPane,
  list: {
    identity: (state: AppState) => state.inboxFilter,
    of: inboxList,
    noun: 'lead',
    rowLabel: (lead: InboxLead) => oneLine(lead.contact_name),
    // A reply sent from here answers its missed calls: the lead leaving the callbacks list is no surprise.
    leftBecauseOfUs: (state: AppState, id: string) => {
      if (repliedFromHere(state, id)) return true;
      // Marked done here (or in another terminal of this user): it leaves the waiting list on purpose.
      const detail = state.leads[id]?.data;
      const newest = detail ? newestInboundAt(detail) : undefined;
      return state.waitingOnly && newest !== undefined && isDone(state.conversations, id, newest);
    },
  },
  reads,
  choices: (state) => [state.inboxFilter, state.inboxOrder, state.waitingOnly],
  // New leads are marked until selected; a conversation with an unread inbound text (and a latest inbound text
  // not matched yet) until its thread is open.
  seen: { kinds: ['leads', 'inbound'], count: marksCounted },
  beside: 'thread',
  // Side by side, the thread is the lead highlighted here; one shown from elsewhere has the screen to itself.
  besideWhile: (state) => state.threadFrom.list === 'inbox',
  // The Inbox is the thread's home list: from it, the thread is the lead it highlights, at every size.
  onFocus: (state) =>
    state.threadFrom.list === 'inbox' ? {} : { update: { threadFrom: { list: 'inbox' } } },
  filter: 'local',
  commands: [
    {
      id: 'open',
      mode: 'pane',
      pane: 'inbox',
      keys: ['enter'],
      label: "open the selected lead's thread",
      hint: 'open',
      when: (context) => (selectedLead(context.state()) ? true : 'no lead is selected'),
      run: (context) => {
        if (selectedLead(context.state())) context.ui.openThread({ list: 'inbox' });
      },
    },
    {
      id: 'inbound',
      mode: 'pane',
      pane: 'inbox',
      keys: ['i'],
      label: 'open the latest inbound text in its thread, at that text',
      hint: 'latest text',
      when: (context) => previewOpens(context.state(), context.state().inbox.open.data?.latest_inbound[0]),
      run: (context) => {
        const preview = context.state().inbox.open.data?.latest_inbound[0];
        if (preview) openPreview(context, preview);
      },
    },
    {
      id: 'inbound.choose',
      mode: 'pane',
      pane: 'inbox',
      keys: ['I'],
      label: 'choose among the latest inbound texts (j/k, then enter opens one in its thread)',
      when: (context) => (previewsShown(context.state()).length > 0 ? true : 'no inbound text is listed'),
      run: (context) => {
        const newest = previewsShown(context.state())[0];
        if (newest) context.store.setState({ inboundPick: inboundId(newest) });
      },
    },
    {
      id: 'callbacks',
      mode: 'pane',
      pane: 'inbox',
      keys: ['f'],
      label: 'switch open leads / missed calls with no reply',
      hint: 'callbacks',
      run: (context) =>
        context.ui.showList('inbox', {
          inboxFilter:
            context.state().inboxFilter === 'open' && !context.state().waitingOnly ? 'callbacks' : 'open',
          waitingOnly: false,
        }),
    },
    {
      id: 'waiting',
      mode: 'pane',
      pane: 'inbox',
      keys: ['w'],
      label: 'switch open leads / conversations waiting for a reply (oldest waiting first)',
      hint: 'waiting',
      run: (context) => {
        const waitingOnly = !context.state().waitingOnly;
        context.ui.showList('inbox', { waitingOnly, inboxFilter: 'open' });
      },
    },
    {
      id: 'sort',
      mode: 'pane',
      pane: 'inbox',
      keys: ['o'],
      label:
        'order the list: inbox newest → same-day first → oldest first, callbacks newest → waiting longest first → same-day first; reviews newest → unreplied → lowest rating first',
      hint: 'order',
      when: (context) =>
        context.state().waitingOnly
          ? 'the waiting list is always oldest waiting first (w shows the open leads)'
          : true,
      run: (context) => {
        const { inboxOrder, inboxFilter } = context.state();
        const orders = inboxOrdersOf(inboxFilter);
        const next = orders[(orders.indexOf(inboxOrder) + 1) % orders.length] ?? 'newest';
        context.store.setState({ inboxOrder: next });
        context.ui.notify(`Inbox: ${orderWords(next, inboxFilter)}.`);
      },
    },
    doneCommand('inbox', (state) => selectedLead(state)?.id),
    ...filterCommands('inbox', {
      label: 'filter by name, phone or job',
      hint: 'filter',
      clearLabel: 'clear the filter',
    }),
    copyCommand('inbox', (context) => {
      const lead = selectedLead(context.state());
      return lead
        ? { what: `${oneLine(lead.contact_name)}'s phone number`, text: lead.caller_phone }
        : 'no lead is selected';
    }),
    composeCommand('inbox', "text the selected lead's contact", {
      when: (context) => (selectedLead(context.state()) ? true : 'no lead is selected'),
      run: (context) => {
        const lead = selectedLead(context.state());
        if (lead) context.ui.composeToLead(lead);
      },
    }),
  ],
};
