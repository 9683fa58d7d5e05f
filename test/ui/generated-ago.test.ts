/**
 * How long ago an action was generated, as the approval question says it: "just now" for the first ten
 * seconds (it said "now ago"), then "12m ago"; nothing in brackets for a time the server sent that is not one.
 * And how long a customer has waited, whole in the waiting list's column.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalFacts } from '../../src/panes/approval-question.js';
import type { AppState } from '../../src/store/app-store.js';
import { ago, dateTime, WAITED_FOR_WIDTH, waitedFor } from '../../src/ui-kit/format.js';

const NOW = Date.parse('2026-11-27T18:49:30Z');
const state = { draftedReplies: {} } as unknown as AppState;
const generated = (generatedAt: string) =>
  approvalFacts(state, { id: 'act_1', kind: 'follow_up_text', generated_at: generatedAt }, NOW).find(
    (fact) => fact.label === 'Generated',
  )?.text;

describe('how long ago', () => {
  it('is a phrase: just now, seconds, minutes, hours, days', () => {
    expect(ago('2026-11-27T18:49:25Z', NOW)).toBe('just now');
    expect(ago('2026-11-27T18:49:30Z', NOW)).toBe('just now');
    // A time a little ahead of this machine's clock is just now too.
    expect(ago('2026-11-27T18:49:40Z', NOW)).toBe('just now');
    expect(ago('2026-11-27T18:49:00Z', NOW)).toBe('30s ago');
    expect(ago('2026-11-27T18:37:30Z', NOW)).toBe('12m ago');
    expect(ago('2026-11-27T15:49:30Z', NOW)).toBe('3h ago');
    expect(ago('2026-11-20T18:49:30Z', NOW)).toBe('7d ago');
    expect(ago('not a time', NOW)).toBeUndefined();
    expect(ago(null, NOW)).toBeUndefined();
  });

  it('in the approval question: the time, then how long ago in brackets, never "now ago"', () => {
    expect(generated('2026-11-27T18:49:28Z')).toBe(`${dateTime('2026-11-27T18:49:28Z')} (just now)`);
    expect(generated('2026-11-27T18:37:30Z')).toBe(`${dateTime('2026-11-27T18:37:30Z')} (12m ago)`);
    expect(generated('yesterday-ish')).toBe('yesterday-ish');
  });
});

describe('how long a customer has waited', () => {
  it("fits the waiting list's column whole, for any wait", () => {
    expect(waitedFor(new Date(NOW - (46 * 60 + 31) * 60_000).toISOString(), NOW)).toBe('waiting 46 h 31 min');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 86_400_000 }), (waited) => {
        expect(waitedFor(new Date(NOW - waited).toISOString(), NOW).length).toBeLessThanOrEqual(
          WAITED_FOR_WIDTH,
        );
      }),
    );
  });
});
