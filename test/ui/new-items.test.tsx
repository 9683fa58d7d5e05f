/**
 * "New since last seen": after the first load, what arrives (a lead, an
 * inbound text, a review, an agent action) is counted on its pane's tab and
 * marked ● in its list. The mark belongs to the item: it clears when staff
 * select it (or open the thread it belongs to), never by leaving a pane; on a
 * read-only screen marks fade after a set time.
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/sim/live.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { selectLeadByPhone, startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

/** The tab bar's line. */
const tabLine = (frame: string) => lines(frame).find((line) => line.includes('1 Inbox')) ?? '';

/** Live events until one of this kind happens (the simulator is seeded: this is deterministic). */
function tickUntil(tui: TestTui, kind: LiveEvent['kind']): LiveEvent[] {
  const events: LiveEvent[] = [];
  for (let i = 0; i < 100; i++) {
    const event = tui.s.sim.tick();
    events.push(event);
    if (event.kind === kind) return events;
  }
  throw new Error(`no ${kind} event in 100 ticks`);
}

const markedLines = (frame: string) => lines(frame).filter((line) => /^│ ?●/.test(line));

async function started() {
  // Wide enough for the tab bar to spell out "(N new)" on every tab at once (narrower, it shows "●N").
  const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
  await firstLoad(tui, startupLoaded);
  // Nothing is new at start-up: the first copy of each list is the baseline.
  expect(tabLine(tui.frame())).not.toContain('new)');
  expect(plain(tui.frame())).not.toContain('●');
  return tui;
}

describe('new since last seen', () => {
  it('a new lead is counted and marked ● after R; leaving the inbox keeps it; selecting it clears it', async () => {
    const tui = await started();
    tickUntil(tui, 'missed_call');
    const shop = tui.s.sim.shops.main;
    const lead = shop.leads.at(-1);
    const contact = shop.contacts.find((candidate) => candidate.id === lead?.contactId);
    if (!lead || !contact) throw new Error('the missed call made no lead');
    // Nothing shows until the app reads again.
    expect(tabLine(tui.frame())).not.toContain('new)');

    await tui.press('R');
    const frame = plain(await tui.waitFor((f) => /1 Inbox \(\d+ new\)/.test(tabLine(f))));
    const fresh = tui.state().seen.fresh;
    expect([...fresh.leads]).toEqual([lead.id]);
    const count = Number(/1 Inbox \((\d+) new\)/.exec(tabLine(frame))?.[1]);
    expect(count).toBe(fresh.leads.size + fresh.inbound.size);
    // The new lead is at the top, marked; the leads that were there before are not.
    const marked = markedLines(frame);
    const leadRows = marked.filter((line) => line.includes(oneLine(contact.phone)));
    expect(leadRows).toHaveLength(1);
    expect(leadRows[0]).toContain(oneLine(contact.name).slice(0, 10));
    const unmarkedLeadRows = lines(frame).filter((line) => /^│ {3}\S/.test(line) && /\+\d{11}/.test(line));
    expect(unmarkedLeadRows.length).toBeGreaterThan(5);

    // Leaving the pane and coming back clears nothing.
    await tui.press('3');
    await tui.waitFor(/│ Reviews \(/);
    expect(tabLine(tui.frame())).toMatch(/1 Inbox \(\d+ new\)/);
    await tui.press('1');
    const back = plain(await tui.waitFor(/│ Inbox — open leads/));
    expect(markedLines(back).filter((line) => line.includes(oneLine(contact.phone)))).toHaveLength(1);
    expect(tui.state().seen.fresh.leads.has(lead.id)).toBe(true);

    // Selecting it (g: the top row) clears its mark, and only its.
    await tui.press('g');
    await tui.waitFor((_f, state) => !state.seen.fresh.leads.has(lead.id));
    expect(markedLines(plain(tui.frame())).filter((line) => line.includes(oneLine(contact.phone)))).toEqual(
      [],
    );
  });

  it("a new inbound text marks its preview; it stays when staff move between panes and clears when its lead's thread is opened", async () => {
    const tui = await started();
    const events = tickUntil(tui, 'inbound_text');
    expect(events.some((event) => event.kind === 'missed_call')).toBe(false);
    await tui.press('R');
    const frame = plain(await tui.waitFor((f) => /1 Inbox \(1 new\)/.test(tabLine(f))));
    expect(tui.state().seen.fresh.inbound.size).toBe(1);
    const preview = tui.state().inbox.open.data?.latest_inbound[0];
    if (!preview) throw new Error('no preview');
    const heading = lines(frame).findIndex((line) => line.includes('Latest inbound texts'));
    const first = lines(frame)[heading + 1] ?? '';
    expect(first).toContain('●');
    expect(first).toContain(oneLine(preview.body_preview).slice(0, 20));
    expect(lines(frame)[heading + 2]).not.toContain('●');
    await tui.press(KEYS.tab, KEYS.shiftTab);
    expect(tabLine(tui.frame())).toMatch(/1 Inbox \(1 new\)/);

    // The lead the text came from: its thread, opened, clears the mark.
    const shop = tui.s.sim.shops.main;
    const from = shop.leads.find((candidate) =>
      candidate.messages.some(
        (message) =>
          message.direction === 'inbound' &&
          new Date(message.occurredAt).toISOString() === preview.occurred_at,
      ),
    );
    const contact = shop.contacts.find((candidate) => candidate.id === from?.contactId);
    if (!contact) throw new Error('no lead for the inbound text');
    await selectLeadByPhone(tui, contact.phone);
    await tui.press(KEYS.enter);
    await tui.waitFor((f) => !/1 Inbox \(\d+ new\)/.test(tabLine(f)));
    expect(tui.state().seen.fresh.inbound.size).toBe(0);
  });

  it('a new review counts on the Reviews tab from another pane, stays marked until it is selected', async () => {
    const tui = await started();
    tickUntil(tui, 'review');
    const review = tui.s.sim.shops.main.reviews.at(-1);
    if (!review) throw new Error('no review');
    await tui.press('R');
    await tui.waitFor((f) => /3 Reviews \(1 new\)/.test(tabLine(f)));
    expect(tui.state().focus).toBe('inbox');

    await tui.press('3');
    const frame = plain(await tui.waitFor(/│ Reviews \(/));
    const marked = markedLines(frame);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain(oneLine(review.reviewerName));
    // Still counted while staff look at it, and after they leave and come back.
    expect(tabLine(frame)).toMatch(/3 Reviews \(1 new\)/);
    await tui.press('4');
    await tui.waitFor(/│ Actions — /);
    await tui.press('3');
    const back = plain(await tui.waitFor(/│ Reviews \(/));
    expect(markedLines(back)).toHaveLength(1);

    // Selected: the mark and the count go.
    const index = tui.state().reviews.data?.items.findIndex((item) => item.id === review.id) ?? -1;
    expect(index).toBeGreaterThanOrEqual(0);
    await tui.press('g', ...Array.from({ length: index }, () => 'j'));
    await tui.waitFor((f) => !/Reviews \(1 new\)/.test(tabLine(f)));
    expect(markedLines(plain(tui.frame()))).toEqual([]);
  });

  it('a new agent action counts on the Actions tab and is marked until it is selected', async () => {
    const tui = await started();
    tickUntil(tui, 'action');
    const shop = tui.s.sim.shops.main;
    const action = shop.actions.at(-1);
    if (!action) throw new Error('no action');
    expect(action.status).toBe('pending_approval');
    await tui.press('R');
    await tui.waitFor((f) => /4 Actions \(1 new\)/.test(tabLine(f)));
    await tui.press('4');
    const frame = plain(await tui.waitFor(action.id));
    const marked = markedLines(frame);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain(action.id);
    await tui.press('6', '4');
    expect(markedLines(plain(await tui.waitFor(action.id)))).toHaveLength(1);
    const index =
      tui.state().actions.pending_approval.data?.items.findIndex((item) => item.id === action.id) ?? -1;
    await tui.press('g', ...Array.from({ length: index }, () => 'j'));
    await tui.waitFor((f) => !/Actions \(1 new\)/.test(tabLine(f)));
    expect(markedLines(plain(tui.frame()))).toEqual([]);
  });

  it('on a read-only screen, marks fade after the set time without a key', async () => {
    const tui = await startTui({
      columns: 100,
      rows: 30,
      intervals: QUIET,
      readOnly: true,
      newMarksFadeMs: 600,
    });
    await firstLoad(tui, startupLoaded);
    tickUntil(tui, 'review');
    await tui.press('R');
    await tui.waitFor((f) => /3 Reviews \(1 new\)/.test(tabLine(f)));
    const markedAt = Date.now();
    await tui.waitFor((f) => !/Reviews \(1 new\)/.test(tabLine(f)), 5_000);
    expect(Date.now() - markedAt).toBeGreaterThanOrEqual(300);
    expect(tui.state().seen.fresh.reviews.size).toBe(0);
  });

  it('with write access, marks do not fade', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET, newMarksFadeMs: 200 });
    await firstLoad(tui, startupLoaded);
    tickUntil(tui, 'review');
    await tui.press('R');
    await tui.waitFor((f) => /3 Reviews \(1 new\)/.test(tabLine(f)));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(tabLine(tui.frame())).toMatch(/3 Reviews \(1 new\)/);
  });
});
