/**
 * What is new since staff last looked: leads, inbound texts, reviews and
 * pending actions that appeared after the first load. The first copy of each
 * list is the baseline (nothing is "new" at start-up); later copies mark the
 * ids not seen before, until staff leave the pane that shows them.
 */

export const SEEN_KINDS = ['leads', 'inbound', 'reviews', 'actions'] as const;
export type SeenKind = (typeof SEEN_KINDS)[number];

export interface SeenState {
  /** Ids observed so far (bounded), per kind; absent until the kind's first load. */
  known: Partial<Record<SeenKind, ReadonlySet<string>>>;
  /** Ids that arrived since staff last looked. */
  fresh: Record<SeenKind, ReadonlySet<string>>;
}

/** Enough to cover every list page (at most 100 items) many times over, small for a process that runs for days. */
const KNOWN_LIMIT = 2_000;

export function emptySeen(): SeenState {
  return {
    known: {},
    fresh: { leads: new Set(), inbound: new Set(), reviews: new Set(), actions: new Set() },
  };
}

/** Records the ids of a fresh copy of a list; returns the same object when nothing changed. */
export function observe(seen: SeenState, kind: SeenKind, ids: readonly string[]): SeenState {
  const known = seen.known[kind];
  if (!known) {
    return { ...seen, known: { ...seen.known, [kind]: new Set(ids) } };
  }
  const arrived = ids.filter((id) => !known.has(id));
  if (arrived.length === 0) return seen;
  const nextKnown = new Set(known);
  for (const id of arrived) nextKnown.add(id);
  for (const id of nextKnown) {
    if (nextKnown.size <= KNOWN_LIMIT) break;
    nextKnown.delete(id);
  }
  const fresh = new Set(seen.fresh[kind]);
  for (const id of arrived) fresh.add(id);
  return { known: { ...seen.known, [kind]: nextKnown }, fresh: { ...seen.fresh, [kind]: fresh } };
}

export function markSeen(seen: SeenState, kinds: readonly SeenKind[]): SeenState {
  if (kinds.every((kind) => seen.fresh[kind].size === 0)) return seen;
  const fresh = { ...seen.fresh };
  for (const kind of kinds) fresh[kind] = new Set();
  return { ...seen, fresh };
}

/** Inbound previews carry no id: their time and text identify them. */
export const inboundId = (preview: { occurred_at: string; body_preview: string }) =>
  `${preview.occurred_at}\u0000${preview.body_preview}`;
