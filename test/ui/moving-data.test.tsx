/**
 * Acting on the record staff are looking at while the shop moves: the
 * simulator inserts leads, reviews and actions between key presses and the
 * lists are read again; the highlight stays on its record, and the text, the
 * draft and the approval go to that record. A record that leaves the list
 * hands the selection to its neighbour, and the inbox says so.
 */
import { describe, expect, it } from 'vitest';
import { selectedAction, selectedLead, selectedReview, threadLeadId } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { writesTo } from '../support/write-flows.js';
import { firstLoad, QUIET, selectedRow } from './nav-pane-helpers.js';

/** New records arrive at the service, and the list is read again (as the poller does on its own). */
async function arrive(
  tui: TestTui,
  kind: 'missed_call' | 'review' | 'action',
  count: number,
  ready: () => boolean,
) {
  for (let index = 0; index < count; index += 1) expect(tui.s.sim.inject(kind), kind).not.toBeNull();
  tui.session.poller.refreshAll();
  await tui.waitFor(() => ready());
}

const inboxIds = (tui: TestTui) => tui.state().inbox.open.data?.open_leads.map((lead) => lead.id) ?? [];

describe('a live list moves under the selection', () => {
  it('80×24: two new leads arrive above the selected one; c texts the lead that is highlighted', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jjj');
    const lead = selectedLead(tui.state());
    if (!lead) throw new Error('no lead');
    const before = inboxIds(tui).length;
    await arrive(tui, 'missed_call', 2, () => inboxIds(tui).length === before + 2);

    expect(selectedLead(tui.state())?.id).toBe(lead.id);
    expect(selectedRow(tui.state(), 'inbox')).toBe(5);
    expect(tui.frame()).toContain(oneLine(lead.contact_name).slice(0, 12));

    await tui.press('c');
    const contactId = tui.s.sim.shops.main.leads.find((each) => each.id === lead.id)?.contactId;
    await tui.waitFor((_frame, state) => state.composer?.contactId === contactId);
    await tui.press('Be there at 3');
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    // More arrive while the question is on screen: the answer still goes to the contact it names.
    await arrive(tui, 'missed_call', 1, () => inboxIds(tui).length === before + 3);
    await tui.press('y');
    await tui.waitFor((_frame, state) => state.outbox[0]?.state === 'sent');
    expect(await writesTo(tui, /\/messages$/)).toEqual([
      { method: 'POST', path: `/v1/contacts/${contactId}/messages`, status: 200 },
    ]);
  });

  it('120×40: the thread beside the inbox always shows the highlighted lead', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jj');
    const lead = selectedLead(tui.state());
    if (!lead) throw new Error('no lead');
    await tui.waitFor((frame) => frame.includes(`Thread — ${oneLine(lead.contact_name)}`));
    const before = inboxIds(tui).length;
    await arrive(tui, 'missed_call', 3, () => inboxIds(tui).length === before + 3);
    expect(selectedLead(tui.state())?.id).toBe(lead.id);
    expect(threadLeadId(tui.state())).toBe(lead.id);
    await tui.waitFor((frame) => frame.includes(`Thread — ${oneLine(lead.contact_name)}`));
    // Moving the selection moves the thread with it.
    await tui.press('j');
    const next = selectedLead(tui.state());
    await tui.waitFor((frame) => frame.includes(`Thread — ${oneLine(next?.contact_name)}`));
  });

  it('Reviews: new reviews arrive; d drafts a reply to the review that is highlighted', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => state.reviews.data !== undefined);
    await tui.press('3', 'jj');
    const review = selectedReview(tui.state());
    if (!review) throw new Error('no review');
    const count = () => tui.state().reviews.data?.items.length ?? 0;
    const before = tui.state().reviews.data?.items[0]?.id;
    await arrive(tui, 'review', 2, () => tui.state().reviews.data?.items[0]?.id !== before && count() > 0);
    expect(selectedReview(tui.state())?.id).toBe(review.id);
    await tui.press('d');
    await tui.waitFor((_frame, state) => state.drafts[review.id]?.state === 'done');
    expect(await writesTo(tui, /\/draft$/)).toEqual([
      { method: 'POST', path: `/v1/reviews/${review.id}/draft`, status: 200 },
    ]);
  });

  it('Actions: new actions arrive before a and between a and y; the approval goes to the action asked about', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => (state.actions.pending_approval.data?.items.length ?? 0) >= 2);
    await tui.press('4', 'j');
    const action = selectedAction(tui.state());
    if (!action) throw new Error('no action');
    const ids = () => tui.state().actions.pending_approval.data?.items.map((item) => item.id) ?? [];
    const before = ids().length;
    await arrive(tui, 'action', 1, () => ids().length === before + 1);
    expect(selectedAction(tui.state())?.id).toBe(action.id);
    await tui.press('a');
    await tui.waitFor(`${action.id}? y/n`);
    await arrive(tui, 'action', 1, () => ids().length === before + 2);
    await tui.press('y');
    await tui.waitFor((_frame, state) => state.decisions[action.id]?.state === 'done');
    expect(await writesTo(tui, /\/decide$/)).toEqual([
      { method: 'POST', path: `/v1/actions/${action.id}/decide`, status: 200 },
    ]);
  });

  it('the selected lead leaves the list: its neighbour is selected, and the inbox says so', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jjj');
    const lead = selectedLead(tui.state());
    const neighbour = tui.state().inbox.open.data?.open_leads[4];
    if (!lead || !neighbour) throw new Error('too few leads');
    const simLead = tui.s.sim.shops.main.leads.find((each) => each.id === lead.id);
    if (!simLead) throw new Error('lead not in the simulator');
    simLead.status = 'won';
    tui.session.poller.refreshVisible();
    await tui.waitFor(
      (_frame, state) => !state.inbox.open.data?.open_leads.some((each) => each.id === lead.id),
    );
    expect(selectedLead(tui.state())?.id).toBe(neighbour.id);
    await tui.waitFor(
      `The lead you had selected (${oneLine(lead.contact_name)}) left this list; now on ${oneLine(neighbour.contact_name)}.`,
    );
  });
});
