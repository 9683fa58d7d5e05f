/** What a user action needs: the one client, the store, and the poller to refresh what it changed. */
import type { ShopClient } from '../api/client.js';
import type { Poller } from '../poller/poller.js';
import type { AppStore, Notice } from '../store/app-store.js';

export interface ActionContext {
  client: ShopClient;
  store: AppStore;
  poller: Pick<Poller, 'invalidate'>;
  now: () => number;
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
