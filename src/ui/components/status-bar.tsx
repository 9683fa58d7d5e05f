/**
 * The bottom two lines: first a prompt, the connection state or the latest
 * notice; then the few keys that matter right now.
 */
import { Box, Text } from 'ink';
import type { AppState } from '../../store/app-store.js';
import { useAppState, useClockNow } from '../app-context.js';
import { oneLine, updatedAgo } from '../format.js';
import { type Binding, bindingsFor, COMPOSER_BINDINGS, PROMPT_BINDINGS, SEARCH_BINDINGS } from '../keymap.js';

/** A notice stays this long; errors stay until the next notice. */
const NOTICE_MS = 8_000;

function hintsFor(
  state: Pick<AppState, 'prompt' | 'composer' | 'searching' | 'focus' | 'readOnly' | 'fatal'>,
): Binding[] {
  if (state.fatal) return [{ keys: 'q', does: 'quit' }];
  if (state.prompt) return PROMPT_BINDINGS;
  if (state.composer) return COMPOSER_BINDINGS.filter((binding) => binding.hint);
  if (state.searching) return SEARCH_BINDINGS;
  return bindingsFor(state.focus, state.readOnly).filter((binding) => binding.hint);
}

function PromptText({ prompt }: { prompt: NonNullable<AppState['prompt']> }) {
  switch (prompt.kind) {
    case 'confirm-send':
      return (
        <Text color="cyan" bold wrap="truncate-end">
          Send to {oneLine(prompt.target.name)} ({oneLine(prompt.target.phone)})? y/n
        </Text>
      );
    case 'confirm-approve':
      return (
        <Text color="cyan" bold wrap="truncate-end">
          Approve {prompt.label}? It may publish a reply or send a held text. y/n
        </Text>
      );
    case 'confirm-quit':
      return (
        <Text color="yellow" bold wrap="truncate-end">
          {prompt.unsent === 1 ? 'A text is' : `${prompt.unsent} texts are`} typed or still sending. Quit
          anyway? y/n
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
  const now = useClockNow();
  const seconds = (at: number) => Math.max(0, Math.ceil((at - now) / 1000));
  switch (connection.state) {
    case 'ok':
      return null;
    case 'rate_limited':
      return connection.until > now ? (
        <Text color="yellow" wrap="truncate-end">
          rate limited by the shop's API — everything paused for {seconds(connection.until)} s ·{' '}
          {updatedAgo(lastUpdate, now)}
        </Text>
      ) : null;
    case 'offline':
    case 'server_error':
      return (
        <Text color="red" wrap="truncate-end">
          {connection.state === 'offline' ? 'offline' : "the shop's API is failing"} —{' '}
          {connection.retryAt > now ? `retrying in ${seconds(connection.retryAt)} s` : 'retrying now'} ·{' '}
          {updatedAgo(lastUpdate, now)} · {connection.message}
        </Text>
      );
  }
}

const TONE_COLOR = { info: undefined, success: 'green', warning: 'yellow', error: 'red' } as const;

export function StatusBar() {
  const state = useAppState((s) => ({
    prompt: s.prompt,
    composer: s.composer,
    searching: s.searching,
    focus: s.focus,
    readOnly: s.readOnly,
    readOnlyReason: s.readOnlyReason,
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
  else if (state.connection.state !== 'ok')
    first = <ConnectionText connection={state.connection} lastUpdate={state.lastUpdate} />;
  if (!first && notice) {
    first = (
      <Text wrap="truncate-end" {...(TONE_COLOR[notice.tone] ? { color: TONE_COLOR[notice.tone] } : {})}>
        {oneLine(notice.text)}
      </Text>
    );
  }
  if (!first && state.readOnlyReason === 'server') {
    first = (
      <Text color="yellow" wrap="truncate-end">
        Read-only: the shop's API refused a write with this key. Turn on write mode in the shop's API
        settings, then restart.
      </Text>
    );
  }
  return (
    <Box flexDirection="column" height={2}>
      <Box height={1} overflow="hidden">
        {first ?? <Text> </Text>}
      </Box>
      <Box height={1} overflow="hidden">
        <Text dimColor wrap="truncate-end">
          {hintsFor(state)
            .map((binding) => `${binding.keys.split(' ')[0]} ${binding.hint}`)
            .join(' · ')}
        </Text>
      </Box>
    </Box>
  );
}
