/**
 * Actions: the agent's actions awaiting approval (a approves, after y/n),
 * and by `s` the history of each status. The reference gives an action only
 * its id, kind, status and time; any other field the service sends is shown
 * in the detail, so staff see as much as there is before approving.
 */

import { Box } from 'ink';
import { memo } from 'react';
import type { Action } from '../contract/resources.js';
import { ACTION_FILTERS, type AppState, type DecisionState } from '../store/app-store.js';
import { listCount } from '../store/counts.js';
import { actionList, selectedAction } from '../store/selectors.js';
import { useAppState, useClockNow, useTheme } from '../ui-kit/app-context.js';
import type { CommandContext } from '../ui-kit/commands/command.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { Text } from '../ui-kit/components/text.js';
import { age, block, dateTime, enumLabel, oneLine } from '../ui-kit/format.js';
import type { ColourRole } from '../ui-kit/theme.js';
import { approvePrompt, extraFields, fieldText } from './approval-question.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

const DETAIL_ROWS = 6;

function decisionText(decision: DecisionState | undefined): { text: string; color: ColourRole } | undefined {
  if (!decision) return undefined;
  if (decision.state === 'approving') return { text: 'approving…', color: 'accent' };
  if (decision.state === 'done')
    return { text: `approved → ${enumLabel(decision.result?.status)}`, color: 'success' };
  return { text: `approval failed: ${oneLine(decision.error?.message)}`, color: 'danger' };
}

const ActionRow = memo(function ActionRow({
  action,
  selected,
  fresh,
  decision,
  now,
}: {
  action: Action;
  selected: boolean;
  fresh: boolean;
  decision: DecisionState | undefined;
  now: number;
}) {
  const theme = useTheme();
  const outcome = decisionText(decision);
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color={theme.warning}>{fresh ? '●' : ' '}</Text>
      </Box>
      <Box width={16} flexShrink={0}>
        <Text wrap="truncate-end" inverse={selected} bold={selected}>
          {enumLabel(action.kind)}
        </Text>
      </Box>
      <Box width={18} flexShrink={0} marginLeft={1}>
        <Text
          wrap="truncate-end"
          color={String(action.status) === 'pending_approval' ? theme.warning : undefined}
        >
          {enumLabel(action.status)}
        </Text>
      </Box>
      <Box width={5} flexShrink={0} marginLeft={1}>
        <Text dimColor>{age(action.generated_at, now)}</Text>
      </Box>
      <Box flexGrow={1} flexBasis={0} marginLeft={1}>
        <Text wrap="truncate-end" {...(outcome ? { color: theme[outcome.color] } : { dimColor: true })}>
          {outcome ? outcome.text : oneLine(action.id)}
        </Text>
      </Box>
    </Box>
  );
});

/** What the action does, in the tense its status puts it in: an action published did it, one declined never will. */
function whatItDoes(status: Action['status']): string {
  switch (String(status)) {
    case 'pending_approval':
      return 'will do';
    case 'published':
      return 'did';
    case 'declined':
      return 'would have done';
    case 'failed':
      return 'was to do';
    default:
      return 'does';
  }
}

/** The first line of an action's detail: its kind, id, status and when it was generated. */
function ActionHeadLine({ action }: { action: Action }) {
  return (
    <Text wrap="truncate-end">
      <Text bold>{enumLabel(action.kind)}</Text> {oneLine(action.id)} · {enumLabel(action.status)} · generated{' '}
      {dateTime(action.generated_at)}
    </Text>
  );
}

function ActionDetail({ action }: { action: Action | undefined }) {
  const theme = useTheme();
  const drafted = useAppState((state) => (action ? state.draftedReplies[action.id] : undefined));
  if (!action) return null;
  const extra = extraFields(action);
  if (drafted) {
    return (
      <Box flexDirection="column" height={DETAIL_ROWS} overflow="hidden">
        <ActionHeadLine action={action} />
        <Text color={theme.special} wrap="truncate-end">
          Reply drafted here to {oneLine(drafted.reviewer)}
          {String(action.status) === 'pending_approval' ? ' (approving publishes it)' : ''}:
        </Text>
        <Text wrap="wrap">{block(drafted.reply)}</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={DETAIL_ROWS} overflow="hidden">
      <ActionHeadLine action={action} />
      {extra.length === 0 ? (
        <Text dimColor wrap="wrap">
          The API gives no detail of what this action {whatItDoes(action.status)} beyond its kind; check it in
          the shop's dashboard if unsure.
        </Text>
      ) : (
        extra.map(([key, value]) => (
          <Text key={key} wrap="truncate-end">
            {oneLine(key)}: {oneLine(fieldText(value))}
          </Text>
        ))
      )}
    </Box>
  );
}

function ActionsPane({ height, focused }: PaneProps) {
  const filter = useAppState((state) => state.actionsFilter);
  const loaded = useAppState((state) => statusOf(state.actions[state.actionsFilter]));
  const rows = useAppState((state) => actionList(state).rows);
  const selected = useSelectedIndex('actions', actionList);
  const action = useAppState(selectedAction);
  const fresh = useAppState((state) => state.seen.fresh.actions);
  const decisions = useAppState((state) => state.decisions);
  // /me counts the pending actions: a page of 100 out of more says so.
  const total = useAppState((state) =>
    state.actionsFilter === 'pending_approval' ? state.me.data?.pending_actions : undefined,
  );
  const now = useClockNow();
  const listRows = Math.max(1, frameContentRows(height) - DETAIL_ROWS - 1);
  return (
    <PaneFrame
      title={`Actions — ${filter === 'pending_approval' ? 'awaiting approval' : enumLabel(filter)} ${listCount({ updatedAt: loaded.updatedAt, shown: rows.length, loaded: rows.length, total })}`}
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Text dimColor wrap="truncate-end">
        newest first · s shows: pending approval → published → declined → failed
      </Text>
      <ListWindow
        pane="actions"
        items={rows}
        selected={selected}
        height={listRows}
        rowKey={(item) => item.id}
        empty={loaded.updatedAt === undefined ? ' ' : `No ${enumLabel(filter)} actions.`}
        renderRow={(item, isSelected) => (
          <ActionRow
            action={item}
            selected={isSelected && focused}
            fresh={fresh.has(item.id)}
            decision={decisions[item.id]}
            now={now}
          />
        )}
      />
      <ActionDetail action={action} />
    </PaneFrame>
  );
}

/** s / S: the next or previous status's actions. */
function showStatus(context: CommandContext, step: 1 | -1) {
  const index = ACTION_FILTERS.indexOf(context.state().actionsFilter);
  const next = ACTION_FILTERS[(index + step + ACTION_FILTERS.length) % ACTION_FILTERS.length];
  context.ui.showList('actions', { actionsFilter: next ?? 'pending_approval' });
}

export const actionsPane: PaneDescriptor = {
  id: 'actions',
  title: 'Actions',
  Component: ActionsPane,
  list: {
    identity: (state: AppState) => state.actionsFilter,
    leftBecauseOfUs: (state: AppState, id: string) => state.decisions[id]?.state === 'done',
    of: actionList,
    noun: 'action',
    rowLabel: (action: Action) => `${enumLabel(action.kind)} ${oneLine(action.id)}`,
  },
  reads: (state) => [{ kind: 'actions', status: state.actionsFilter }],
  choices: (state) => [state.actionsFilter],
  seen: { kinds: ['actions'] },
  commands: [
    {
      id: 'approve',
      mode: 'pane',
      pane: 'actions',
      keys: ['a'],
      label: 'approve the selected pending action (asks y/n)',
      hint: 'approve',
      writes: true,
      when: (context) => {
        const state = context.state();
        const action = selectedAction(state);
        if (!action) return 'no action is selected';
        if (String(action.status) !== 'pending_approval')
          return 'only an action awaiting approval can be approved';
        const decided = state.decisions[action.id]?.state;
        // Approved already (the list may not be read again yet): a second decide could repeat its effects.
        if (decided === 'approving' || decided === 'done') return 'it was approved already';
        return true;
      },
      run: (context) => {
        const state = context.state();
        const action = selectedAction(state);
        if (!action) return;
        context.ui.ask(approvePrompt(state, action, context.ui.now()), context.input.batch);
      },
    },
    {
      id: 'status',
      helpRow: {
        id: 'status',
        label: 'show the next / previous status: pending approval → published → declined → failed',
      },
      mode: 'pane',
      pane: 'actions',
      keys: ['s'],
      label: 'show the next status: pending approval → published → declined → failed',
      hint: 'status',
      run: (context) => showStatus(context, 1),
    },
    {
      id: 'status.previous',
      helpRow: {
        id: 'status',
        label: 'show the next / previous status: pending approval → published → declined → failed',
      },
      mode: 'pane',
      pane: 'actions',
      keys: ['S'],
      label: 'show the previous status',
      run: (context) => showStatus(context, -1),
    },
  ],
};
