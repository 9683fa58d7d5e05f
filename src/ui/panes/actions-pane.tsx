/**
 * 4 Actions: the agent's actions awaiting approval (a approves, after y/n),
 * and by `/` the history of each status. The reference gives an action only
 * its id, kind, status and time; any other field the service sends is shown
 * in the detail, so staff see as much as there is before approving.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Action } from '../../contract/resources.js';
import type { DecisionState } from '../../store/app-store.js';
import { actionRows, selectedAction, selectedIndex } from '../../store/selectors.js';
import { useAppState, useClockNow } from '../app-context.js';
import { ListWindow } from '../components/list-window.js';
import { LoadedStatus, statusOf } from '../components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../components/pane-frame.js';
import { age, dateTime, enumLabel, oneLine } from '../format.js';

const DETAIL_ROWS = 6;
const KNOWN_FIELDS = new Set(['id', 'kind', 'status', 'generated_at']);

function decisionText(decision: DecisionState | undefined): { text: string; color: string } | undefined {
  if (!decision) return undefined;
  if (decision.state === 'approving') return { text: 'approving…', color: 'cyan' };
  if (decision.state === 'done')
    return { text: `approved → ${enumLabel(decision.result?.status)}`, color: 'green' };
  return { text: `approval failed: ${oneLine(decision.error?.message)}`, color: 'red' };
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
  const outcome = decisionText(decision);
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color="yellow">{fresh ? '●' : ' '}</Text>
      </Box>
      <Box width={16} flexShrink={0}>
        <Text wrap="truncate-end" inverse={selected} bold={selected}>
          {enumLabel(action.kind)}
        </Text>
      </Box>
      <Box width={18} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end" color={String(action.status) === 'pending_approval' ? 'yellow' : undefined}>
          {enumLabel(action.status)}
        </Text>
      </Box>
      <Box width={5} flexShrink={0} marginLeft={1}>
        <Text dimColor>{age(action.generated_at, now)}</Text>
      </Box>
      <Box flexGrow={1} flexBasis={0} marginLeft={1}>
        <Text wrap="truncate-end" {...(outcome ? { color: outcome.color } : { dimColor: true })}>
          {outcome ? outcome.text : oneLine(action.id)}
        </Text>
      </Box>
    </Box>
  );
});

function ActionDetail({ action }: { action: Action | undefined }) {
  if (!action) return null;
  const extra = Object.entries(action).filter(([key]) => !KNOWN_FIELDS.has(key));
  return (
    <Box flexDirection="column" height={DETAIL_ROWS} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{enumLabel(action.kind)}</Text> {oneLine(action.id)} · {enumLabel(action.status)} ·
        generated {dateTime(action.generated_at)}
      </Text>
      {extra.length === 0 ? (
        <Text dimColor wrap="wrap">
          The API gives no detail of what this action will do beyond its kind; check it in the shop's
          dashboard if unsure.
        </Text>
      ) : (
        extra.map(([key, value]) => (
          <Text key={key} wrap="truncate-end">
            {oneLine(key)}: {oneLine(typeof value === 'string' ? value : JSON.stringify(value))}
          </Text>
        ))
      )}
    </Box>
  );
}

export function ActionsPane({ height, focused }: { height: number; focused: boolean }) {
  const filter = useAppState((state) => state.actionsFilter);
  const loaded = useAppState((state) => statusOf(state.actions[state.actionsFilter]));
  const rows = useAppState(actionRows);
  const selected = useAppState((state) => selectedIndex(state, 'actions'));
  const action = useAppState(selectedAction);
  const fresh = useAppState((state) => state.seen.fresh.actions);
  const decisions = useAppState((state) => state.decisions);
  const now = useClockNow();
  const listRows = Math.max(1, frameContentRows(height) - DETAIL_ROWS - 1);
  return (
    <PaneFrame
      title={`Actions — ${filter === 'pending_approval' ? 'awaiting approval' : enumLabel(filter)} (${rows.length})`}
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Text dimColor wrap="truncate-end">
        newest first · / shows: pending approval → published → declined → failed
      </Text>
      <ListWindow
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
