/**
 * Screens that lead to the next step: an inbound text names its sender (its
 * lead found by reading the open leads' threads) and opens that thread at it; enter on a
 * contact opens the contact's lead thread (or says there is none); Today's
 * pending actions open in Actions.
 */
import { describe, expect, it } from 'vitest';
import type { AppState } from '../../src/store/app-store.js';
import { threadsToRead } from '../../src/store/conversation-picture.js';
import { INBOUND_SHOWN, previewSender } from '../../src/store/inbound-match.js';
import { threadLeadId, threadList } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui } from '../support/tui.js';
import { faultOnNext, startupLoaded } from '../support/write-flows.js';
import { firstLoad, inboxMatchingTexts, lines, plain, QUIET, selectedRow } from './nav-pane-helpers.js';

const previewLines = (frame: string) => {
  const all = lines(frame);
  const heading = all.findIndex((line) => line.includes('Latest inbound texts'));
  return all.slice(heading + 1, heading + 4);
};

describe('screens that lead to the next step', () => {
  it("the latest inbound texts are matched to their leads by reading the open leads' threads, each once, a new text's writer's first; i opens the thread at that text", async () => {
    const s = await startSim();
    // The threads are read 50 ms apart; nothing else is read again on its own.
    const tui = await inboxMatchingTexts(s);
    const allMatched = (state: AppState) => {
      const shown = (state.inbox.open.data?.latest_inbound ?? []).slice(0, INBOUND_SHOWN);
      return shown.length > 0 && shown.every((preview) => previewSender(state, preview).kind === 'matched');
    };
    await tui.waitFor((_f, state) => allMatched(state) && threadsToRead(state).length === 0, 10_000);
    const leadReads = async () =>
      (await tui.s.requests())
        .filter((request) => request.method === 'GET' && request.path.startsWith('/v1/leads/'))
        .map((request) => request.path.slice('/v1/leads/'.length));
    const firstReads = await leadReads();
    // No thread read twice, and no more than the open leads.
    expect(new Set(firstReads).size).toBe(firstReads.length);
    const listed = (tui.state().inbox.open.data?.open_leads ?? []).map((lead) => lead.id);
    expect(firstReads.length).toBeLessThanOrEqual(listed.length);
    for (const [index, preview] of (tui.state().inbox.open.data?.latest_inbound ?? [])
      .slice(0, INBOUND_SHOWN)
      .entries()) {
      const sender = previewSender(tui.state(), preview);
      if (sender.kind !== 'matched') throw new Error('not matched');
      expect(previewLines(plain(tui.frame()))[index]).toContain(
        `${oneLine(sender.lead.contact.name)} (${sender.lead.contact.phone}): `,
      );
    }
    // Matched: nothing more is read.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await leadReads()).toEqual(firstReads);

    // A text arrives from a listed lead well down the list: its thread, read before, is stale.
    const shop = s.sim.shops.main;
    const target = listed.at(Math.min(5, listed.length - 1));
    const lead = shop.leads.find((candidate) => candidate.id === target);
    const contact = shop.contacts.find((candidate) => candidate.id === lead?.contactId);
    if (!lead || !contact) throw new Error('no lead');
    s.sim.receiveText(lead.id, 'Is the tech still coming today?');
    // The first thread read for it is held: meanwhile the text is shown, not matched yet, and i says why.
    let release = () => {};
    faultOnNext(s.sim, (request) => request.path.startsWith('/v1/leads/'), {
      kind: 'hold',
      until: new Promise<void>((resolve) => {
        release = resolve;
      }),
    });
    await tui.press('r');
    const waiting = plain(
      await tui.waitFor((f) => (previewLines(plain(f))[0] ?? '').includes('Is the tech still coming')),
    );
    expect(previewLines(waiting)[0]).toContain('not matched yet: Is the tech still coming today?');
    await tui.press('i');
    expect(tui.state().notice?.text).toMatch(/not matched to its lead yet/);
    expect(tui.state().focus).toBe('inbox');
    release();

    await tui.waitFor((f) =>
      (previewLines(plain(f))[0] ?? '').includes(`${oneLine(contact.name)} (${contact.phone}): Is the tech`),
    );
    // Read for it: r read the thread beside the list again (the read held); then, as the contacts list says who
    // was in touch since, its customer's open leads, each once, and then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [besideRead, ...forIt] = (await leadReads()).slice(firstReads.length);
    expect(besideRead).toBe(listed[0]);
    const customersLeads = (tui.state().inbox.open.data?.open_leads ?? [])
      .filter((listedLead) => listedLead.caller_phone === contact.phone)
      .map((listedLead) => listedLead.id);
    expect(forIt).toContain(lead.id);
    expect(new Set(forIt).size).toBe(forIt.length);
    expect(customersLeads).toEqual(expect.arrayContaining(forIt));

    // Staff answered on the dashboard meanwhile: the text is no longer the thread's last, which i reads again.
    lead.messages.push({
      id: 'msg_reply_dashboard',
      direction: 'outbound',
      body: 'Yes, at 3.',
      occurredAt: Date.now(),
    });
    await tui.press('i');
    expect(tui.state().focus).toBe('thread');
    expect(threadLeadId(tui.state())).toBe(lead.id);
    await tui.waitFor((_f, state) =>
      Boolean(state.leads[lead.id]?.data?.messages.some((message) => message.id === 'msg_reply_dashboard')),
    );
    // At that text: the thread's selection is on it, not on the newest.
    const entries = threadList(tui.state()).rows;
    const selected = entries[selectedRow(tui.state(), 'thread')];
    expect(selected?.kind === 'message' ? selected.message.body : undefined).toBe(
      'Is the tech still coming today?',
    );
    await tui.waitFor((f) =>
      plain(f)
        .split('\n')
        .some((line) => line.includes('Thread — ') && line.includes(`(${contact.phone})`)),
    );
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
