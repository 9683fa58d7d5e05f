/** What a user action needs: the one client, the store, and the poller to refresh what it changed. */
import type { ShopClient } from '../api/client.js';
import type { Poller } from '../poller/poller.js';
import type { AppStore, Notice } from '../store/app-store.js';

export interface ActionContext {
  client: ShopClient;
  store: AppStore;
  poller: Pick<Poller, 'invalidate'>;
  now: () => number;
  /** When a 429's pause of every request ends, if one is on: a write then waits or is refused at once. */
  pausedUntil?: () => number | undefined;
}

/** "rate limited: try again in 12 s" when every request is paused, else undefined. */
export function pausedMessage(context: ActionContext): string | undefined {
  const until = context.pausedUntil?.();
  if (until === undefined) return undefined;
  const seconds = Math.max(1, Math.ceil((until - context.now()) / 1000));
  return `the shop's API asked for a pause (rate limited): try again in ${seconds} s.`;
}

export function notify(context: ActionContext, text: string, tone: Notice['tone'] = 'info'): void {
  context.store.setState({ notice: { text, tone, at: context.now() } });
}

/** A write refused with 403 read_only: the key cannot write, so stop offering writes. */
export function enterReadOnlyFromServer(context: ActionContext): void {
  context.client.setReadOnly(true);
  context.store.setState({
    readOnly: true,
    readOnlyReason: 'server',
    prompt: undefined,
    composer: undefined,
  });
}
