/**
 * The inline composer: recipient, the text with its cursor, characters and
 * SMS segments, and a warning when there is no consent on record or it was
 * not given. Enter asks "send to NAME (PHONE)? y/n"; esc closes it and keeps
 * the text for this contact.
 */
import { Box } from 'ink';
import { waitingKey } from '../../store/app-store.js';
import { emptyLine } from '../../store/line-editor.js';
import { consentFor } from '../../store/selectors.js';
import { useAppState, useTheme } from '../app-context.js';
import { block, dateTime, oneLine } from '../format.js';
import { smsInfo } from '../sms-info.js';
import { Text } from './text.js';

export const COMPOSER_ROWS = 6;

export function Composer() {
  const theme = useTheme();
  const target = useAppState(
    (state) => state.composer ?? (state.prompt?.kind === 'confirm-send' ? state.prompt.target : undefined),
  );
  const waiting = useAppState((state) => state.composerWaiting);
  const line = useAppState((state) => {
    const key =
      state.composer?.contactId ??
      (state.prompt?.kind === 'confirm-send' ? state.prompt.target.contactId : undefined) ??
      (state.composerWaiting ? waitingKey(state.composerWaiting.leadId) : undefined);
    return key ? (state.composed[key] ?? emptyLine) : emptyLine;
  });
  // A lead of this contact may arrive while the composer is open (see the contacts pane's `c`).
  const liveConsent = useAppState((state) => (target ? consentFor(state, target.contactId) : undefined));
  if (!target && !waiting) return null;
  const info = smsInfo(line.text);
  const before = block(line.text.slice(0, line.cursor));
  const after = block(line.text.slice(line.cursor));
  const consent = target ? (target.consent !== undefined ? target.consent : liveConsent) : undefined;
  const name = target?.name ?? waiting?.name ?? '';
  const phone = target?.phone ?? waiting?.phone ?? '';
  return (
    <Box
      flexDirection="column"
      height={COMPOSER_ROWS}
      borderStyle="round"
      borderColor={theme.accent}
      paddingX={1}
      overflow="hidden"
    >
      <Text wrap="truncate-end">
        <Text bold>To {oneLine(name)}</Text> ({oneLine(phone)}) · {info.characters} characters ·{' '}
        {info.segments} {info.segments === 1 ? 'segment' : 'segments'} ({info.encoding})
        {info.tooLong ? <Text color={theme.danger}> · too long to send</Text> : null}
      </Text>
      {!target ? (
        <Text color={theme.accent} wrap="truncate-end">
          Reading this lead's contact… type away: the text is kept.
        </Text>
      ) : consent === null ? (
        <Text color={theme.danger} wrap="truncate-end">
          ⚠ No consent on record for this number.
        </Text>
      ) : consent === undefined ? (
        <Text color={theme.warning} wrap="truncate-end">
          ⚠ Consent unknown: open one of this contact's leads to see their consent record.
        </Text>
      ) : consent.given ? (
        <Text color={theme.success} wrap="truncate-end">
          consent given {dateTime(consent.recordedAt)}
        </Text>
      ) : (
        <Text color={theme.danger} wrap="truncate-end">
          ⚠ Consent NOT given (recorded {dateTime(consent.recordedAt)}).
        </Text>
      )}
      <Box height={2} overflow="hidden">
        <Text wrap="wrap">
          {before}
          <Text inverse>{after.slice(0, 1) || ' '}</Text>
          {after.slice(1)}
        </Text>
      </Box>
    </Box>
  );
}
