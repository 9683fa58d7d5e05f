/**
 * Who is still waiting for a reply: the conversations whose newest text is
 * the customer's (as the threads read say), oldest waiting first, each with
 * how long, behind `w` in the Inbox; the header counts them. A reply (from
 * here or the dashboard) takes a lead off the list.
 */
import { describe, expect, it } from 'vitest';
import type { AppState } from '../../src/store/app-store.js';
import { threadsToRead } from '../../src/store/conversation-picture.js';
import { inboxRows, selectedLead, threadLeadId, threadList } from '../../src/store/selectors.js';
import { leadUnread, waitingConversations } from '../../src/store/waiting.js';
import { manualClock, startSim } from '../support/sim.js';
import { KEYS, settle, startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, inboxMatchingTexts, lines, plain, QUIET, selectedRow } from './nav-pane-helpers.js';

const MINUTE = 60_000;

/** The tab bar's line. */
const tabLine = (frame: string) => lines(frame).find((line) => line.includes('1 Inbox')) ?? '';

/** The header's "N waiting". */
const headerWaiting = (frame: string) => Number(/(\d+) waiting\b/.exec(lines(frame)[1] ?? '')?.[1]);

/** The Inbox's side of each line (the thread may share the screen from 120 columns). */
const inboxSide = (frame: string) => lines(frame).map((line) => line.split('││')[0] ?? '');

/** The Inbox's waiting rows that name these phones, in screen order. */
const rowsOf = (frame: string, phones: readonly string[]) =>
  inboxSide(frame).filter((line) => phones.some((phone) => line.includes(phone)) && / waiting \d/.test(line));

async function twoCustomersWrite() {
  const clock = manualClock();
  const s = await startSim({ now: clock.now });
  const shop = s.sim.shops.main;
  // Two open leads (read from the service as staff would see them), well down the list.
  const open = (await s.client().getInbox({ filter: 'open', limit: 100 })).open_leads;
  const [first, second] = [open[4], open[6]];
  if (!first || !second) throw new Error('the seed has too few open leads');
  s.sim.receiveText(first.id, 'Is anyone coming today?');
  clock.advance(6 * MINUTE);
  s.sim.receiveText(second.id, 'The leak is getting worse');
  clock.advance(14 * MINUTE);
  const contactOf = (leadId: string) => {
    const lead = shop.leads.find((candidate) => candidate.id === leadId);
    const contact = shop.contacts.find((candidate) => candidate.id === lead?.contactId);
    if (!lead || !contact) throw new Error('no lead');
    return { lead, contact };
  };
  return { clock, s, first: contactOf(first.id), second: contactOf(second.id) };
}

/** Both texts matched to their leads (their threads read, paced 50 ms apart). */
const bothRead = (ids: readonly string[]) => (state: AppState) =>
  ids.every((id) => state.leads[id]?.data) && threadsToRead(state).length === 0;

/** The inbox at 120×40 on the inbox clock, once both customers' texts are matched to their leads. */
async function inboxWithTwoWaiting() {
  const { clock, s, first, second } = await twoCustomersWrite();
  const tui = await inboxMatchingTexts(s, clock.now);
  await tui.waitFor((_f, state) => bothRead([first.lead.id, second.lead.id])(state), 10_000);
  return { clock, s, first, second, tui };
}

describe('waiting for a reply', () => {
  it('w lists who waits, oldest first, with how long by the inbox clock; the header counts them; a reply takes one off', async () => {
    const { clock, first, second, tui } = await inboxWithTwoWaiting();

    await tui.run('waiting');
    const frame = plain(await tui.waitFor(/Inbox — waiting for a reply/));
    const waiting = waitingConversations(tui.state());
    // Oldest first, by the customer's newest text.
    const sinces = waiting.map((item) => Date.parse(item.since));
    expect(sinces).toEqual([...sinces].sort((a, b) => a - b));
    const phones = [first.contact.phone, second.contact.phone];
    const rows = rowsOf(frame, phones);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(first.contact.phone);
    expect(rows[0]).toContain('waiting 20 min');
    expect(rows[1]).toContain(second.contact.phone);
    expect(rows[1]).toContain('waiting 14 min');
    // The rows on screen are the list, in its order; the header counts the same.
    const listed = inboxSide(frame).filter((line) => /waiting \d+ (s|min|h|d)\b/.test(line));
    expect(listed).toHaveLength(waiting.length);
    expect(headerWaiting(frame)).toBe(waiting.length);
    expect(frame).toContain(`(${waiting.length})`);

    // enter opens the second's thread, on the customer's text.
    const index = waiting.findIndex((item) => item.lead.id === second.lead.id);
    await tui.press('g', ...Array.from({ length: index }, () => 'j'));
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === second.lead.id);
    const entry = threadList(tui.state()).rows[selectedRow(tui.state(), 'thread')];
    expect(entry?.kind === 'message' ? entry.message.body : undefined).toBe('The leak is getting worse');

    // Staff answer the first on the dashboard; enter on it reads its thread again: it waits no more, and
    // leaves the list (the thread follows the list to its neighbour).
    first.lead.messages.push({
      id: 'msg_dashboard_answer',
      direction: 'outbound',
      body: 'Yes, between 2 and 4.',
      occurredAt: clock.now(),
    });
    await tui.press(KEYS.escape);
    await tui.waitFor((_f, state) => state.focus === 'inbox');
    const firstIndex = waiting.findIndex((item) => item.lead.id === first.lead.id);
    await tui.press('g', ...Array.from({ length: firstIndex }, () => 'j'), KEYS.enter);
    await tui.waitFor((_f, state) =>
      Boolean(state.leads[first.lead.id]?.data?.messages.some((m) => m.id === 'msg_dashboard_answer')),
    );
    await tui.press(KEYS.escape);
    const after = plain(
      await tui.waitFor((f) => headerWaiting(plain(f)) === waiting.length - 1 && f.includes('waiting for a')),
    );
    expect(rowsOf(after, phones).map((row) => row.includes(second.contact.phone))).toEqual([true]);
    expect(waitingConversations(tui.state()).map((item) => item.lead.id)).not.toContain(first.lead.id);

    // w again: the open leads, whose rows show the lead's age, not a wait.
    await tui.run('waiting');
    await tui.waitFor(/Inbox — open leads/);
  });

  it('w keeps the lead staff had selected when the other list has it, and starts at the top when it does not', async () => {
    const { first, second, tui } = await inboxWithTwoWaiting();
    const inOpen = inboxRows(tui.state()).findIndex((row) => row.id === second.lead.id);
    await tui.press('g', ...Array.from({ length: inOpen }, () => 'j'));
    expect(selectedLead(tui.state())?.id).toBe(second.lead.id);

    // Open leads → waiting: the same lead, now on the waiting list's second row, and its thread beside it.
    await tui.run('waiting');
    await tui.waitFor(/Inbox — waiting for a reply/);
    expect(selectedLead(tui.state())?.id).toBe(second.lead.id);
    expect(threadLeadId(tui.state())).toBe(second.lead.id);
    // And back.
    await tui.run('waiting');
    await tui.waitFor(/Inbox — open leads/);
    expect(selectedLead(tui.state())?.id).toBe(second.lead.id);

    // A lead that does not wait: the waiting list starts at its top.
    const other = inboxRows(tui.state()).findIndex(
      (row) => row.id !== first.lead.id && row.id !== second.lead.id,
    );
    await tui.press('g', ...Array.from({ length: other }, () => 'j'));
    await tui.run('waiting');
    await tui.waitFor(/Inbox — waiting for a reply/);
    expect(selectedLead(tui.state())?.id).toBe(inboxRows(tui.state())[0]?.id);
  });

  it('an inbound text is unread ● until its thread is open; e (done) takes it off the list until the customer writes again, unread', async () => {
    // The simulator keeps this box's time, as the session's thread copies do: nothing here depends on the
    // time of day, and a text is matched by reading its thread after it came (src/store/selectors.ts).
    const s = await startSim();
    const tui = await inboxMatchingTexts(s);
    // Nothing is unread at the first start: the newest text listed then is the start of the marks.
    await tui.waitFor((_f, state) => state.conversations.since !== undefined);
    expect(tabLine(plain(tui.frame()))).not.toMatch(/Inbox \(/);

    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const target = open[5];
    if (!target) throw new Error('too few open leads');
    tui.s.sim.receiveText(target.id, 'Can you come before noon?');
    await tui.press('R');
    const holds = (body: string) => (state: AppState) =>
      Boolean(state.leads[target.id]?.data?.messages.some((message) => message.body === body));
    await tui.waitFor((_f, state) => holds('Can you come before noon?')(state), 10_000);
    expect(leadUnread(tui.state(), target.id)).toBe(true);
    // Its row is marked unread, and so is the text among the latest; the tab counts it once.
    const marked = plain(await tui.waitFor((f) => /1 Inbox \(1 new\)/.test(tabLine(plain(f)))));
    const leadRow = inboxSide(marked).find(
      (line) => line.includes(target.caller_phone) && !line.includes(':'),
    );
    expect(leadRow).toMatch(/^│ ?●/);
    const previewRow = inboxSide(marked).find((line) => line.includes('Can you come before'));
    expect(previewRow).toMatch(/^│ ?●/);

    // In the waiting list (once every text is matched, so that it no longer moves under the keys); opening
    // its thread reads it: the marks go.
    await tui.waitFor((_f, state) => threadsToRead(state).length === 0, 10_000);
    await tui.run('waiting');
    await tui.waitFor(/Inbox — waiting for a reply/);
    const index = inboxRows(tui.state()).findIndex((lead) => lead.id === target.id);
    expect(index).toBeGreaterThanOrEqual(0);
    await tui.press('g', ...Array.from({ length: index }, () => 'j'), KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && !leadUnread(state, target.id));
    const read = plain(await tui.waitFor((f) => !/1 Inbox \(/.test(tabLine(plain(f)))));
    expect(inboxSide(read).find((line) => line.includes('Can you come before'))).not.toMatch(/^│ ?●/);
    expect(waitingConversations(tui.state()).map((item) => item.lead.id)).toContain(target.id);

    // e in the thread: done. It leaves the waiting list; the thread stays on it (staff's own doing, no notice
    // of a lead that left).
    const before = waitingConversations(tui.state()).length;
    await tui.run('done');
    expect(tui.state().notice?.text).toMatch(/^Done: .* is off the waiting list until they write again/);
    expect(waitingConversations(tui.state()).map((item) => item.lead.id)).not.toContain(target.id);
    await settle();
    expect(threadLeadId(tui.state())).toBe(target.id);
    // Done again says why not.
    await tui.run('done');
    expect(tui.state().notice?.text).toMatch(/^Already done: it comes back when the customer writes again/);
    await tui.press(KEYS.escape);
    await tui.waitFor((f) => headerWaiting(plain(f)) === before - 1);

    // The customer writes again: back on the list, unread.
    await new Promise((resolve) => setTimeout(resolve, 5));
    tui.s.sim.receiveText(target.id, 'Hello?');
    await tui.press('1', 'R');
    await tui.waitFor(
      (_f, state) =>
        waitingConversations(state).some((item) => item.lead.id === target.id) &&
        leadUnread(state, target.id),
      10_000,
    );
    await tui.waitFor((f) => headerWaiting(plain(f)) === before);
  });

  it("a busy shop whose clock runs ahead of this box's: several new texts are matched, each thread read once", async () => {
    // The service's clock 10 minutes ahead of this box's (an offset from it: nothing depends on the time).
    const s = await startSim({ now: () => Date.now() + 10 * MINUTE });
    const tui = await inboxMatchingTexts(s);
    await tui.waitFor((_f, state) => threadsToRead(state).length === 0, 10_000);
    const leadReads = async () =>
      (await s.requests())
        .filter((request) => request.method === 'GET' && request.path.startsWith('/v1/leads/'))
        .map((request) => request.path.slice('/v1/leads/'.length));
    const before = (await leadReads()).length;
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const writers = [open[2], open[5], open[7]].map((lead) => {
      if (!lead) throw new Error('too few open leads');
      return lead.id;
    });
    for (const [index, id] of writers.entries()) s.sim.receiveText(id, `Question ${index + 1}?`);
    await tui.press('R');
    await tui.waitFor(
      (_f, state) =>
        writers.every((id) => state.leads[id]?.data?.messages.some((m) => m.body.startsWith('Question'))) &&
        threadsToRead(state).length === 0,
      10_000,
    );
    // Read for them: the open leads from the newest down to the last writer's, each once, then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = (await leadReads()).slice(before);
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBeLessThanOrEqual(open.findIndex((lead) => lead.id === writers[2]) + 1);
    expect(waitingConversations(tui.state()).map((item) => item.lead.id)).toEqual(
      expect.arrayContaining(writers),
    );
  });

  it('done works read-only: it writes nothing to the shop', async () => {
    const { s, first, second } = await twoCustomersWrite();
    const tui = await startTui({
      sim: s,
      readOnly: true,
      columns: 120,
      rows: 40,
      intervals: { ...QUIET, burstMs: 50 },
    });
    await firstLoad(tui, startupLoaded);
    // Both texts matched: the waiting list no longer moves under the keys.
    await tui.waitFor((_f, state) => bothRead([first.lead.id, second.lead.id])(state), 10_000);
    await tui.run('waiting');
    await tui.waitFor(/Inbox — waiting for a reply/);
    const index = inboxRows(tui.state()).findIndex((lead) => lead.id === first.lead.id);
    await tui.press('g', ...Array.from({ length: index }, () => 'j'));
    expect(selectedLead(tui.state())?.id).toBe(first.lead.id);
    expect(tui.keymap.commands('pane:inbox').map(({ command }) => command.id)).toContain('done');
    await tui.run('done');
    expect(tui.state().notice?.text).toMatch(/^Done: /);
    expect(waitingConversations(tui.state()).map((item) => item.lead.id)).not.toContain(first.lead.id);
    expect(await tui.writes()).toEqual([]);
  });
});
