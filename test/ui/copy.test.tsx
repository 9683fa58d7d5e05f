/**
 * Copy (y): the selected record's phone number, the selected text of a
 * thread, the dashboard's links, onto the terminal's clipboard with OSC 52
 * (wrapped for tmux when inside it); the notice says what was copied. What is
 * copied is the record staff were looking at, sanitized, capped and base64'd:
 * nothing from the server can end the sequence or start another.
 */
import { describe, expect, it } from 'vitest';
import { selectedLead, threadLeadId } from '../../src/store/selectors.js';
import { COPY_LIMIT } from '../../src/ui-kit/clipboard.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, plain, QUIET } from './nav-pane-helpers.js';

const OSC52_START = '\u001B]52;c;';
const BEL = '\u0007';

/** The base64 payload of one bare OSC 52 sequence, or undefined when the bytes are anything else. */
function osc52Payload(write: string): string | undefined {
  if (!write.startsWith(OSC52_START) || !write.endsWith(BEL)) return undefined;
  const payload = write.slice(OSC52_START.length, -BEL.length);
  return /^[A-Za-z0-9+/=]*$/.test(payload) ? payload : undefined;
}

/** The text the last OSC 52 write puts on the clipboard. */
function lastCopied(tui: TestTui): string {
  const write = tui.terminalWrites.at(-1) ?? '';
  const payload = osc52Payload(write);
  if (payload === undefined) throw new Error(`not a bare OSC 52 sequence: ${JSON.stringify(write)}`);
  return Buffer.from(payload, 'base64').toString('utf8');
}

describe('copy (y)', () => {
  it("copies the selected lead's phone, still that lead's after a new one arrives above it", async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    await tui.press('j', 'j');
    const lead = selectedLead(tui.state());
    if (!lead) throw new Error('no lead selected');
    await tui.press('y');
    expect(tui.terminalWrites).toHaveLength(1);
    expect(lastCopied(tui)).toBe(lead.caller_phone);
    expect(plain(await tui.waitFor('Copied'))).toContain(
      `Copied ${oneLine(lead.contact_name)}'s phone number: ${lead.caller_phone}`.slice(0, 70),
    );

    // A new lead at the top moves every row down; the highlight and y stay on the same lead.
    tui.s.sim.inject('missed_call');
    const before = tui.state().inbox.open.data?.open_leads.length ?? 0;
    await tui.press('r');
    await tui.waitFor((_frame, state) => (state.inbox.open.data?.open_leads.length ?? 0) === before + 1);
    await tui.press('y');
    expect(tui.terminalWrites).toHaveLength(2);
    expect(lastCopied(tui)).toBe(lead.caller_phone);
  });

  it('copies the text selected in a thread, and the contact phone in Contacts', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    // A lead with a few texts: the inbox filter by its phone selects it.
    const shop = tui.s.sim.shops.main;
    const listed = tui.state().inbox.open.data?.open_leads ?? [];
    const withTexts = listed.find(
      (row) => (shop.leads.find((candidate) => candidate.id === row.id)?.messages.length ?? 0) >= 3,
    );
    if (!withTexts) throw new Error('no listed lead with three texts');
    await tui.press('/', withTexts.caller_phone, KEYS.enter);
    expect(selectedLead(tui.state())?.id).toBe(withTexts.id);
    await tui.press(KEYS.enter);
    await tui.waitFor((_frame, state) => {
      const id = threadLeadId(state);
      return id !== undefined && (state.leads[id]?.data?.messages.length ?? 0) >= 2;
    });
    const messages = [...(tui.state().leads[threadLeadId(tui.state()) ?? '']?.data?.messages ?? [])].sort(
      (a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at),
    );
    // The newest text is selected when a thread opens; k selects the one before it.
    await tui.press('k', 'y');
    expect(lastCopied(tui)).toBe(messages.at(-2)?.body);
    expect(tui.state().notice?.text).toMatch(/^Copied the text of /);

    await tui.press('5');
    await tui.waitFor(/Contacts \(\d+\)/);
    await tui.press('j', 'y');
    const contact = tui.state().contacts.data?.items[1];
    expect(lastCopied(tui)).toBe(contact?.phone);
  });

  it("shows the dashboard's links on Today, and copies them: y the Today link, Y the Inbox link", async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const links = tui.state().me.data?.links;
    if (!links) throw new Error('no links');
    await tui.press('6');
    const frame = plain(await tui.waitFor('Dashboard'));
    expect(frame).toContain(links.today);
    expect(frame).toContain(links.inbox);
    await tui.press('y');
    expect(lastCopied(tui)).toBe(links.today);
    expect(tui.state().notice?.text).toBe(`Copied the dashboard's Today link: ${links.today}`);
    await tui.press('Y');
    expect(lastCopied(tui)).toBe(links.inbox);
  });

  it('inside tmux, wraps the sequence for passthrough with every ESC doubled', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET, tmux: true });
    await firstLoad(tui, startupLoaded);
    const lead = selectedLead(tui.state());
    await tui.press('y');
    const write = tui.terminalWrites.at(-1) ?? '';
    const base64 = Buffer.from(lead?.caller_phone ?? '?').toString('base64');
    expect(write).toBe(`\u001BPtmux;\u001B\u001B]52;c;${base64}\u0007\u001B\\`);
  });

  it('a hostile phone number cannot end the sequence or start another; what is copied is capped', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const lead = selectedLead(tui.state());
    const shop = tui.s.sim.shops.main;
    const simLead = shop.leads.find((candidate) => candidate.id === lead?.id);
    const contact = shop.contacts.find((candidate) => candidate.id === simLead?.contactId);
    if (!contact) throw new Error('no contact');
    contact.phone = `+1555\u0007\u001B]52;c;ZXZpbA==\u0007\u001B\\\u009D52;c;x\u009C${'9'.repeat(COPY_LIMIT * 2)}`;
    await tui.press('r');
    await tui.waitFor((_frame, state) => selectedLead(state)?.caller_phone === contact.phone);
    await tui.press('y');
    const write = tui.terminalWrites.at(-1) ?? '';
    // One sequence, base64 only between its start and its end.
    expect(osc52Payload(write)).toBeDefined();
    const copied = lastCopied(tui);
    expect(copied).not.toMatch(/\p{Cc}/u);
    expect(copied.startsWith('+1555')).toBe(true);
    expect([...copied].length).toBeLessThanOrEqual(COPY_LIMIT);
  });
});
