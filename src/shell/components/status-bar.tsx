/**
 * The bottom two lines: first a question, the connection state or the latest
 * notice; then the keys that matter right now, from the command registry.
 */
import { Box } from 'ink';
import stringWidth from 'string-width';
import { DEFAULT_KEY_MODE_CHECK_MS } from '../../session/key-mode.js';
import type { AppState, ConfirmSend } from '../../store/app-store.js';
import { fittedRecipientLabel } from '../../text/recipient.js';
import { useAppState, useClockNow, useServices, useTheme } from '../../ui-kit/app-context.js';
import { hints } from '../../ui-kit/commands/describe.js';
import { Text } from '../../ui-kit/components/text.js';
import { oneLine, updatedAgo } from '../../ui-kit/format.js';
import { displayKey } from '../../ui-kit/input/key-event.js';
import { contextOf } from '../commands/dispatch.js';
import { quitQuestion } from '../quit-question.js';
import { switchShopQuestion } from '../switch-shop-question.js';

/** A notice stays this long; errors stay until the next notice. */
const NOTICE_MS = 8_000;

/** The question's line, its recipient cut (name first) so that what it asks stays on the line. */
function sendQuestion(prompt: ConfirmSend, columns: number): string {
  const line = (before: string, after: string) =>
    `${before}${fittedRecipientLabel(prompt.target, columns - 1 - stringWidth(before) - stringWidth(after))}${after}`;
  if (prompt.checking) return line('Sending to ', ' once the thread is read again · esc: no');
  if (prompt.rereadFailed !== undefined) return line('Thread not read again: send to ', ' anyway? y/n');
  if (prompt.again) return line('Being replied to in another terminal: send to ', ' anyway? y/n');
  if (prompt.word !== undefined) return line('Send to ', `? Type ${prompt.word}, then enter · esc: no`);
  return line('Send to ', '? y/n');
}

function PromptText({ prompt }: { prompt: NonNullable<AppState['prompt']> }) {
  const theme = useTheme();
  const columns = useAppState((state) => state.columns);
  switch (prompt.kind) {
    case 'confirm-send': {
      const colour = prompt.checking
        ? theme.accent
        : prompt.again || prompt.rereadFailed !== undefined
          ? theme.warning
          : prompt.word !== undefined
            ? theme.danger
            : theme.accent;
      return (
        <Text color={colour} bold wrap="truncate-end">
          {sendQuestion(prompt, columns)}
        </Text>
      );
    }
    case 'confirm-approve':
      return (
        <Text color={theme.accent} bold wrap="truncate-end">
          Approve {prompt.label}? y/n · what it does is above
        </Text>
      );
    case 'confirm-switch-shop':
      return (
        <Text color={theme.warning} bold wrap="truncate-end">
          {switchShopQuestion(prompt)}
        </Text>
      );
    case 'confirm-quit':
      return (
        <Text color={theme.warning} bold wrap="truncate-end">
          {quitQuestion(prompt)}
        </Text>
      );
  }
}

function ConnectionText({
  connection,
  lastUpdate,
}: {
  connection: AppState['connection'];
  lastUpdate: number | undefined;
}) {
  const theme = useTheme();
  const now = useClockNow();
  const seconds = (at: number) => Math.max(0, Math.ceil((at - now) / 1000));
  switch (connection.state) {
    case 'ok':
      return null;
    case 'rate_limited':
      return connection.until > now ? (
        <Text color={theme.warning} wrap="truncate-end">
          rate limited by the shop's API — everything paused for {seconds(connection.until)} s ·{' '}
          {updatedAgo(lastUpdate, now)}
        </Text>
      ) : null;
    case 'offline':
    case 'server_error':
      return (
        <Text color={theme.danger} wrap="truncate-end">
          {connection.state === 'offline' ? 'offline' : "the shop's API is failing"} —{' '}
          {connection.retryAt > now ? `retrying in ${seconds(connection.retryAt)} s` : 'retrying now'} ·{' '}
          {updatedAgo(lastUpdate, now)} · {connection.message}
        </Text>
      );
  }
}

/** Why this inbox cannot write, when the shop says the key is read-only, and what changes it. */
function ReadOnlyKeyText({ keyMode }: { keyMode: AppState['keyMode'] }) {
  const theme = useTheme();
  const { keymap } = useServices();
  const said =
    keyMode.mode === 'read' && keyMode.how !== 'refused'
      ? 'Read-only: the shop says this API key cannot write.'
      : "Read-only: the shop's API refused a write with this key.";
  const refreshKey = keymap.keysOf('refresh.all')[0];
  // The mode is asked again only when the session learns it (keyMode known); else a new start is needed.
  const then =
    keyMode.mode === 'read'
      ? `the inbox asks again every ${DEFAULT_KEY_MODE_CHECK_MS / 60_000} min${refreshKey ? ` (${displayKey(refreshKey)}: now)` : ''}.`
      : 'then restart.';
  return (
    <Text color={theme.warning} wrap="truncate-end">
      {`${said} Turn on write mode in the shop's API settings; ${then}`}
    </Text>
  );
}

const TONE_ROLE = { info: undefined, success: 'success', warning: 'warning', error: 'danger' } as const;

function KeyHints() {
  const { keymap, commandContext } = useServices();
  // Which commands apply depends on the selection and the data; the line re-renders only when its text changes.
  const line = useAppState((state) =>
    hints(keymap, contextOf(state), commandContext())
      .map((hint) => `${hint.key} ${hint.hint}`)
      .join(' · '),
  );
  return (
    <Text dimColor wrap="truncate-end">
      {line}
    </Text>
  );
}

/** A notice, cut to the line if it must be, then saying where it is whole (the message log). */
function NoticeText({ notice }: { notice: NonNullable<AppState['notice']> }) {
  const { keymap } = useServices();
  const theme = useTheme();
  const columns = useAppState((s) => s.columns);
  const text = oneLine(notice.text);
  const role = TONE_ROLE[notice.tone];
  const color = role && theme[role] ? { color: theme[role] } : {};
  const logKey = keymap.keysOf('log')[0];
  const shownKey = logKey ? displayKey(logKey) : '';
  if (!logKey || stringWidth(text) <= columns - 1) {
    return (
      <Text wrap="truncate-end" {...color}>
        {text}
      </Text>
    );
  }
  return (
    <Box width="100%">
      <Box flexGrow={1} flexShrink={1} minWidth={0} overflow="hidden">
        <Text wrap="truncate-end" {...color}>
          {text}
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text dimColor> · {shownKey} whole message</Text>
      </Box>
    </Box>
  );
}

export function StatusBar() {
  const state = useAppState((s) => ({
    prompt: s.prompt,
    readOnlyReason: s.readOnlyReason,
    keyMode: s.keyMode,
    fatal: s.fatal,
    connection: s.connection,
    notice: s.notice,
    lastUpdate: s.me.updatedAt,
  }));
  const now = useClockNow();
  const notice =
    state.notice && (state.notice.tone === 'error' || now - state.notice.at < NOTICE_MS)
      ? state.notice
      : undefined;
  let first: React.ReactNode = null;
  if (state.prompt) first = <PromptText prompt={state.prompt} />;
  // On the full-screen stop nothing is retried: a connection state would contradict it.
  else if (state.connection.state !== 'ok' && !state.fatal)
    first = <ConnectionText connection={state.connection} lastUpdate={state.lastUpdate} />;
  if (!first && notice) {
    first = <NoticeText notice={notice} />;
  }
  if (!first && state.readOnlyReason === 'server') first = <ReadOnlyKeyText keyMode={state.keyMode} />;
  return (
    <Box flexDirection="column" height={2}>
      <Box height={1} overflow="hidden">
        {first ?? <Text> </Text>}
      </Box>
      <Box height={1} overflow="hidden">
        <KeyHints />
      </Box>
    </Box>
  );
}
