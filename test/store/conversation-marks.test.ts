/**
 * Read and done kept locally (src/store/conversation-marks.ts): the marks of
 * two terminals merge to the same result in any order, a mark never goes back,
 * and a newer text from the customer makes a done conversation waiting again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientMessage, HubMessage, MAX_CLIENT_LINE_BYTES, marksInLines } from '../../src/hub/protocol.js';
import {
  boundMarks,
  type ConversationMarks,
  isDone,
  isUnread,
  MARKS_LIMIT,
  markDone,
  markRead,
  marksAdded,
  mergeMarks,
} from '../../src/store/conversation-marks.js';

const time = fc.integer({ min: 0, max: 2_000_000_000_000 });
const leadId = fc.constantFrom('lead_a', 'lead_b', 'lead_c', 'lead_d', 'lead_e');
const mark = fc.record({
  read: fc.option(time, { nil: undefined }),
  done: fc.option(time, { nil: undefined }),
});
const marks: fc.Arbitrary<ConversationMarks> = fc
  .record({
    since: fc.option(time, { nil: undefined }),
    leads: fc.dictionary(leadId, mark),
  })
  .map(({ since, leads }) => ({
    ...(since !== undefined ? { since } : {}),
    leads: Object.fromEntries(
      Object.entries(leads).map(([id, m]) => [
        id,
        {
          ...(m.read !== undefined ? { read: m.read } : {}),
          ...(m.done !== undefined ? { done: m.done } : {}),
        },
      ]),
    ),
  }));

/** The same marks, whatever the order of their keys (a lead with no mark is no mark). */
const normal = (value: ConversationMarks) => ({
  since: value.since,
  leads: Object.fromEntries(
    Object.keys(value.leads)
      .filter((id) => value.leads[id]?.read !== undefined || value.leads[id]?.done !== undefined)
      .sort()
      .map((id) => [id, { read: value.leads[id]?.read, done: value.leads[id]?.done }]),
  ),
});

describe('conversation marks', () => {
  it('two copies merge to the same marks in any order, any number of times', () => {
    fc.assert(
      fc.property(marks, marks, marks, (a, b, c) => {
        expect(normal(mergeMarks(a, b))).toEqual(normal(mergeMarks(b, a)));
        expect(normal(mergeMarks(mergeMarks(a, b), c))).toEqual(normal(mergeMarks(a, mergeMarks(b, c))));
        expect(normal(mergeMarks(mergeMarks(a, b), b))).toEqual(normal(mergeMarks(a, b)));
        // Nothing new: the same object (the store is not touched).
        const merged = mergeMarks(a, b);
        expect(mergeMarks(merged, a)).toBe(merged);
      }),
    );
  });

  it('a merge keeps the later of each mark and the earlier start', () => {
    fc.assert(
      fc.property(marks, marks, (a, b) => {
        const merged = mergeMarks(a, b);
        for (const id of new Set([...Object.keys(a.leads), ...Object.keys(b.leads)])) {
          for (const field of ['read', 'done'] as const) {
            const values = [a.leads[id]?.[field], b.leads[id]?.[field]].filter((v) => v !== undefined);
            expect(merged.leads[id]?.[field]).toBe(values.length ? Math.max(...values) : undefined);
          }
        }
        const starts = [a.since, b.since].filter((v) => v !== undefined);
        expect(merged.since).toBe(starts.length ? Math.min(...starts) : undefined);
      }),
    );
  });

  it('what a terminal tells the others brings them to its marks', () => {
    fc.assert(
      fc.property(marks, marks, (previous, other) => {
        const next = mergeMarks(previous, other);
        expect(normal(mergeMarks(previous, marksAdded(previous, next)))).toEqual(normal(next));
      }),
    );
  });

  it('done holds until a newer text from the customer; read likewise; a mark never goes back', () => {
    fc.assert(
      fc.property(marks, leadId, time, time, (start, id, at, later) => {
        const done = markDone(start, id, at);
        expect(isDone(done, id, at)).toBe(true);
        expect(isDone(done, id, at + 1 + (later % 1_000))).toBe(
          (start.leads[id]?.done ?? -1) >= at + 1 + (later % 1_000),
        );
        expect(done.leads[id]?.done).toBe(Math.max(at, start.leads[id]?.done ?? at));
        const read = markRead({ ...start, since: 0 }, id, at);
        expect(isUnread(read, id, at)).toBe(false);
        expect(isUnread(read, id, Math.max(at, read.leads[id]?.read ?? 0) + 1)).toBe(true);
        // Marking an earlier text changes nothing.
        expect(markDone(done, id, at - 1)).toBe(done);
      }),
    );
  });

  it('texts up to the start are never unread (a first start calls nothing unread)', () => {
    fc.assert(
      fc.property(time, time, leadId, (since, at, id) => {
        expect(isUnread({ since, leads: {} }, id, at)).toBe(at > since);
        expect(isUnread({ leads: {} }, id, at)).toBe(false);
      }),
    );
  });

  it('holds at most the limit, keeping the most recently marked', () => {
    const many: ConversationMarks = {
      leads: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`lead_${i}`, { read: i * 10 }])),
    };
    const bounded = boundMarks(many, 4);
    expect(Object.keys(bounded.leads).sort()).toEqual(['lead_6', 'lead_7', 'lead_8', 'lead_9']);
    expect(boundMarks(bounded, 4)).toBe(bounded);
  });
});

describe('marks from a file or a hub', () => {
  it('are only times and bounded lead ids: anything else does not parse (the hub drops such a terminal)', () => {
    const good = { since: 1, leads: { lead_a: { read: 2, done: 3 } } };
    expect(ClientMessage.safeParse({ t: 'marks', marks: good }).success).toBe(true);
    expect(HubMessage.safeParse({ t: 'marks', marks: good }).success).toBe(true);
    for (const marks of [
      { leads: { lead_a: { read: -1 } } },
      { leads: { lead_a: { done: 'soon' } } },
      { leads: { '': { read: 1 } } },
      { leads: { ['x'.repeat(201)]: { read: 1 } } },
      { since: Number.POSITIVE_INFINITY, leads: {} },
      {
        leads: Object.fromEntries(
          Array.from({ length: MARKS_LIMIT + 1 }, (_, i) => [`lead_${i}`, { read: i }]),
        ),
      },
    ])
      expect(ClientMessage.safeParse({ t: 'marks', marks }).success, JSON.stringify(marks).slice(0, 80)).toBe(
        false,
      );
  });

  it('a terminal tells them in lines a hub reads (at most MARKS_PER_LINE leads, the start on the first)', () => {
    const many: ConversationMarks = {
      since: 7,
      leads: Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`lead_${i}`, { read: i }])),
    };
    const lines = marksInLines(many);
    expect(lines.map((line) => Object.keys(line.leads).length)).toEqual([200, 200, 50]);
    expect(lines.map((line) => line.since)).toEqual([7, undefined, undefined]);
    expect(normal(lines.reduce(mergeMarks, { leads: {} }))).toEqual(normal(many));
    for (const line of lines)
      expect(Buffer.byteLength(JSON.stringify({ t: 'marks', marks: line }))).toBeLessThan(
        MAX_CLIENT_LINE_BYTES,
      );
    expect(marksInLines({ leads: {} })).toEqual([{ leads: {} }]);
  });
});
