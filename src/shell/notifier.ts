/**
 * Tells staff, or the room, that a customer is waiting: the window title
 * carries the counts (written only when they change), and each item that
 * arrives after start-up can raise a desktop notification through the
 * terminal (passed through tmux when inside it, so it reaches the user's own
 * machine over SSH) and ring the bell. Which of these, and for which
 * events, comes from the config's `notify`.
 */
import type { AppState, AppStore } from '../store/app-store.js';
import { createArrivals, NOTIFY_EVENTS, type NotifyEvent } from '../store/arrivals.js';
import { waitingCounts } from '../store/counts.js';
import { BELL, desktopNotification, titleSequence } from '../ui-kit/terminal-signals.js';

export interface NotifySettings {
  title: boolean;
  desktop: boolean;
  bell: boolean;
  events: readonly NotifyEvent[];
}

export interface NotifyConfig {
  title?: boolean | undefined;
  desktop?: boolean | undefined;
  bell?: boolean | undefined;
  events?: readonly NotifyEvent[] | undefined;
}

/** The config's choices over the defaults: the title in the inbox; everything on the wallboard. */
export function notifySettings(config: NotifyConfig | undefined, wallboard: boolean): NotifySettings {
  return {
    title: config?.title ?? true,
    desktop: config?.desktop ?? wallboard,
    bell: config?.bell ?? wallboard,
    events: config?.events ?? NOTIFY_EVENTS,
  };
}

/** "shop-inbox · 3 callbacks · 1 same-day", once the counts are known. */
export function titleOf(state: AppState): string | undefined {
  const counts = waitingCounts(state);
  if (counts.missed === '-' || counts.sameDay === '-') return undefined;
  return `shop-inbox · ${counts.missed} ${counts.missed === '1' ? 'callback' : 'callbacks'} · ${counts.sameDay} same-day`;
}

export interface NotifierOptions {
  store: AppStore;
  settings: NotifySettings;
  /** Writes to the terminal (never throws). */
  write(text: string): void;
  /** Inside tmux ($TMUX set): notifications are wrapped for passthrough. */
  tmux: boolean;
}

/** Watches the store until stopped. */
export function startNotifier({ store, settings, write, tmux }: NotifierOptions): () => void {
  const arrivals = createArrivals();
  const wanted = new Set(settings.events);
  let lastTitle: string | undefined;
  let countsFrom: unknown[] = [];
  const onChange = (state: AppState) => {
    // Most changes are keys and frames: the counts are looked at only when a read brought new ones.
    const from = [state.me.data, state.inbox.open.data, state.inbox.callbacks.data];
    const newCounts = from.some((data, index) => data !== countsFrom[index]);
    countsFrom = from;
    if (settings.title && newCounts) {
      const title = titleOf(state);
      if (title !== undefined && title !== lastTitle) {
        lastTitle = title;
        write(titleSequence(title));
      }
    }
    const news = arrivals(state).filter((arrival) => wanted.has(arrival.event));
    if (news.length === 0) return;
    if (settings.desktop) write(news.map((arrival) => desktopNotification(arrival.text, { tmux })).join(''));
    if (settings.bell) write(BELL);
  };
  onChange(store.getState());
  return store.subscribe(onChange);
}
