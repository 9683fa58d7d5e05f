/**
 * An inbound text opens its lead's thread at that text wherever it is listed:
 * Today's activity (enter or i on an "sms inbound" row), once a thread read
 * holds it; before that, and on any other row, the keys say why not.
 */
import { describe, expect, it } from 'vitest';
import { selectedActivity, threadLeadId, threadList } from '../../src/store/selectors.js';
import { startSim } from '../support/sim.js';
import { KEYS } from '../support/tui.js';
import { faultOnNext } from '../support/write-flows.js';
import { inboxMatchingTexts, selectedRow } from './nav-pane-helpers.js';

describe("Today's inbound texts", () => {
  it('enter and i on an inbound text open its thread at that text; not before a thread read holds it', async () => {
    const s = await startSim();
    const tui = await inboxMatchingTexts(s);
    const shop = s.sim.shops.main;
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const target = open[4];
    if (!target) throw new Error('too few open leads');
    const contact = shop.contacts.find(
      (candidate) => candidate.id === shop.leads.find((lead) => lead.id === target.id)?.contactId,
    );
    if (!contact) throw new Error('no contact');
    await new Promise((resolve) => setTimeout(resolve, 5));
    s.sim.receiveText(target.id, 'Does Tuesday work?');
    // Its thread's first read is held: Today lists the text before any thread holds it.
    let release = () => {};
    faultOnNext(s.sim, (request) => request.path === `/v1/leads/${target.id}`, {
      kind: 'hold',
      until: new Promise<void>((resolve) => {
        release = resolve;
      }),
    });
    await tui.press('R', '6');
    await tui.waitFor((_f, state) =>
      Boolean(state.today.data?.activity.some((item) => item.summary === `Text from ${contact.name}`)),
    );
    // The newest activity is the text (newest first): the top row.
    await tui.press('g');
    expect(selectedActivity(tui.state())?.summary).toBe(`Text from ${contact.name}`);
    await tui.press(KEYS.enter);
    expect(tui.state().focus).toBe('today');
    expect(tui.state().notice?.text).toMatch(/^The text is not in any thread read yet/);

    release();
    await tui.waitFor((_f, state) =>
      Boolean(
        state.leads[target.id]?.data?.messages.some((message) => message.body === 'Does Tuesday work?'),
      ),
    );
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === target.id);
    const entry = threadList(tui.state()).rows[selectedRow(tui.state(), 'thread')];
    expect(entry?.kind === 'message' ? entry.message.body : undefined).toBe('Does Tuesday work?');

    // i does the same; on a row that is not an inbound text, it says so.
    await tui.press('6', 'g', 'i');
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === target.id);
    await tui.press('6');
    const other = (tui.state().today.data?.activity ?? []).findIndex(
      (item) => String(item.kind) !== 'sms_inbound',
    );
    expect(other).toBeGreaterThan(0);
    await tui.press('g', ...Array.from({ length: other }, () => 'j'), 'i');
    expect(tui.state().focus).toBe('today');
    expect(tui.state().notice?.text).toMatch(/^Only an inbound text \(sms inbound\) opens a thread/);
  });
});
