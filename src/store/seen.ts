/**
 * What is new since staff last looked: leads, inbound texts, reviews and
 * pending actions that appeared after the first load. The first copy of each
 * list is the baseline (nothing is "new" at start-up); later copies mark the
 * ids not seen before. Each mark belongs to its item: it clears when staff
 * select or open that item (src/shell/new-marks.ts), or, on a read-only screen
 * nobody works at, after a while.
 */

export const SEEN_KINDS = ['leads', 'inbound', 'reviews', 'actions'] as const;
export type SeenKind = (typeof SEEN_KINDS)[number];

export interface SeenState {
  /** Ids observed so far (bounded), per kind; absent until the kind's first load. */
  known: Partial<Record<SeenKind, ReadonlySet<string>>>;
  /** Ids that arrived since staff last looked. */
  fresh: Record<SeenKind, ReadonlySet<string>>;
  /** When each fresh id was first seen (`kind:id`), for marks that fade. */
  arrivedAt: ReadonlyMap<string, number>;
  /** When each kind's first copy (the baseline) was observed: its ids were seen then. */
  firstSeenAt?: Partial<Record<SeenKind, number>>;
}

const arrivalKey = (kind: SeenKind, id: string) => `${kind}:${id}`;

/** Enough to cover every list page (at most 100 items) many times over, small for a process that runs for days. */
export const KNOWN_LIMIT = 2_000;

export function emptySeen(): SeenState {
  return {
    known: {},
    fresh: { leads: new Set(), inbound: new Set(), reviews: new Set(), actions: new Set() },
    arrivedAt: new Map(),
  };
}

/** Records the ids of a fresh copy of a list; returns the same object when nothing changed. */
export function observe(
  seen: SeenState,
  kind: SeenKind,
  ids: readonly string[],
  now: number = Date.now(),
): SeenState {
  const known = seen.known[kind];
  if (!known) {
    return {
      ...seen,
      known: { ...seen.known, [kind]: new Set(ids) },
      firstSeenAt: { ...seen.firstSeenAt, [kind]: now },
    };
  }
  const arrived = ids.filter((id) => !known.has(id));
  if (arrived.length === 0) return seen;
  const nextKnown = new Set(known);
  const fresh = new Set(seen.fresh[kind]);
  const arrivedAt = new Map(seen.arrivedAt);
  for (const id of arrived) {
    nextKnown.add(id);
    fresh.add(id);
    arrivedAt.set(arrivalKey(kind, id), now);
  }
  // The oldest go, their marks with them: an inbox left open for weeks with nobody selecting anything
  // holds at most KNOWN_LIMIT marks of a kind (each list page shows at most 100 items).
  for (const id of nextKnown) {
    if (nextKnown.size <= KNOWN_LIMIT) break;
    nextKnown.delete(id);
    fresh.delete(id);
    arrivedAt.delete(arrivalKey(kind, id));
  }
  return {
    ...seen,
    known: { ...seen.known, [kind]: nextKnown },
    fresh: { ...seen.fresh, [kind]: fresh },
    arrivedAt,
  };
}

/** Staff selected or opened these items: their marks go; the same object when none had one. */
export function markItemsSeen(seen: SeenState, kind: SeenKind, ids: readonly string[]): SeenState {
  const gone = ids.filter((id) => seen.fresh[kind].has(id));
  if (gone.length === 0) return seen;
  const fresh = new Set(seen.fresh[kind]);
  const arrivedAt = new Map(seen.arrivedAt);
  for (const id of gone) {
    fresh.delete(id);
    arrivedAt.delete(arrivalKey(kind, id));
  }
  return { ...seen, fresh: { ...seen.fresh, [kind]: fresh }, arrivedAt };
}

/** Marks older than `maxAgeMs` fade (a read-only wallboard: nobody selects anything there). */
export function fadeSeen(seen: SeenState, maxAgeMs: number, now: number): SeenState {
  let next = seen;
  for (const kind of SEEN_KINDS) {
    const old = [...seen.fresh[kind]].filter(
      (id) => now - (seen.arrivedAt.get(arrivalKey(kind, id)) ?? now) >= maxAgeMs,
    );
    next = markItemsSeen(next, kind, old);
  }
  return next;
}

export function markSeen(seen: SeenState, kinds: readonly SeenKind[]): SeenState {
  if (kinds.every((kind) => seen.fresh[kind].size === 0)) return seen;
  const fresh = { ...seen.fresh };
  const arrivedAt = new Map(seen.arrivedAt);
  for (const kind of kinds) {
    for (const id of fresh[kind]) arrivedAt.delete(arrivalKey(kind, id));
    fresh[kind] = new Set();
  }
  return { ...seen, fresh, arrivedAt };
}

/** Inbound previews carry no id: their time and text identify them. */
export const inboundId = (preview: { occurred_at: string; body_preview: string }) =>
  `${preview.occurred_at}\u0000${preview.body_preview}`;
