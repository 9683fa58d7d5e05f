/**
 * Always on top: the business, billing and texting status, the counts staff
 * act on, credits, and [READ-ONLY] when this process cannot write.
 */
import { Box } from 'ink';
import { useAppState } from '../app-context.js';
import { enumLabel, oneLine } from '../format.js';
import { Text } from './text.js';

export function Header() {
  const me = useAppState((state) => state.me.data);
  const readOnly = useAppState((state) => state.readOnly);
  const narrow = useAppState((state) => state.columns < 100);
  const others = useAppState((state) => state.presence.others);
  const badge = readOnly ? (
    <Text color="black" backgroundColor="yellow" bold>
      {'[READ-ONLY]'}
    </Text>
  ) : null;
  if (!me) {
    return (
      <Box flexDirection="column" height={2}>
        <Box>
          <Text bold>shop-inbox </Text>
          {badge}
        </Box>
        <Text dimColor>loading the shop…</Text>
      </Box>
    );
  }
  const billing = String(me.billing_pulse.status);
  const texting = String(me.texting_pulse.texting_status);
  const credits = me.credits_pulse;
  return (
    <Box flexDirection="column" height={2}>
      <Box height={1} overflow="hidden">
        {badge}
        {badge ? <Text> </Text> : null}
        <Text wrap="truncate-end">
          <Text bold>{oneLine(me.identity.business_name)}</Text>
          {'  billing '}
          <Text color={billing === 'active' ? 'green' : 'red'}>{enumLabel(billing)}</Text>
          {' · texting '}
          <Text color={texting === 'active' ? 'green' : 'red'}>{enumLabel(texting)}</Text>
        </Text>
      </Box>
      <Box height={1} overflow="hidden">
        <Text wrap="truncate-end">
          <Text bold>{me.inbox_pulse.open_leads}</Text> open leads ·{' '}
          <Text bold>{me.inbox_pulse.needs_callback}</Text> callbacks ·{' '}
          <Text bold>{me.reviews_pulse.unreplied}</Text> unreplied reviews ·{' '}
          <Text bold color={me.pending_actions > 0 ? 'yellow' : undefined}>
            {me.pending_actions}
          </Text>{' '}
          {narrow ? 'pending' : 'pending actions'} · {credits.remaining}/{credits.included} credits
          {others > 0 ? ` · also open in ${others} other ${others === 1 ? 'terminal' : 'terminals'}` : ''}
        </Text>
      </Box>
    </Box>
  );
}
