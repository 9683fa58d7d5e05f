/**
 * What the shop's lists said about its threads since they were read, kept as times on this box's clock
 * (the time the copy that said it was asked for): when each latest inbound text was first listed, and when
 * a list last said a lead's thread changed. A thread copy asked for before such a time may miss the change
 * and is read again (src/store/conversation-picture.ts). What the lists say is worked out in
 * src/store/news-of-lists.ts.
 */

export interface ThreadNews {
  /** When this inbox first listed each latest inbound text (by inboundId), for the texts listed now. */
  listedAt: ReadonlyMap<string, number>;
  /** When a list last said a lead's thread changed, by lead id. */
  changedAt: ReadonlyMap<string, number>;
}

export const noThreadNews = (): ThreadNews => ({ listedAt: new Map(), changedAt: new Map() });

/** Leads whose change is remembered: many times the open leads of a small shop. */
export const CHANGES_KEPT = 500;

/** The news with these leads' threads changed at `at`; the same object when none changes. */
export function withChanges(news: ThreadNews, leadIds: Iterable<string>, at: number): ThreadNews {
  let changedAt: Map<string, number> | undefined;
  for (const id of leadIds) {
    if ((news.changedAt.get(id) ?? Number.NEGATIVE_INFINITY) >= at) continue;
    changedAt ??= new Map(news.changedAt);
    changedAt.delete(id);
    changedAt.set(id, at);
  }
  if (!changedAt) return news;
  for (const id of changedAt.keys()) {
    if (changedAt.size <= CHANGES_KEPT) break;
    changedAt.delete(id);
  }
  return { ...news, changedAt };
}
