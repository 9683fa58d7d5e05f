/**
 * Today and account: recent activity and the actions awaiting approval
 * (GET /today), who the key belongs to with the shop's pulses and gaps
 * (GET /me), billing (plan, status, period end, card brand and last four
 * only) and texting setup.
 */
import { Box } from 'ink';
import type { ActivityItem } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { headerCounts, plural } from '../store/counts.js';
import { activityList, inboundTextOfActivity, selectedActivity } from '../store/selectors.js';
import { useAppState, useClockNow, useTheme } from '../ui-kit/app-context.js';
import type { Command } from '../ui-kit/commands/command.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { Text } from '../ui-kit/components/text.js';
import { age, day, enumLabel, oneLine } from '../ui-kit/format.js';
import { copyCommand, openThreadAtText } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

/** Rows Today keeps for its activity feed, when the terminal is short, before the account's lines. */
const MIN_ACTIVITY_ROWS = 5;

/**
 * The account's lines that give way to the activity feed on a short terminal, the first to go first: what the
 * header shows already (pending, reviews, the inbox's counts), then the links `y` and `Y` copy, the API's name
 * and the gaps. Account, billing, texting and credits always stay (the header's credits are cut at 80 columns).
 */
const GIVES_WAY = ['Pending', 'Reviews', 'Inbox', 'API', 'Inbox at', 'Dashboard', 'Gaps'] as const;

interface AccountLine {
  label: string;
  value: string;
}

interface AccountReads {
  me: AppState['me']['data'];
  billing: AppState['billing']['data'];
  texting: AppState['texting']['data'];
  spec: AppState['apiSpec']['data'];
  /** The same counts as the header's, from the same reads. */
  counts: ReturnType<typeof headerCounts>;
}

/** The account's lines, in their order on screen; a line of /me only once /me is read. */
function accountLines({ me, billing, texting, spec, counts }: AccountReads): AccountLine[] {
  const card = billing?.payment_method
    ? `${oneLine(billing.payment_method.brand)} ending ${oneLine(billing.payment_method.last4).slice(-4)}`
    : 'no card on file';
  const lines: AccountLine[] = [
    {
      label: 'Account',
      value: me
        ? `${oneLine(me.identity.first_name)} <${oneLine(me.identity.email)}> · ${oneLine(me.identity.business_name)}`
        : 'loading…',
    },
    {
      label: 'Billing',
      value: billing
        ? `${enumLabel(billing.subscription.status)} · ${oneLine(billing.subscription.plan)} plan · period ends ${day(billing.subscription.current_period_end)} · ${card}`
        : 'loading…',
    },
    {
      label: 'Texting',
      value: texting
        ? `${texting.texting_number ? oneLine(texting.texting_number) : 'no number yet'} · ${enumLabel(texting.texting_status)} · campaign ${texting.campaign_approved ? 'approved' : 'NOT approved'} · forwarding ${texting.forwarding_verified_at ? `verified ${day(texting.forwarding_verified_at)}` : 'not verified'}`
        : 'loading…',
    },
  ];
  if (me) {
    lines.push(
      {
        label: 'Inbox',
        value: `${plural(counts.openLeads ?? me.inbox_pulse.open_leads, 'open lead')} · ${plural(counts.callbacks ?? me.inbox_pulse.needs_callback, 'missed call')} with no reply`,
      },
      {
        label: 'Reviews',
        value: `${counts.unreplied ?? me.reviews_pulse.unreplied} unreplied · Google ${me.google_pulse.connected ? 'connected' : 'NOT connected'}`,
      },
      {
        label: 'Credits',
        value: `${me.credits_pulse.used} used of ${me.credits_pulse.included} · ${me.credits_pulse.remaining} left`,
      },
      {
        label: 'Pending',
        value: `${plural(counts.pending ?? me.pending_actions, 'action')} awaiting approval (4 Actions)`,
      },
      { label: 'Dashboard', value: `${oneLine(me.links.today)}  (y copies)` },
      { label: 'Inbox at', value: `${oneLine(me.links.inbox)}  (Y copies)` },
    );
  }
  lines.push({ label: 'API', value: describeSpec(spec) });
  if (me)
    lines.push({
      label: 'Gaps',
      value:
        me.gaps.length === 0
          ? 'none'
          : me.gaps.map((gap) => oneLine(typeof gap === 'string' ? gap : JSON.stringify(gap))).join(' · '),
    });
  return lines;
}

/** The lines that fit in `rows` (or the fewest there can be, those that never give way), in their order. */
export function fittedAccountLines<T extends { label: string }>(lines: readonly T[], rows: number): T[] {
  const dropped = new Set<string>();
  for (const label of GIVES_WAY) {
    if (lines.length - dropped.size <= rows) break;
    if (lines.some((line) => line.label === label)) dropped.add(label);
  }
  return lines.filter((line) => !dropped.has(line.label));
}

/** "Shop API v1 (OpenAPI 3.1.0, 12 paths)" from the service's own description of itself. */
function describeSpec(spec: Record<string, unknown> | undefined): string {
  if (!spec) return 'loading…';
  const info = (spec.info ?? {}) as { title?: unknown; version?: unknown };
  const paths = spec.paths && typeof spec.paths === 'object' ? Object.keys(spec.paths).length : undefined;
  return `${oneLine(info.title ?? 'untitled')} ${oneLine(info.version ?? '')} (OpenAPI ${oneLine(spec.openapi ?? '?')}${paths !== undefined ? `, ${paths} paths` : ''})`;
}

function Account({ lines }: { lines: readonly AccountLine[] }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line) => (
        <Text key={line.label} wrap="truncate-end">
          <Text dimColor>{line.label.padEnd(10)}</Text>
          {line.value}
        </Text>
      ))}
    </Box>
  );
}

function TodayPane({ height, focused }: PaneProps) {
  const theme = useTheme();
  const loaded = useAppState((state) => statusOf(state.today));
  const pending = useAppState((state) => state.today.data?.pending_actions);
  const rows = useAppState((state) => activityList(state).rows);
  const selected = useSelectedIndex('today', activityList);
  const now = useClockNow();
  const me = useAppState((state) => state.me.data);
  const billing = useAppState((state) => state.billing.data);
  const texting = useAppState((state) => state.texting.data);
  const spec = useAppState((state) => state.apiSpec.data);
  const counts = useAppState(headerCounts);
  const content = frameContentRows(height);
  const allLines = accountLines({ me, billing, texting, spec, counts });
  const lines = fittedAccountLines(allLines, content - 2 - MIN_ACTIVITY_ROWS);
  // A blank row under the account when every line is there and the feed keeps its rows.
  const gap = lines.length === allLines.length && content - lines.length - 3 >= MIN_ACTIVITY_ROWS ? 1 : 0;
  return (
    <PaneFrame
      title="Today and account"
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Account lines={lines} />
      {gap ? <Text> </Text> : null}
      <Text wrap="truncate-end">
        <Text bold>Awaiting approval </Text>
        {pending && pending.length > 0 ? <Text dimColor>(p opens them) </Text> : null}
        {pending === undefined
          ? '…'
          : pending.length === 0
            ? 'nothing'
            : pending
                .map((action) => `${enumLabel(action.kind)} ${age(action.generated_at, now)}`)
                .join(' · ')}
      </Text>
      <Text bold>Activity</Text>
      <ListWindow
        pane="today"
        items={rows}
        selected={selected}
        height={Math.max(1, content - lines.length - gap - 2)}
        rowKey={(item, index) => `${item.created_at}-${index}`}
        empty={loaded.updatedAt === undefined ? ' ' : 'No activity today.'}
        renderRow={(item, isSelected) => (
          <Text wrap="truncate-end" inverse={isSelected && focused}>
            <Text dimColor>{age(item.created_at, now).padStart(4)} </Text>
            <Text color={theme.accent}>{enumLabel(item.kind).padEnd(16)}</Text> {oneLine(item.summary)}
          </Text>
        )}
      />
    </PaneFrame>
  );
}

/** Why the selected activity item does not open a text, or true. */
function textOpens(state: AppState): true | string {
  const item = selectedActivity(state);
  if (!item) return 'no activity item is selected';
  if (String(item.kind) !== 'sms_inbound') return 'only an inbound text (sms inbound) opens a thread';
  return inboundTextOfActivity(state, item)
    ? true
    : "the text is not in any thread read yet (its lead's thread is read when it is among the latest inbound texts, or opened)";
}

/** enter or i on an inbound text of the activity: its lead's thread, at that text. */
function openTextCommand(id: string, keys: readonly string[]): Command {
  return {
    id,
    mode: 'pane',
    pane: 'today',
    keys,
    label: 'open the selected inbound text in its thread, at that text',
    hint: 'open text',
    when: (context) => textOpens(context.state()),
    run: (context) => {
      const item = selectedActivity(context.state());
      const found = item ? inboundTextOfActivity(context.state(), item) : undefined;
      if (found) openThreadAtText(context, found.lead.lead.id, found.message.id);
    },
  };
}

export const todayPane: PaneDescriptor = {
  id: 'today',
  title: 'Today',
  Component: TodayPane,
  list: {
    of: activityList,
    noun: 'activity item',
    rowLabel: (item: ActivityItem) => oneLine(item.summary).slice(0, 40),
    newestOnTop: true,
  },
  // /me is the account's lines and the credits.
  reads: () => [{ kind: 'today' }, { kind: 'billing' }, { kind: 'texting' }, { kind: 'me' }],
  commands: [
    openTextCommand('open', ['enter']),
    openTextCommand('inbound', ['i']),
    {
      id: 'pending',
      mode: 'pane',
      pane: 'today',
      keys: ['p'],
      label: 'open the actions awaiting approval (in Actions)',
      hint: 'pending actions',
      run: (context) => {
        if (context.state().actionsFilter !== 'pending_approval')
          context.ui.showList('actions', { actionsFilter: 'pending_approval' });
        context.ui.focusPane('actions');
      },
    },
    {
      id: 'account',
      mode: 'pane',
      pane: 'today',
      keys: ['b'],
      label: 'billing, texting and credits: read them again now',
      hint: 'billing',
      run: (context) => {
        context.ui.refreshVisible();
        context.ui.notify('Reading billing, texting and credits again.');
      },
    },
    copyCommand('today', (context) => {
      const me = context.state().me.data;
      return me ? { what: "the dashboard's Today link", text: me.links.today } : 'the shop is not loaded yet';
    }),
    copyCommand(
      'today',
      (context) => {
        const me = context.state().me.data;
        return me
          ? { what: "the dashboard's Inbox link", text: me.links.inbox }
          : 'the shop is not loaded yet';
      },
      {
        id: 'copy.inbox-link',
        keys: ['Y'],
        label: "copy the dashboard's Inbox link",
        hint: 'copy inbox link',
      },
    ),
  ],
};
