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

const ACCOUNT_ROWS = 12;

/** "Shop API v1 (OpenAPI 3.1.0, 12 paths)" from the service's own description of itself. */
function describeSpec(spec: Record<string, unknown> | undefined): string {
  if (!spec) return 'loading…';
  const info = (spec.info ?? {}) as { title?: unknown; version?: unknown };
  const paths = spec.paths && typeof spec.paths === 'object' ? Object.keys(spec.paths).length : undefined;
  return `${oneLine(info.title ?? 'untitled')} ${oneLine(info.version ?? '')} (OpenAPI ${oneLine(spec.openapi ?? '?')}${paths !== undefined ? `, ${paths} paths` : ''})`;
}

function Account() {
  const me = useAppState((state) => state.me.data);
  const billing = useAppState((state) => state.billing.data);
  const texting = useAppState((state) => state.texting.data);
  const spec = useAppState((state) => state.apiSpec.data);
  // The same counts as the header's, from the same reads.
  const counts = useAppState(headerCounts);
  const line = (label: string, value: React.ReactNode) => (
    <Text wrap="truncate-end">
      <Text dimColor>{label.padEnd(10)}</Text>
      {value}
    </Text>
  );
  const card = billing?.payment_method
    ? `${oneLine(billing.payment_method.brand)} ending ${oneLine(billing.payment_method.last4).slice(-4)}`
    : 'no card on file';
  return (
    <Box flexDirection="column" height={ACCOUNT_ROWS} overflow="hidden">
      {line(
        'Account',
        me
          ? `${oneLine(me.identity.first_name)} <${oneLine(me.identity.email)}> · ${oneLine(me.identity.business_name)}`
          : 'loading…',
      )}
      {line(
        'Billing',
        billing
          ? `${enumLabel(billing.subscription.status)} · ${oneLine(billing.subscription.plan)} plan · period ends ${day(billing.subscription.current_period_end)} · ${card}`
          : 'loading…',
      )}
      {line(
        'Texting',
        texting
          ? `${texting.texting_number ? oneLine(texting.texting_number) : 'no number yet'} · ${enumLabel(texting.texting_status)} · campaign ${texting.campaign_approved ? 'approved' : 'NOT approved'} · forwarding ${texting.forwarding_verified_at ? `verified ${day(texting.forwarding_verified_at)}` : 'not verified'}`
          : 'loading…',
      )}
      {me
        ? line(
            'Inbox',
            `${plural(counts.openLeads ?? me.inbox_pulse.open_leads, 'open lead')} · ${plural(counts.callbacks ?? me.inbox_pulse.needs_callback, 'missed call')} with no reply`,
          )
        : null}
      {me
        ? line(
            'Reviews',
            `${counts.unreplied ?? me.reviews_pulse.unreplied} unreplied · Google ${me.google_pulse.connected ? 'connected' : 'NOT connected'}`,
          )
        : null}
      {me
        ? line(
            'Credits',
            `${me.credits_pulse.used} used of ${me.credits_pulse.included} · ${me.credits_pulse.remaining} left`,
          )
        : null}
      {me
        ? line(
            'Pending',
            `${plural(counts.pending ?? me.pending_actions, 'action')} awaiting approval (4 Actions)`,
          )
        : null}
      {me ? line('Dashboard', `${oneLine(me.links.today)}  (y copies)`) : null}
      {me ? line('Inbox at', `${oneLine(me.links.inbox)}  (Y copies)`) : null}
      {line('API', describeSpec(spec))}
      {me
        ? line(
            'Gaps',
            me.gaps.length === 0
              ? 'none'
              : me.gaps
                  .map((gap) => oneLine(typeof gap === 'string' ? gap : JSON.stringify(gap)))
                  .join(' · '),
          )
        : null}
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
  return (
    <PaneFrame
      title="Today and account"
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Account />
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
        height={Math.max(1, frameContentRows(height) - ACCOUNT_ROWS - 2)}
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
  reads: () => [{ kind: 'today' }, { kind: 'billing' }, { kind: 'texting' }],
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
