/**
 * Texting from Contacts: the list has no consent record, so the composer
 * reads one of the contact's leads and shows its record when it arrives.
 */
import { describe, expect, it } from 'vitest';
import { contactRows } from '../../src/store/selectors.js';
import { SEED_CUSTOMER_ZONE, seedCustomersAfternoon } from '../support/clock.js';
import { KEYS, startTui } from '../support/tui.js';

describe('consent when texting from Contacts', () => {
  it('fetches a lead of the contact and shows its consent record in the open composer', async () => {
    // Mid-afternoon for the customer and the shop: no quiet-hours warning, whenever the suite runs.
    const tui = await startTui({
      columns: 100,
      rows: 30,
      now: seedCustomersAfternoon().now,
      session: { timeZone: SEED_CUSTOMER_ZONE },
    });
    const shop = tui.s.sim.shops.main;
    await tui.waitFor('Inbox — open leads');
    await tui.waitFor((_frame, state) => state.inbox.open.data !== undefined);
    await tui.press('5');
    await tui.waitFor((_frame, state) => contactRows(state).length > 0);
    const listed = new Set(tui.state().inbox.open.data?.open_leads.map((lead) => lead.caller_phone));
    const rows = contactRows(tui.state());
    const index = rows.findIndex(
      (contact) =>
        listed.has(contact.phone) && shop.consents.some((c) => c.phone === contact.phone && c.smsInitial),
    );
    expect(index).toBeGreaterThanOrEqual(0);
    await tui.press(...Array.from({ length: index }, () => 'j'));
    const before = (await tui.s.requests()).filter((request) => request.path.includes('/leads/')).length;
    await tui.press('c');
    await tui.waitFor(`To ${rows[index]?.name}`);
    await tui.waitFor('consent given');
    const leadReads = (await tui.s.requests()).filter((request) => request.path.includes('/leads/')).length;
    expect(leadReads).toBe(before + 1);
  });
});

describe('a contacts search still on its way', () => {
  it('keeps the title on the list shown and says it is searching until the answer arrives', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await tui.press('5');
    await tui.waitFor((_frame, state) => state.contacts.data !== undefined);
    // Every request is paused: the search is asked for but cannot be answered yet.
    tui.session.budget.pauseUntil(Date.now() + 1_500);
    await tui.press('/', 'tom', KEYS.enter);
    const waiting = await tui.waitFor('(searching…)');
    expect(waiting).not.toContain('matching “tom”');
    const answered = await tui.waitFor('matching “tom”', 4_000);
    expect(answered).not.toContain('(searching…)');
  });
});
