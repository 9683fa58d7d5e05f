/**
 * What the wallboard shows, computed from the store: the oldest missed call
 * nobody answered, the newest inbound texts, and how fresh all of it is (its
 * four counts are the store's waitingCounts). No React here.
 */
import type { InboxLead } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';

/** The missed call with no reply that has waited longest (of the page read), if any. */
export function oldestMissedCall(state: AppState): InboxLead | undefined {
  const leads = state.inbox.callbacks.data?.open_leads ?? [];
  let oldest: InboxLead | undefined;
  let oldestAt = Number.POSITIVE_INFINITY;
  for (const lead of leads) {
    const at = Date.parse(lead.created_at);
    if (!Number.isNaN(at) && at < oldestAt) {
      oldest = lead;
      oldestAt = at;
    }
  }
  return oldest;
}

export interface InboundText {
  at: string;
  /** Who and what, as the service summarised it ("New text from Ana Ruiz: Is 9am ok?" shows as "Ana Ruiz: Is 9am ok?"). */
  text: string;
}

/** The newest inbound texts of today's activity, newest first. */
export function newestTexts(today: AppState['today'], limit: number): InboundText[] {
  const timeOf = (at: string) => {
    const time = Date.parse(at);
    return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
  };
  return (today.data?.activity ?? [])
    .filter((item) => String(item.kind) === 'sms_inbound')
    .sort((a, b) => timeOf(b.created_at) - timeOf(a.created_at))
    .slice(0, Math.max(0, limit))
    .map((item) => ({
      at: item.created_at,
      // Cut before the sanitizer and the screen see it: a summary can be as long as a server likes.
      text: item.summary.slice(0, 300).replace(/^New text from /, ''),
    }));
}

/** When the oldest of what the wallboard shows was read (undefined: nothing read yet). */
export function dataReadAt(state: AppState): number | undefined {
  const times = [state.me, state.inbox.open, state.inbox.callbacks, state.today]
    .map((loaded) => loaded.updatedAt)
    .filter((at): at is number => at !== undefined);
  return times.length === 0 ? undefined : Math.min(...times);
}

/** "45 s", "12 min", "2 h 14 min", "3 d 2 h": how long a customer has waited. */
export function waited(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
