/**
 * The inbox's orders over any list the service could send: every lead kept once, "oldest first" by the time
 * each lead came (a time that does not parse last), "same-day first" keeping the service's order within groups.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InboxLead } from '../../src/contract/resources.js';
import { type AppState, type InboxOrder, initialState } from '../../src/store/app-store.js';
import { inboxRows } from '../../src/store/selectors.js';

const leadArb = fc.record({
  id: fc.uuid(),
  status: fc.constant('new'),
  urgency: fc.constantFrom('same_day', 'flexible', 'this_week'),
  contact_name: fc.string(),
  caller_phone: fc.constant('+15035550100'),
  job_type: fc.string(),
  created_at: fc.oneof(
    fc
      .integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2026-12-31T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString()),
    fc.constant('not a time'),
  ),
}) as fc.Arbitrary<InboxLead>;

function stateWith(leads: InboxLead[], order: InboxOrder): AppState {
  const state = initialState();
  return {
    ...state,
    inboxFilter: 'callbacks',
    inboxOrder: order,
    inbox: {
      ...state.inbox,
      callbacks: {
        ...state.inbox.callbacks,
        data: { filter: 'callbacks', open_leads: leads, latest_inbound: [] },
      },
    },
  };
}

const key = (lead: InboxLead) => Date.parse(lead.created_at) || Number.MAX_SAFE_INTEGER;

describe('inbox orders', () => {
  it('oldest first: the same leads, by the time each came, unparseable times last', () => {
    fc.assert(
      fc.property(fc.uniqueArray(leadArb, { selector: (lead) => lead.id, maxLength: 40 }), (leads) => {
        const rows = inboxRows(stateWith(leads, 'oldest'));
        expect(rows.map((lead) => lead.id).sort()).toEqual(leads.map((lead) => lead.id).sort());
        for (let i = 1; i < rows.length; i++)
          expect(key(rows[i - 1] as InboxLead)).toBeLessThanOrEqual(key(rows[i] as InboxLead));
      }),
    );
  });

  it('same-day first: the same-day leads, then the others, each in the order the service gave', () => {
    fc.assert(
      fc.property(fc.uniqueArray(leadArb, { selector: (lead) => lead.id, maxLength: 40 }), (leads) => {
        const rows = inboxRows(stateWith(leads, 'same-day'));
        const isSameDay = (lead: InboxLead) => String(lead.urgency) === 'same_day';
        expect(rows).toEqual([...leads.filter(isSameDay), ...leads.filter((lead) => !isSameDay(lead))]);
      }),
    );
  });

  it("newest: the service's order untouched", () => {
    fc.assert(
      fc.property(fc.array(leadArb, { maxLength: 40 }), (leads) => {
        expect(inboxRows(stateWith(leads, 'newest'))).toEqual(leads);
      }),
    );
  });
});
