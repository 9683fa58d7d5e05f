/**
 * Read and done, which the API has neither of: kept by this inbox per shop
 * and key, for this machine's user (a file in the state directory, shared
 * with the user's other terminals through the hub).
 *
 * Each mark is a time: the newest inbound text of the lead's thread when
 * staff had it open (read) or marked it done. A conversation is unread while
 * its newest inbound text is newer than its read mark, and done while its
 * done mark is at least its newest inbound text: a newer text from the
 * customer makes it unread and waiting again, with nothing to undo. Marks
 * only grow, so two terminals' copies merge by taking the later of each,
 * in any order, any number of times, to the same result.
 */
import * as z from 'zod';

export interface ConversationMark {
  /** The newest inbound text (ms) staff had in front of them in the thread. */
  read?: number;
  /** The newest inbound text (ms) when staff marked the conversation done. */
  done?: number;
}

export interface ConversationMarks {
  /**
   * The newest inbound text the shop listed when this user's inbox first kept marks for it (ms): it and older
   * texts count as read (an inbox started for the first time does not call every old conversation unread).
   * Absent: not known yet.
   */
  since?: number;
  leads: Readonly<Record<string, ConversationMark>>;
}

/** Far more than the open leads of a small shop; the marks touched longest ago go first. */
export const MARKS_LIMIT = 2_000;

export const noMarks = (): ConversationMarks => ({ leads: {} });

const later = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

const newestOf = (mark: ConversationMark) => Math.max(mark.read ?? 0, mark.done ?? 0);

/** At most `limit` leads: those whose newest mark is oldest go (ties: by id, so every terminal keeps the same). */
export function boundMarks(marks: ConversationMarks, limit = MARKS_LIMIT): ConversationMarks {
  const ids = Object.keys(marks.leads);
  if (ids.length <= limit) return marks;
  const kept = ids
    .map((id) => [id, marks.leads[id] as ConversationMark] as const)
    .sort(([a, x], [b, y]) => newestOf(y) - newestOf(x) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
  return { ...marks, leads: Object.fromEntries(kept) };
}

function withMark(
  marks: ConversationMarks,
  leadId: string,
  field: keyof ConversationMark,
  at: number,
): ConversationMarks {
  if (!Number.isFinite(at)) return marks;
  const mark = marks.leads[leadId] ?? {};
  const current = mark[field];
  if (current !== undefined && current >= at) return marks;
  return boundMarks({ ...marks, leads: { ...marks.leads, [leadId]: { ...mark, [field]: at } } });
}

/** Staff had the thread open with its newest inbound text at `newestInbound`; the same object when nothing changed. */
export const markRead = (marks: ConversationMarks, leadId: string, newestInbound: number) =>
  withMark(marks, leadId, 'read', newestInbound);

/** Staff marked the conversation done; the same object when nothing changed. */
export const markDone = (marks: ConversationMarks, leadId: string, newestInbound: number) =>
  withMark(marks, leadId, 'done', newestInbound);

/** Both copies at once: the later of each mark, the earlier start. Commutative, associative, idempotent. */
export function mergeMarks(a: ConversationMarks, b: ConversationMarks): ConversationMarks {
  const since =
    a.since === undefined ? b.since : b.since === undefined ? a.since : Math.min(a.since, b.since);
  const leads: Record<string, ConversationMark> = { ...a.leads };
  let changed = since !== a.since;
  for (const [id, mark] of Object.entries(b.leads)) {
    const mine = leads[id] ?? {};
    const read = later(mine.read, mark.read);
    const done = later(mine.done, mark.done);
    if (read === mine.read && done === mine.done) continue;
    changed = true;
    leads[id] = { ...(read !== undefined ? { read } : {}), ...(done !== undefined ? { done } : {}) };
  }
  if (!changed) return a;
  return boundMarks({ ...(since !== undefined ? { since } : {}), leads });
}

/** The marks of `next` that `previous` lacks (what a terminal tells the others). */
export function marksAdded(previous: ConversationMarks, next: ConversationMarks): ConversationMarks {
  const leads: Record<string, ConversationMark> = {};
  for (const [id, mark] of Object.entries(next.leads)) {
    const old = previous.leads[id];
    if (old?.read !== mark.read || old?.done !== mark.done) leads[id] = mark;
  }
  return {
    ...(next.since !== undefined && next.since !== previous.since ? { since: next.since } : {}),
    leads,
  };
}

/** An inbound text of this time is unread: newer than the lead's read mark and than the marks' start. */
export function isUnread(marks: ConversationMarks, leadId: string, inboundAt: number): boolean {
  if (marks.since === undefined || !Number.isFinite(inboundAt) || inboundAt <= marks.since) return false;
  const read = marks.leads[leadId]?.read;
  return read === undefined || inboundAt > read;
}

/** Marked done since the customer's newest text. */
export function isDone(marks: ConversationMarks, leadId: string, newestInbound: number): boolean {
  const done = marks.leads[leadId]?.done;
  return done !== undefined && done >= newestInbound;
}

/**
 * Marks that have no start yet take it from the first inbox read: the newest inbound text the shop lists then
 * (0 when it lists none). Texts from then on are unread until opened. The service's clock, not this box's:
 * a box whose clock is off still calls the next text unread.
 */
export function withStart(
  marks: ConversationMarks,
  latestInbound: ReadonlyArray<{ occurred_at: string }>,
): ConversationMarks {
  if (marks.since !== undefined) return marks;
  const times = latestInbound.map((preview) => Date.parse(preview.occurred_at)).filter(Number.isFinite);
  return { ...marks, since: Math.max(0, ...times) };
}

const MarkTime = z.number().finite().nonnegative();

/** Marks as a file or a hub carries them: checked like anything else read (bounded, nothing but times). */
export const ConversationMarksSchema = z.object({
  since: MarkTime.optional(),
  leads: z
    .record(z.string().min(1).max(200), z.object({ read: MarkTime.optional(), done: MarkTime.optional() }))
    .refine((leads) => Object.keys(leads).length <= MARKS_LIMIT, {
      message: `more than ${MARKS_LIMIT} leads`,
    }),
});

/** Parsed marks without the absent fields zod leaves as undefined. */
export function marksFrom(parsed: z.infer<typeof ConversationMarksSchema>): ConversationMarks {
  const leads: Record<string, ConversationMark> = {};
  for (const [id, mark] of Object.entries(parsed.leads)) {
    if (mark.read === undefined && mark.done === undefined) continue;
    leads[id] = {
      ...(mark.read !== undefined ? { read: mark.read } : {}),
      ...(mark.done !== undefined ? { done: mark.done } : {}),
    };
  }
  return { ...(parsed.since !== undefined ? { since: parsed.since } : {}), leads };
}
