/**
 * Honest lists: every list is read 100 at a time (the reference's maximum);
 * a list cut at 100 says "100 of N" and where the rest is; the header counts
 * what the lists below it hold; "1 open lead", not "1 open leads".
 */
import { describe, expect, it } from 'vitest';
import type { ShopOverview } from '../../src/contract/resources.js';
import { startSim } from '../support/sim.js';
import { startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET, queryOf } from './nav-pane-helpers.js';

const headerCounts = (frame: string) => lines(frame)[1] ?? '';

describe('honest lists', () => {
  it('reads every list with limit=100, and adds no request to do it', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const lists = (await tui.s.requests()).filter(
      (request) =>
        request.method === 'GET' && /\/v1\/(inbox|contacts|reviews|actions|today)$/.test(request.path),
    );
    expect(lists.length).toBeGreaterThan(5);
    for (const request of lists) expect(queryOf(request.query).get('limit'), request.path).toBe('100');
  });

  it('a list cut at 100 says "100 of N" and that the rest is on the dashboard; the header counts all of them', async () => {
    const s = await startSim();
    // More open leads than one page can hold: missed calls make new open leads.
    const client = s.client();
    for (let open = 0; open <= 110; ) {
      for (let i = 0; i < 20; i++) s.sim.inject('missed_call');
      open = ((await client.getMe()) as ShopOverview).inbox_pulse.open_leads;
    }
    const total = ((await client.getMe()) as ShopOverview).inbox_pulse.open_leads;
    const tui = await startTui({ sim: s, columns: 120, rows: 40, intervals: QUIET });
    const frame = plain(
      await tui.waitFor(`Inbox — open leads (100 of ${total} · the rest on the dashboard)`),
    );
    expect(tui.state().inbox.open.data?.open_leads).toHaveLength(100);
    expect(headerCounts(frame)).toContain(`${total} open leads`);
  });

  it('the header follows a list read whole: a new lead counts there when the inbox is read, before /me is', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    const frame = plain(await firstLoad(tui, startupLoaded));
    const before = tui.state().inbox.open.data?.open_leads.length ?? 0;
    expect(before).toBeLessThan(100);
    expect(frame).toContain(`Inbox — open leads (${before})`);
    expect(headerCounts(frame)).toContain(`${before} open leads`);
    const meReads = tui.state().me.updatedAt;

    tui.s.sim.inject('missed_call');
    await tui.press('r'); // the inbox only: /me is not read again
    const after = plain(await tui.waitFor(`Inbox — open leads (${before + 1})`));
    expect(headerCounts(after)).toContain(`${before + 1} open leads`);
    expect(tui.state().me.updatedAt).toBe(meReads);
    expect(tui.state().me.data?.inbox_pulse.open_leads).toBe(before);
  });

  it('says "1 pending action" and "1 unreplied review", and the plural otherwise', async () => {
    const s = await startSim();
    const shop = s.sim.shops.main;
    const pending = shop.actions.filter((action) => action.status === 'pending_approval');
    expect(pending.length).toBeGreaterThan(1);
    for (const action of pending.slice(1)) action.status = 'published';
    const unreplied = shop.reviews.filter((review) => review.repliedAt === null);
    expect(unreplied.length).toBeGreaterThan(1);
    for (const review of unreplied.slice(1)) review.repliedAt = Date.now();
    const tui = await startTui({ sim: s, columns: 120, rows: 40, intervals: QUIET });
    const frame = plain(await firstLoad(tui, startupLoaded));
    expect(headerCounts(frame)).toContain('1 unreplied review ·');
    expect(headerCounts(frame)).toMatch(/ 1 pending action · /);
    expect(headerCounts(frame)).toMatch(/\d+ open leads · \d+ callbacks/);
    await tui.press('6');
    expect(plain(await tui.waitFor('awaiting approval (4 Actions)'))).toContain('1 action awaiting approval');
  });
});
