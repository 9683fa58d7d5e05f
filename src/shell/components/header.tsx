/**
 * Always on top: the business, billing and texting status, the counts staff
 * act on, credits, and [READ-ONLY] when this process cannot write.
 */
import { Box } from 'ink';
import { pictureCoverage } from '../../store/conversation-picture.js';
import { headerCounts, plural } from '../../store/counts.js';
import { waitingConversations } from '../../store/waiting.js';
import { useAppState, useTheme } from '../../ui-kit/app-context.js';
import { Text } from '../../ui-kit/components/text.js';
import { enumLabel, oneLine } from '../../ui-kit/format.js';

export function Header() {
  const theme = useTheme();
  const me = useAppState((state) => state.me.data);
  const readOnly = useAppState((state) => state.readOnly);
  const narrow = useAppState((state) => state.columns < 100);
  // The header counts what the lists below hold: a list read whole is its own count.
  const counts = useAppState(headerCounts);
  const others = useAppState((state) => state.presence.others);
  // Conversations whose newest text is the customer's (as far as the threads read say), not marked done.
  const waiting = useAppState((state) =>
    state.inbox.open.data ? waitingConversations(state).length : undefined,
  );
  // Counted from the threads read: while some are not, it says how many are.
  const partial = useAppState((state) => {
    const { read, of } = pictureCoverage(state);
    return read < of ? `(${read} of ${of} read) ` : '';
  });
  // The config's name of the shop (several shops: which one this is), before the name the shop gives itself.
  const shop = useAppState((state) => state.shop);
  const shopLabel = shop ? (
    <Text {...(theme.accent ? { color: theme.accent } : {})} bold>
      {`[${shop}] `}
    </Text>
  ) : null;
  const badge = readOnly ? (
    <Text {...(theme.badge ?? { inverse: true })} bold>
      {'[READ-ONLY]'}
    </Text>
  ) : null;
  if (!me) {
    return (
      <Box flexDirection="column" height={2}>
        <Box>
          <Text bold>shop-inbox </Text>
          {shopLabel}
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
          {shopLabel}
          <Text bold>{oneLine(me.identity.business_name)}</Text>
          {'  billing '}
          <Text color={billing === 'active' ? theme.success : theme.danger}>{enumLabel(billing)}</Text>
          {' · texting '}
          <Text color={texting === 'active' ? theme.success : theme.danger}>{enumLabel(texting)}</Text>
          {/* Here, not among the counts: the counts fill their line at 120 columns. */}
          {others > 0 ? ` · also open in ${others} other ${others === 1 ? 'terminal' : 'terminals'}` : ''}
        </Text>
      </Box>
      <Box height={1} overflow="hidden">
        <Text wrap="truncate-end">
          <Count value={counts.openLeads ?? me.inbox_pulse.open_leads} noun="open lead" /> ·{' '}
          <Count value={counts.callbacks ?? me.inbox_pulse.needs_callback} noun="callback" /> ·{' '}
          {waiting === undefined ? null : (
            <>
              <Count
                value={waiting}
                noun="waiting"
                pluralNoun="waiting"
                color={waiting > 0 ? theme.warning : undefined}
              />{' '}
              {partial}·{' '}
            </>
          )}
          <Count value={counts.unreplied ?? me.reviews_pulse.unreplied} noun="unreplied review" /> ·{' '}
          <Count
            value={counts.pending ?? me.pending_actions}
            noun={narrow ? 'pending' : 'pending action'}
            {...(narrow ? { pluralNoun: 'pending' } : {})}
            color={(counts.pending ?? me.pending_actions) > 0 ? theme.warning : undefined}
          />{' '}
          · {credits.remaining}/{credits.included} credits
        </Text>
      </Box>
    </Box>
  );
}

/** "1 open lead", "3 open leads", the number in bold. */
function Count({
  value,
  noun,
  pluralNoun,
  color,
}: {
  value: number;
  noun: string;
  pluralNoun?: string;
  color?: string | undefined;
}) {
  const words = plural(value, noun, pluralNoun).slice(String(value).length);
  return (
    <>
      <Text bold {...(color ? { color } : {})}>
        {String(value)}
      </Text>
      {words}
    </>
  );
}
