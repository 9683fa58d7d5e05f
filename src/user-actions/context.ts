/** What a user action needs: the one client, the store, and the poller to refresh what it changed. */
import type { ShopClient } from '../api/client.js';
import type { Poller } from '../poller/poller.js';
import type { AppStore, Notice } from '../store/app-store.js';

/** Where what a write's answer says about the key's mode is told (src/session/key-mode.ts). */
export interface KeyModeWitness {
  /** The shop refused a write with 403 read_only. */
  refused(): void;
  /** The shop carried out a write. */
  accepted(): void;
}

export interface ActionContext {
  client: ShopClient;
  store: AppStore;
  poller: Pick<Poller, 'invalidate'>;
  now: () => number;
  /** When a 429's pause of every request ends, if one is on: a write then waits or is refused at once. */
  pausedUntil?: () => number | undefined;
  /** Told what each write's answer says about the key's mode (absent: a refusal only switches to read-only). */
  keyMode?: KeyModeWitness;
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
  if (context.keyMode) context.keyMode.refused();
  else enterReadOnly(context.store, context.client);
}

/**
 * The shop says the key cannot write: nothing but GET leaves the process, and what would write is
 * closed (typed text stays in `composed`). A question about quitting stays.
 */
export function enterReadOnly(store: AppStore, client: Pick<ShopClient, 'setReadOnly'>): void {
  client.setReadOnly(true);
  store.setState((state) => ({
    readOnly: true,
    readOnlyReason: 'server',
    ...(state.prompt && state.prompt.kind !== 'confirm-quit' ? { prompt: undefined } : {}),
    composer: undefined,
    composerWaiting: undefined,
    templatePicker: undefined,
  }));
}
