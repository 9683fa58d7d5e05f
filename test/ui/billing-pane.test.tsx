/**
 * The Billing pane (7): the subscription and the texting setup as the shop
 * gives them, one fact a row; y copies the selected fact; GET /billing and
 * GET /texting are read while it is on screen.
 */
import { describe, expect, it } from 'vitest';
import { startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, plain, QUIET, requestsTo } from './nav-pane-helpers.js';

describe('Billing', () => {
  it('lists the plan, the card and the texting setup; y copies the selected fact', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('7');
    const frame = plain(await tui.waitFor('Forwarding'));
    const billing = tui.state().billing.data;
    if (!billing) throw new Error('billing not read');
    expect(frame).toContain('Billing and texting');
    expect(frame).toContain(billing.subscription.plan);
    expect(frame).toMatch(/Card\s+\S+ ending \d{4}|Card\s+no card on file/);
    expect(await requestsTo(tui, '/texting')).not.toHaveLength(0);
    await tui.press('y');
    const write = tui.terminalWrites.at(-1) ?? '';
    const payload = write.slice(write.indexOf(';c;') + 3, -1);
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(billing.subscription.plan);
  });
});
