/**
 * Today's activity is a feed, newest on top. While the pane is off screen, a selection left on its top row
 * stays on the top row as new activity comes, so that 6 shows the newest; a selection staff moved keeps its
 * item, and on screen the highlight never moves under staff.
 */
import { describe, expect, it } from 'vitest';
import type { AppState } from '../../src/store/app-store.js';
import { activityRows, selectedActivity } from '../../src/store/selectors.js';
import { startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, QUIET } from './nav-pane-helpers.js';

const todayRead = (tui: TestTui) => tui.state().today.updatedAt ?? 0;

/** Three customers write; Today is read again, wherever staff are. */
async function newActivity(tui: TestTui, bodies: readonly string[]) {
  const leads = tui.state().inbox.open.data?.open_leads ?? [];
  bodies.forEach((body, index) => {
    const lead = leads[index];
    if (lead) tui.s.sim.receiveText(lead.id, body);
  });
  const before = todayRead(tui);
  tui.session.poller.request({ kind: 'today' });
  await tui.waitFor((_f, state: AppState) => (state.today.updatedAt ?? 0) > before);
}

describe("Today's activity", () => {
  it('off screen, a selection on the top row stays on the newest; moved by staff, or on screen, it keeps its item', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('6');
    await tui.waitFor((_f, state) => activityRows(state).length > 3);
    const first = selectedActivity(tui.state());
    expect(first).toBe(activityRows(tui.state())[0]);

    // Off screen (the Inbox at 80×24), on the top row: new activity, and 6 shows the newest.
    await tui.press('1');
    await newActivity(tui, ['Are you open Saturday?', 'Thanks!', 'Running 5 min late']);
    expect(selectedActivity(tui.state())).toBe(activityRows(tui.state())[0]);
    expect(selectedActivity(tui.state())).not.toBe(first);

    // On screen: the highlight stays on its item while new activity comes above it.
    await tui.press('6');
    const watched = selectedActivity(tui.state());
    await newActivity(tui, ['One more question']);
    expect(selectedActivity(tui.state())).toEqual(watched);
    expect(activityRows(tui.state())[0]).not.toEqual(watched);

    // Moved by staff (not the top row), then off screen: it keeps its item.
    await tui.press('g', 'j', 'j');
    const moved = selectedActivity(tui.state());
    await tui.press('1');
    await newActivity(tui, ['Is the estimate ready?']);
    expect(selectedActivity(tui.state())).toEqual(moved);
  });
});
