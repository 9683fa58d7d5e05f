/**
 * Orders and quick filters as commands: reviews unreplied first, lowest
 * rating first, only unreplied; the inbox same-day first. The highlight stays
 * on the record staff were on. A phone filter matches digits whatever the
 * formatting typed.
 */
import { describe, expect, it } from 'vitest';
import { inboxRows, reviewRows, selectedLead, selectedReview } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
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
