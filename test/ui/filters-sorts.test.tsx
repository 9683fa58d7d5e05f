/**
 * Orders and quick filters as commands: reviews unreplied first, lowest
 * rating first, only unreplied; the inbox same-day first. The highlight stays
 * on the record staff were on. A phone filter matches digits whatever the
 * formatting typed.
 */
import { describe, expect, it } from 'vitest';
import { inboxRows, reviewRows, selectedLead, selectedReview } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, plain, QUIET } from './nav-pane-helpers.js';

describe('orders and quick filters', () => {
  it('reviews: o orders unreplied first, then lowest rating first; u shows only the unreplied', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('3');
    await tui.waitFor(/Reviews \(\d+, \d+ unreplied\)/);
    const all = tui.state().reviews.data?.items ?? [];
    const unreplied = all.filter((review) => review.replied_at === null);
    expect(unreplied.length).toBeGreaterThan(0);
    expect(unreplied.length).toBeLessThan(all.length);
    // On a replied review somewhere down the list: the highlight must stay on it.
    const replied = all.findIndex((review) => review.replied_at !== null);
    await tui.press(...Array.from({ length: replied }, () => 'j'));
    const onReview = selectedReview(tui.state());

    await tui.press('o');
    let frame = plain(await tui.waitFor('· unreplied first'));
    let rows = reviewRows(tui.state());
    expect(rows.slice(0, unreplied.length).every((review) => review.replied_at === null)).toBe(true);
    expect(rows.slice(unreplied.length).every((review) => review.replied_at !== null)).toBe(true);
    expect(selectedReview(tui.state())?.id).toBe(onReview?.id);
    // The first row on screen is an unreplied review.
    const firstRow = frame.split('\n').find((line) => /[★☆]/.test(line) && /replied/.test(line)) ?? '';
    expect(firstRow).toContain('unreplied');

    await tui.press('o');
    frame = plain(await tui.waitFor('· lowest rating first'));
    rows = reviewRows(tui.state());
    const ratings = rows.map((review) => review.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    expect(selectedReview(tui.state())?.id).toBe(onReview?.id);

    await tui.press('u');
    frame = plain(await tui.waitFor('· unreplied only'));
    rows = reviewRows(tui.state());
    expect(rows.map((review) => review.id).sort()).toEqual(unreplied.map((review) => review.id).sort());
    expect(frame).toContain(`(${unreplied.length} shown of ${all.length}`);
    // The replied review staff were on left the list because they asked (a choice of the pane): nothing says it left.
    expect(tui.state().log.filter((notice) => notice.text.includes('left this list'))).toEqual([]);
    await tui.press('u', 'o');
    await tui.waitFor((f) => /│ Reviews \(\d+, \d+ unreplied\) · /.test(plain(f)));
    expect(reviewRows(tui.state()).map((review) => review.id)).toEqual(all.map((review) => review.id));
  });

  it('inbox: o puts same-day leads first, keeping the highlighted lead', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const leads = tui.state().inbox.open.data?.open_leads ?? [];
    const sameDay = leads.filter((lead) => String(lead.urgency) === 'same_day');
    expect(sameDay.length).toBeGreaterThan(0);
    expect(String(leads[0]?.urgency)).not.toBe('same_day');
    await tui.press('j', 'j');
    const onLead = selectedLead(tui.state());
    await tui.press('o');
    await tui.waitFor('· same-day first');
    const rows = inboxRows(tui.state());
    expect(rows.slice(0, sameDay.length).map((lead) => lead.id)).toEqual(sameDay.map((lead) => lead.id));
    expect(selectedLead(tui.state())?.id).toBe(onLead?.id);
  });

  it('callbacks: o orders them waiting longest first, keeping the highlighted lead; a new missed call goes last', async () => {
    const s = await startSim();
    const tui = await startTui({ sim: s, columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('f');
    await tui.waitFor(
      (frame, state) => state.inbox.callbacks.data !== undefined && plain(frame).includes('missed calls'),
    );
    const listed = tui.state().inbox.callbacks.data?.open_leads ?? [];
    expect(listed.length).toBeGreaterThan(2);
    const times = listed.map((lead) => Date.parse(lead.created_at));
    // The service lists the newest first: the oldest is its last.
    expect(times[0]).toBeGreaterThan(times.at(-1) ?? 0);
    await tui.press('j');
    const onLead = selectedLead(tui.state());

    await tui.press('o');
    const frame = plain(await tui.waitFor('· waiting longest first'));
    let rows = inboxRows(tui.state());
    const shownTimes = rows.map((lead) => Date.parse(lead.created_at));
    expect(shownTimes).toEqual([...shownTimes].sort((a, b) => a - b));
    expect(rows.map((lead) => lead.id).sort()).toEqual(listed.map((lead) => lead.id).sort());
    expect(selectedLead(tui.state())?.id).toBe(onLead?.id);
    // The first row on screen is the caller who has waited longest.
    const firstRow = frame.split('\n').find((line) => /\+\d{11}/.test(line) && !line.includes('—')) ?? '';
    expect(firstRow).toContain(listed.at(-1)?.caller_phone);
    expect(tui.state().log.at(-1)?.text).toBe('Inbox: waiting longest first.');

    // A call missed now waits least: it joins at the end, and the order holds.
    s.sim.inject('missed_call');
    await tui.press('r');
    await tui.waitFor(
      (_, state) => (state.inbox.callbacks.data?.open_leads.length ?? 0) === listed.length + 1,
    );
    rows = inboxRows(tui.state());
    const newest = tui.state().inbox.callbacks.data?.open_leads[0];
    expect(rows.at(-1)?.id).toBe(newest?.id);
    expect(selectedLead(tui.state())?.id).toBe(onLead?.id);

    // Then the same-day callbacks first, then the service's order again.
    await tui.press('o');
    await tui.waitFor('· same-day first');
    await tui.press('o');
    await tui.waitFor(
      (frame, state) => state.inboxOrder === 'newest' && !plain(frame).includes('· same-day first'),
    );
    expect(inboxRows(tui.state()).map((lead) => lead.id)).toEqual(
      tui.state().inbox.callbacks.data?.open_leads.map((lead) => lead.id),
    );
  });

  it('a phone filter matches the digits whatever the formatting', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const lead = tui.state().inbox.open.data?.open_leads[3];
    if (!lead) throw new Error('no lead');
    const phone = lead.caller_phone;
    expect(phone).toMatch(/^\+1\d{10}$/);
    // As staff read it off a sticky note: "(503) 555-0105".
    const typed = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    await tui.press('/', typed, KEYS.enter);
    const rows = inboxRows(tui.state());
    expect(rows.map((row) => row.caller_phone)).toContain(phone);
    expect(rows.every((row) => row.caller_phone === phone)).toBe(true);
    expect(plain(tui.frame())).toContain(oneLine(lead.contact_name).slice(0, 10));
    // Part of the number, with dots, finds it too.
    await tui.press(KEYS.escape, '/', `${phone.slice(5, 8)}.${phone.slice(8)}`, KEYS.enter);
    expect(inboxRows(tui.state()).map((row) => row.id)).toContain(lead.id);
  });
});
