/**
 * The Thread pane is the record highlighted in the list it came from, at every
 * size: tab from the Inbox shows the lead the Inbox highlights (not a thread
 * opened before), it follows that lead while new leads arrive above it, moves
 * with the highlight, says why when the list highlights nothing, and `c`
 * there texts exactly the person its title names, with their number. Enter
 * in Contacts makes Contacts the list; `i` shows an inbound text's lead.
 */
import { describe, expect, it } from 'vitest';
import type { InboxLead } from '../../src/contract/resources.js';
import { inboxRows, openLead, selectedContact, selectedLead } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  confirmTheSend,
  consentingCallerWaiting,
  recordWire,
  SEND_QUESTION,
  selectLeadByPhone,
  simContactOfLead,
  startupLoaded,
  waitComposer,
} from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

/** New missed calls reach the service; the lists are read again, as the poller does on its own. */
async function arrive(tui: TestTui, count: number) {
  const before = tui.state().inbox.open.data?.open_leads.length ?? 0;
  for (let index = 0; index < count; index += 1) tui.s.sim.inject('missed_call');
  tui.session.poller.refreshAll();
  await tui.waitFor((_frame, state) => (state.inbox.open.data?.open_leads.length ?? 0) === before + count);
}

/** The Thread pane's title for a lead, as its row names it. */
const titleOf = (lead: Pick<InboxLead, 'contact_name' | 'caller_phone'>) =>
  `Thread — ${oneLine(lead.contact_name)} (${oneLine(lead.caller_phone)})`;

/** The row of the frame that holds the thread's title. */
const titleLine = (frame: string) => lines(frame).find((line) => line.includes('Thread — ')) ?? '';

const shownLeadId = (tui: TestTui) => openLead(tui.state())?.lead.id;

/** A lead of the inbox's list at row `index`, with its contact in the simulator. */
function rowAt(tui: TestTui, index: number) {
  const lead = inboxRows(tui.state())[index];
  if (!lead) throw new Error(`no lead at row ${index}`);
  return { lead, contact: simContactOfLead(tui.s.sim, lead.id).contact };
}

describe('the thread is the lead the Inbox highlights', () => {
  it('80×24: tab shows the highlighted lead, not the thread opened before; c there texts exactly that lead', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    const wire = recordWire(tui.s.sim);
    await firstLoad(tui);
    const opened = rowAt(tui, 0).lead;
    await tui.press(KEYS.enter);
    await tui.waitFor(() => shownLeadId(tui) === opened.id);

    await tui.press(KEYS.escape, 'jj');
    const { lead, contact } = rowAt(tui, 2);
    expect(lead.id).not.toBe(opened.id);
    // Leads arrive at the top between key presses: the highlight stays on its record.
    await arrive(tui, 2);
    expect(selectedLead(tui.state())?.id).toBe(lead.id);

    await tui.press(KEYS.tab);
    await tui.waitFor(titleOf(lead));
    await tui.waitFor(() => shownLeadId(tui) === lead.id);
    // More arrive while the thread is on screen: it stays on its lead.
    await arrive(tui, 1);
    expect(shownLeadId(tui)).toBe(lead.id);
    expect(plain(tui.frame())).toContain(titleOf(lead));

    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('On my way');
    await tui.press(KEYS.enter);
    await tui.waitFor(`Send to ${oneLine(contact.name)} (${contact.phone})?`);
    await confirmTheSend(tui);
    await tui.waitFor((_frame, state) => state.outbox[0]?.state === 'sent');
    expect(wire.writes.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: `/contacts/${contact.id}/messages`, body: { body: 'On my way' } },
    ]);
  });

  it('120×40: side by side, the thread stays the highlighted lead when the Thread pane is focused too', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    // A thread opened, then another lead highlighted.
    await tui.press(KEYS.enter, '1', 'jjj');
    const { lead, contact } = rowAt(tui, 3);
    await arrive(tui, 2);
    await tui.press(KEYS.tab);
    expect(tui.state().focus).toBe('thread');
    let frame = plain(await tui.waitFor((f) => plain(f).includes(titleOf(lead))));
    // Still beside the inbox, on the same rows as the highlighted lead.
    expect(frame).toMatch(/│ Inbox — open leads \(\d+\)/);
    await tui.waitFor(() => shownLeadId(tui) === lead.id);
    await arrive(tui, 1);
    expect(shownLeadId(tui)).toBe(lead.id);

    // c there texts the lead it shows.
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press(KEYS.escape);

    // The highlight moves: the thread moves with it, whichever of the two is focused.
    await tui.press(KEYS.shiftTab, 'k');
    const above = selectedLead(tui.state());
    if (!above) throw new Error('no lead');
    expect(above.id).not.toBe(lead.id);
    frame = plain(await tui.waitFor((f) => plain(f).includes(titleOf(above))));
    await tui.press(KEYS.tab);
    await tui.waitFor(() => shownLeadId(tui) === above.id);
    const aboveContact = simContactOfLead(tui.s.sim, above.id).contact;
    await tui.press('c');
    await waitComposer(tui, aboveContact.id);
    await tui.press('Running late', KEYS.enter);
    await tui.waitFor(`Send to ${oneLine(aboveContact.name)} (${aboveContact.phone})?`);
  });

  it('c before the thread is read: the composer is open on the lead the title names, and what is typed waits for it', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    const wire = recordWire(tui.s.sim);
    await firstLoad(tui);
    await tui.press('jj');
    const { lead, contact } = rowAt(tui, 2);
    wire.hold((request) => request.path === `/v1/leads/${lead.id}`);
    await tui.press(KEYS.tab);
    await tui.waitFor(titleOf(lead));
    await tui.waitFor(() => wire.held > 0);
    await tui.press('c');
    await tui.waitFor(`To ${oneLine(lead.contact_name)} (${lead.caller_phone})`);
    await tui.press('be right there');
    expect(tui.state().composer).toBeUndefined();
    wire.release();
    await waitComposer(tui, contact.id);
    expect(tui.state().composed[contact.id]?.text).toBe('be right there');
  });

  it('80×24: the lead leaves the list while its thread is on screen: the thread says whose it is now', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jjj');
    const { lead } = rowAt(tui, 3);
    const neighbour = rowAt(tui, 4);
    await tui.press(KEYS.tab);
    await tui.waitFor(() => shownLeadId(tui) === lead.id);

    const simLead = tui.s.sim.shops.main.leads.find((each) => each.id === lead.id);
    if (!simLead) throw new Error('lead not in the simulator');
    simLead.status = 'won';
    tui.session.poller.refreshAll();
    await tui.waitFor(titleOf(neighbour.lead));
    expect(tui.state().notice?.text).toBe(
      `The lead you had selected (${oneLine(lead.contact_name)}) left the Inbox list; the thread shows ${oneLine(neighbour.contact.name)} (${neighbour.contact.phone}) now.`,
    );
    await tui.waitFor(() => shownLeadId(tui) === neighbour.lead.id);
    await tui.press('c');
    await waitComposer(tui, neighbour.contact.id);
  });

  it('80×24: a reply from the thread answers the callback, and the thread stays on that lead', async () => {
    const s = await startSim();
    const { lead, contact } = await consentingCallerWaiting(s);
    const tui = await startTui({ sim: s, columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('f');
    await tui.waitFor((_frame, state) => inboxRows(state).some((row) => row.id === lead.id));
    const at = inboxRows(tui.state()).findIndex((row) => row.id === lead.id);
    await tui.press(...Array.from({ length: at }, () => 'j'), KEYS.tab);
    await tui.waitFor(() => shownLeadId(tui) === lead.id);
    const title = `Thread — ${contact.name} (${contact.phone})`;
    await tui.waitFor(title);

    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Calling you back now.', KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    // The callbacks list is read again without the answered call: the thread is still the reply's.
    await tui.waitFor((_frame, state) => !inboxRows(state).some((row) => row.id === lead.id));
    expect(tui.state().threadFrom).toEqual({ list: 'lead', leadId: lead.id });
    expect(titleLine(tui.frame())).toContain(title);
    await tui.press('c');
    expect(tui.state().composer?.contactId).toBe(contact.id);
    // Back in the Inbox, the thread follows its highlight again.
    await tui.press(KEYS.escape, KEYS.escape);
    expect(tui.state().threadFrom).toEqual({ list: 'inbox' });
  });

  it('f and a filter: the thread follows the list as shown, and says so when it highlights nothing', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('f');
    const callback = tui.state().inbox.callbacks.data?.open_leads[0];
    if (!callback) throw new Error('no missed call waiting');
    await tui.press(KEYS.tab);
    await tui.waitFor(titleOf(callback));
    await tui.waitFor(() => shownLeadId(tui) === callback.id);

    await tui.press(KEYS.shiftTab, '/', 'zzqx', KEYS.enter, KEYS.tab);
    const why = 'No lead matches the filter “zzqx”: no thread to show (esc in the Inbox clears it).';
    await tui.waitFor('No lead matches the filter “zzqx”: no thread to show');
    // The title names nobody: there is no thread.
    expect(plain(tui.frame())).toMatch(/│ Thread +│/);
    // Nothing shown, nothing to text: c says why instead of opening a composer.
    await tui.press('c');
    expect(tui.state().composer).toBeUndefined();
    expect(tui.state().notice?.text).toBe(why);
    expect(await tui.writes()).toEqual([]);
  });

  it('before the Inbox is read, the thread says it waits for it, and c texts nobody', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    const wire = recordWire(tui.s.sim);
    wire.hold((request) => request.path === '/v1/inbox');
    await tui.waitFor(() => wire.held > 0);
    await tui.press('2');
    await tui.waitFor('The inbox is not loaded yet: the thread shows the lead it highlights.');
    await tui.press('c');
    expect(tui.state().composer).toBeUndefined();
    expect(tui.state().notice?.text).toBe(
      'The inbox is not loaded yet: the thread shows the lead it highlights.',
    );
    wire.release();
    await tui.waitFor((_frame, state) => state.inbox.open.data !== undefined);
    const first = rowAt(tui, 0).lead;
    await tui.waitFor(titleOf(first));
    await tui.waitFor(() => shownLeadId(tui) === first.id);
  });

  it("the title names the thread's contact and phone, sanitized and cut to its width with the phone whole", async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    const phone = '+15035550187';
    tui.s.sim.missedCallFrom({
      name: 'Maximiliana Alexandra von Hohenzollern-Sigmaringen\u0007\u001b[2J of Portland',
      phone,
    });
    tui.session.poller.refreshAll();
    await tui.waitFor((_frame, state) => inboxRows(state)[0]?.caller_phone === phone);
    await tui.press('g');
    // Side by side: the thread has 40% of 120 columns.
    let line = titleLine(await tui.waitFor((f) => titleLine(plain(f)).includes(`(${phone})`)));
    expect(line).toMatch(new RegExp(`Thread — Maximiliana Al[^│]*… \\(\\${phone}\\)`));
    expect(line).not.toContain('\u0007');
    expect(line).not.toContain('\u001b');
    expect([...line].length).toBeLessThanOrEqual(120);
    // Alone at 80 columns: more of the name, still the whole phone; the control characters made visible.
    await tui.resize(80, 24);
    await tui.press(KEYS.tab);
    line = titleLine(await tui.waitFor((f) => titleLine(plain(f)).includes('Sigmaringen')));
    expect(line).toContain(`(${phone})`);
    expect(line).toContain('Sigmaringen␇');
    expect([...line].length).toBeLessThanOrEqual(80);
  });
});

describe('a thread opened from Contacts, or from an inbound text', () => {
  it('enter in Contacts: the thread follows the contact highlighted there, esc goes back there; the Inbox takes it back', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const contacts = tui.state().contacts.data?.items ?? [];
    const listed = new Set(
      [
        ...(tui.state().inbox.open.data?.open_leads ?? []),
        ...(tui.state().inbox.callbacks.data?.open_leads ?? []),
      ].map((lead) => lead.caller_phone),
    );
    const withLead = contacts.flatMap((contact, index) => (listed.has(contact.phone) ? [index] : []));
    const without = contacts.findIndex((contact) => !listed.has(contact.phone));
    const [first, second] = withLead;
    if (first === undefined || second === undefined || without < 0) throw new Error('contacts do not fit');
    const go = (index: number) => ['g', ...(index > 0 ? ['j'.repeat(index)] : [])];
    const contactOfThread = () => openLead(tui.state())?.contact;

    await tui.press('5', ...go(first), KEYS.enter);
    const one = contacts[first];
    if (!one) throw new Error('no contact');
    await tui.waitFor(`Thread — ${oneLine(one.name)} (${one.phone})`);
    await tui.waitFor(() => contactOfThread()?.id === one.id);
    // Opened from Contacts, the thread has the screen to itself: it is not the Inbox's highlighted lead.
    expect(plain(tui.frame())).not.toContain('Inbox — open leads');

    await tui.press(KEYS.escape);
    expect(tui.state().focus).toBe('contacts');
    await tui.press(...go(second), '2');
    const two = contacts[second];
    if (!two) throw new Error('no contact');
    await tui.waitFor(`Thread — ${oneLine(two.name)} (${two.phone})`);
    await tui.waitFor(() => contactOfThread()?.id === two.id);
    await tui.press('c');
    await waitComposer(tui, two.id);
    await tui.press(KEYS.escape);

    // A contact with no lead: no thread, and the pane and c say so, naming them with their number.
    await tui.press('5', ...go(without), '2');
    const lonely = contacts[without];
    if (!lonely) throw new Error('no contact');
    const why = `No lead in the inbox's lists for ${oneLine(lonely.name)} (${lonely.phone}): no thread to show (c in Contacts texts them).`;
    await tui.waitFor(`No lead in the inbox's lists for ${oneLine(lonely.name)} (${lonely.phone})`);
    await tui.press('c');
    expect(tui.state().composer).toBeUndefined();
    expect(tui.state().notice?.text).toBe(why);

    // Back in the Inbox: the thread beside it is the Inbox's highlighted lead again.
    await tui.press('1');
    const highlighted = selectedLead(tui.state());
    if (!highlighted) throw new Error('no lead');
    const frame = plain(await tui.waitFor((f) => plain(f).includes(titleOf(highlighted))));
    expect(frame).toMatch(/│ Inbox — open leads/);
    expect(selectedContact(tui.state())?.id).toBe(lonely.id);
  });

  it('i: the inbound text’s lead, highlighted in the Inbox when listed there, else kept while the shop moves', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const callbacks = new Set(tui.state().inbox.callbacks.data?.open_leads.map((lead) => lead.id));
    const rows = inboxRows(tui.state());
    const index = rows.findIndex(
      (lead, at) => at > 2 && !callbacks.has(lead.id) && /^[\w .'-]+$/.test(lead.contact_name),
    );
    const lead = rows[index];
    if (!lead) throw new Error('no open lead outside the callbacks');
    tui.s.sim.receiveText(lead.id, 'Is 3pm still ok?');
    tui.session.poller.refreshAll();
    await tui.waitFor(
      (_f, state) => state.inbox.open.data?.latest_inbound[0]?.body_preview === 'Is 3pm still ok?',
    );
    // Its thread read (highlighted beside the inbox), so the preview names its sender.
    await selectLeadByPhone(tui, lead.caller_phone);
    await tui.press(KEYS.escape);
    await tui.waitFor(`${oneLine(lead.contact_name)} (${lead.caller_phone}): Is 3pm still ok?`);

    // Listed in the Inbox as shown: i highlights it there, and the thread beside is it.
    await tui.press('g', 'i');
    expect(selectedLead(tui.state())?.id).toBe(lead.id);
    expect(tui.state().threadFrom).toEqual({ list: 'inbox' });
    await tui.waitFor(() => shownLeadId(tui) === lead.id);

    // Not listed (the missed calls are shown): the thread is that lead, alone, whatever arrives.
    await tui.press('1', 'f', 'i');
    expect(tui.state().threadFrom).toEqual({ list: 'lead', leadId: lead.id });
    let frame = plain(await tui.waitFor(titleOf(lead)));
    expect(frame).not.toContain('Inbox — ');
    const other = rows.find((each) => each.id !== lead.id);
    if (!other) throw new Error('no other lead');
    tui.s.sim.receiveText(other.id, 'Newer text from someone else');
    await arrive(tui, 1);
    await tui.waitFor(
      (_f, state) =>
        state.inbox.open.data?.latest_inbound.some((text) => text.body_preview.startsWith('Newer')) === true,
    );
    expect(shownLeadId(tui)).toBe(lead.id);
    await tui.press('c');
    await waitComposer(tui, simContactOfLead(tui.s.sim, lead.id).contact.id);
    await tui.press(KEYS.escape);

    // Back in the Inbox, the thread is its highlighted lead again.
    await tui.press('1');
    const highlighted = selectedLead(tui.state());
    if (!highlighted) throw new Error('no lead');
    frame = plain(await tui.waitFor((f) => plain(f).includes(titleOf(highlighted))));
    expect(frame).toMatch(/│ Inbox — missed calls with no reply/);
  });
});
