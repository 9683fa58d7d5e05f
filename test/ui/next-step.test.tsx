/**
 * Screens that lead to the next step: an inbound text names its sender and
 * opens its lead's thread (or says the lead is not loaded); enter on a
 * contact opens the contact's lead thread (or says there is none); Today's
 * pending actions open in Actions.
 */
import { describe, expect, it } from 'vitest';
import { threadLeadId } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui } from '../support/tui.js';
import { selectLeadByPhone, startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

const previewLines = (frame: string) => {
  const all = lines(frame);
  const heading = all.findIndex((line) => line.includes('Latest inbound texts'));
  return all.slice(heading + 1, heading + 4);
};

describe('screens that lead to the next step', () => {
  it('an inbound text names its sender once its lead is loaded, and i opens that thread', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const shop = tui.s.sim.shops.main;
    // The lead the text comes from is one whose thread is not read yet.
    const listed = tui.state().inbox.open.data?.open_leads ?? [];
    let from: (typeof shop.leads)[number] | undefined;
    for (let i = 0; i < 30 && !from; i++) {
      const before = new Map(shop.leads.map((lead) => [lead.id, lead.messages.length]));
      if (tui.s.sim.inject('inbound_text') === null) break;
      const got = shop.leads.find((lead) => lead.messages.length !== before.get(lead.id));
      if (got && !tui.state().leads[got.id] && listed.some((row) => row.id === got.id)) from = got;
    }
    if (!from) throw new Error('no inbound text to a listed, unread lead');
    const contact = shop.contacts.find((candidate) => candidate.id === from?.contactId);
    if (!contact) throw new Error('no contact');
    await tui.press('R');
    const body = from.messages.at(-1)?.body ?? '';
    let frame = plain(
      await tui.waitFor((f) => (previewLines(plain(f))[0] ?? '').includes(body.slice(0, 15))),
    );
    expect(previewLines(frame)[0]).toContain('lead not loaded:');
    await tui.press('i');
    expect(tui.state().notice?.text).toMatch(/lead is not loaded/);
    expect(tui.state().focus).toBe('inbox');

    // Its thread read (the lead selected beside it): the preview names the sender; i opens it.
    await selectLeadByPhone(tui, contact.phone);
    frame = plain(
      await tui.waitFor((f) => (previewLines(plain(f))[0] ?? '').includes(`${oneLine(contact.name)}:`)),
    );
    await tui.press(KEYS.escape, 'i');
    expect(tui.state().focus).toBe('thread');
    expect(threadLeadId(tui.state())).toBe(from.id);
    await tui.waitFor(`Thread — ${oneLine(contact.name)}`);
  });

  it("enter on a contact opens their lead's thread, or says there is none", async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const shop = tui.s.sim.shops.main;
    const contacts = tui.state().contacts.data?.items ?? [];
    const listedPhones = new Set(
      [
        ...(tui.state().inbox.open.data?.open_leads ?? []),
        ...(tui.state().inbox.callbacks.data?.open_leads ?? []),
      ].map((lead) => lead.caller_phone),
    );
    const withLead = contacts.findIndex((contact) => listedPhones.has(contact.phone));
    const without = contacts.findIndex((contact) => !listedPhones.has(contact.phone));
    expect(withLead).toBeGreaterThanOrEqual(0);
    expect(without).toBeGreaterThanOrEqual(0);

    await tui.press('5');
    await tui.waitFor(/Contacts \(\d+\)/);
    await tui.press('g', ...Array.from({ length: without }, () => 'j'), KEYS.enter);
    const lonely = contacts[without];
    expect(tui.state().focus).toBe('contacts');
    expect(tui.state().notice?.text).toBe(
      `${oneLine(lonely?.name)} has no lead in the inbox's lists: no thread to open (c texts them).`,
    );

    await tui.press('g', ...Array.from({ length: withLead }, () => 'j'), KEYS.enter);
    const contact = contacts[withLead];
    expect(tui.state().focus).toBe('thread');
    const lead = shop.leads.find((candidate) => candidate.id === threadLeadId(tui.state()));
    expect(lead?.contactId).toBe(contact?.id);
    await tui.waitFor(`Thread — ${oneLine(contact?.name)}`);
  });

  it("Today's pending actions open in Actions with p", async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('4', 's', '6');
    await tui.waitFor('(p opens them)');
    await tui.press('p');
    expect(tui.state().focus).toBe('actions');
    expect(tui.state().actionsFilter).toBe('pending_approval');
    await tui.waitFor(/│ Actions — awaiting approval \(\d+\)/);
  });
});
