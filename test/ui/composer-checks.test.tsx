/**
 * The composer and the question before a send, against the simulator over a
 * real socket: the composer grows with a long text and keeps the cursor in
 * view, line breaks, the whole text and every finding in the question, and
 * the checks a careful person makes: no consent (type send), an opt-out
 * (refused; type override), quiet hours at the customer's location (a
 * warning), texting not live (said when the composer opens), and a text that
 * arrived meanwhile (shown, and asked again). The consent record is always
 * said, beside every other finding. Every send stays one text, to the contact
 * the question named.
 *
 * The UI's clock is set by each test: mid-afternoon for the seed's customers
 * (Oregon) unless a test sets another time.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/sim/simulator.js';
import { isOpen } from '../../src/sim/views.js';
import { day } from '../../src/ui-kit/format.js';
import { clockAt, seedCustomersAfternoon } from '../support/clock.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  selectLeadByPhone,
  simConsent,
  simContactOfLead,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

/** 273 characters, as in the issue: the end and the cursor used to be out of sight. */
const LONG_TEXT =
  'Hi Dana, thanks for your patience today. The part for the water heater arrived this afternoon and our tech can come back tomorrow between 9 and 11. Please make sure the area around the tank is clear and that someone over 18 is home. Reply here if that window does not work!';

async function start(options: Parameters<typeof startTui>[0] = {}) {
  const tui = await startTui({ columns: 80, rows: 24, now: seedCustomersAfternoon().now, ...options });
  const wire = recordWire(tui.s.sim);
  await waitStartup(tui);
  return { tui, wire };
}

async function composeTo(tui: TestTui, test: (contact: { id: string; phone: string }) => boolean) {
  const target = inboxLeadWhere(tui, test);
  await selectLeadByPhone(tui, target.contact.phone);
  await tui.press('c');
  await waitComposer(tui, target.contact.id);
  return target;
}

const consenting = (tui: TestTui) => (contact: { phone: string }) =>
  simConsent(tui.s.sim, contact.phone) === true;

/** The frame's text with the boxes' borders and every space removed: what a text wrapped over rows says. */
const flat = (frame: string) => frame.replace(/[│║┃]/g, '').replace(/\s+/g, '');

/** The composer's (or the question's) line after the recipient's: the consent record, the findings' tags, the customer's time. */
function summaryLine(frame: string): string {
  const lines = frame.split('\n');
  const counts = lines.findIndex((line) => /[│║] To .* characters · /.test(line));
  return (lines[counts + 1] ?? '').replace(/^[│║] | *[│║]$/g, '').trim();
}

/** A contact of the seed moved to another number (its consent records with it), before any client reads it. */
function movedTo(
  sim: Simulator,
  contact: Simulator['shops']['main']['contacts'][number] | undefined,
  phone: string,
) {
  if (!contact) throw new Error('no such contact in the seed');
  const shop = sim.shops.main;
  for (const record of shop.consents) if (record.phone === contact.phone) record.phone = phone;
  contact.phone = phone;
  const consentedAt = shop.consents.filter((record) => record.phone === phone).at(-1)?.recordedAt ?? 0;
  return { ...contact, consentedAt };
}

/** Contacts of the main shop whose latest consent record is a yes, with an open lead. */
const consentingContacts = (sim: Simulator) =>
  sim.shops.main.contacts.filter((c) => simConsent(sim, c.phone) === true && hasOpenLead(sim, c.id));

/** Has an open lead, and a plain name (the inbox's phone filter finds it; no hostile demo text). */
const hasOpenLead = (sim: Simulator, contactId: string) =>
  /^[\p{L} .'-]+$/u.test(sim.shops.main.contacts.find((c) => c.id === contactId)?.name ?? '') &&
  sim.shops.main.leads.some((lead) => lead.contactId === contactId && isOpen(lead));

/** The composer's box: the rows between its top and bottom border (round corners). */
function composerRows(frame: string): string[] {
  const lines = frame.split('\n');
  const top = lines.findIndex((line) => line.startsWith('╭'));
  const bottom = lines.findIndex((line, index) => index > top && line.startsWith('╰'));
  return top === -1 || bottom === -1 ? [] : lines.slice(top + 1, bottom);
}

describe('the composer', () => {
  it('grows with a long text up to a third of the screen and keeps the cursor in view', async () => {
    const { tui } = await start();
    const { contact } = await composeTo(tui, consenting(tui));
    expect(composerRows(tui.frame())).toHaveLength(4);
    await tui.press(LONG_TEXT);
    expect(composedText(tui, contact.id)).toBe(LONG_TEXT);
    // At 80×24 a third is 8 rows: its border, the counts, one line of findings, four rows of text.
    const whole = await tui.waitFor((frame) => frame.includes('window does not work!'));
    const rows = composerRows(whole);
    expect(rows).toHaveLength(6);
    expect(rows.join('\n')).toContain('273 characters · 2 segments (GSM-7)');
    expect(flat(rows.join('\n'))).toContain(flat(LONG_TEXT));
    // Longer than a third of the screen: the rows follow the cursor, the start scrolls out of sight.
    await tui.press('\n', 'P.S. bring the invoice', '\n', 'Thanks, Maria');
    const atEnd = await tui.waitFor((frame) => frame.includes('Thanks, Maria'));
    expect(composerRows(atEnd)).toHaveLength(6);
    expect(atEnd).not.toContain('Hi Dana, thanks');
    // ctrl-a: the start of the text, and its row, come back (the end goes).
    await tui.press('\u0001');
    const atStart = await tui.waitFor((frame) => frame.includes('Hi Dana, thanks'));
    expect(atStart).not.toContain('Thanks, Maria');
    // And the panes gave up the rows the composer took: the frame is still the terminal's height.
    expect(atStart.split('\n').length).toBeLessThanOrEqual(23);
  });

  it('ctrl-j and alt-enter break lines; each line starts a row', async () => {
    const { tui, wire } = await start();
    const { contact } = await composeTo(tui, consenting(tui));
    await tui.press('Line one', '\n', 'Line two', '\u001B\r', 'Line three');
    expect(composedText(tui, contact.id)).toBe('Line one\nLine two\nLine three');
    const rows = composerRows(await tui.waitFor('Line three'));
    const textRows = rows.slice(2).map((row) => row.replace(/│/g, '').trim());
    expect(textRows).toEqual(['Line one', 'Line two', 'Line three']);
    expect(tui.state().prompt).toBeUndefined();
    expect(wire.writes).toEqual([]);
  });
});

describe('the question before sending', () => {
  it('shows the whole text, the recipient, the segments and its findings; y sends that text to that contact', async () => {
    const { tui, wire } = await start({ columns: 100, rows: 30 });
    const { contact } = await composeTo(tui, consenting(tui));
    await tui.press(LONG_TEXT, KEYS.enter);
    const frame = await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    expect(flat(frame)).toContain(flat(LONG_TEXT));
    expect(frame).toContain(`To ${contact.name} (${contact.phone}) · 273 characters · 2 segments (GSM-7)`);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      path: `/contacts/${contact.id}/messages`,
      body: { body: LONG_TEXT },
    });
  });

  it('no consent on record: says why, y does not send, typing send does (once)', async () => {
    const { tui, wire } = await start({ columns: 100, rows: 30 });
    const { contact } = await composeTo(tui, (c) => simConsent(tui.s.sim, c.phone) === null);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await tui.press('Your estimate is ready', KEYS.enter);
    const frame = await tui.waitFor('Type send, then enter');
    expect(frame).toContain('No consent on record for this number');
    await tui.press('y');
    await tui.press('Y', KEYS.enter);
    await tui.waitFor('not sent: type exactly send');
    expect(wire.writes).toEqual([]);
    await tui.press('\u0015', 'send', KEYS.enter);
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    await tui.press(KEYS.enter, 'send', KEYS.enter);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]?.path).toBe(`/contacts/${contact.id}/messages`);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
  });

  it('an opt-out text: refused, naming the text; send is not enough, override sends once', async () => {
    const { tui, wire } = await start({ columns: 100, rows: 30 });
    const target = inboxLeadWhere(tui, consenting(tui));
    tui.s.sim.receiveText(target.leadId, ' Stop! ');
    await selectLeadByPhone(tui, target.contact.phone);
    await tui.press('c');
    const composing = await waitComposer(tui, target.contact.id);
    expect(composing).toContain('The customer opted out');

    await tui.press('One last thing', KEYS.enter);
    const frame = await tui.waitFor('Type override, then enter');
    expect(frame).toContain('"Stop!"');
    expect(frame).toContain('may be truncated');
    await tui.press('y', KEYS.enter);
    await tui.waitFor('not sent: type exactly override');
    await tui.press('\u0015', 'send', KEYS.enter);
    await tui.waitFor('not sent: type exactly override');
    expect(wire.writes).toEqual([]);

    await tui.press('\u0015', 'override', KEYS.enter);
    await tui.waitFor(`Sent to ${target.contact.name} (${target.contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      path: `/contacts/${target.contact.id}/messages`,
      body: { body: 'One last thing' },
    });
  });

  it('a START after the STOP opts the customer back in: y/n again', async () => {
    const { tui } = await start({ columns: 100, rows: 30 });
    const target = inboxLeadWhere(tui, consenting(tui));
    tui.s.sim.receiveText(target.leadId, 'STOP');
    tui.s.sim.receiveText(target.leadId, 'start');
    await selectLeadByPhone(tui, target.contact.phone);
    await tui.press('c');
    expect(await waitComposer(tui, target.contact.id)).not.toContain('opted out');
    await tui.press('Welcome back', KEYS.enter);
    await tui.waitFor(`Send to ${target.contact.name} (${target.contact.phone})? y/n`);
  });

  it('quiet hours are the customer’s: a warning beside the consent record, in the composer and the question; y still sends', async () => {
    // 21:14 in Denver is 20:14 in Oregon and 23:14 at the shop (New York): only the Denver customer is in quiet hours.
    const now = clockAt('America/Denver', '21:14').now;
    const s = await startSim();
    const denver = movedTo(s.sim, consentingContacts(s.sim)[0], '+13035550142');
    const { tui, wire } = await start({
      sim: s,
      columns: 120,
      rows: 30,
      now,
      session: { timeZone: 'America/New_York' },
    });
    const given = `consent given ${day(new Date(denver.consentedAt).toISOString())}`;

    const oregon = await composeTo(tui, (c) => c.phone !== denver.phone && consenting(tui)(c));
    const composing = await waitComposer(tui, oregon.contact.id);
    expect(composing).toContain('20:14 for the customer (America/Los_Angeles, from the area code)');
    expect(composing).not.toContain('Quiet hours');
    await tui.press(KEYS.escape);

    const { contact } = await composeTo(tui, (c) => c.phone === denver.phone);
    const summary = summaryLine(tui.frame());
    expect(summary).toContain(given);
    expect(summary).toContain('⚠ quiet hours');
    expect(summary).toContain('21:14 for the customer (America/Denver, from the area code)');
    expect(tui.frame()).toContain(
      '⚠ Quiet hours (08:00–21:00 their time): it is 21:14 for the customer (America/Denver, from the area code).',
    );
    await tui.press('Early start tomorrow', KEYS.enter);
    const frame = await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    expect(frame).toContain(given);
    expect(flat(frame)).toContain(
      flat(
        'Quiet hours (08:00–21:00 their time): it is 21:14 for the customer (America/Denver, from the area code).',
      ),
    );
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
  });

  it('the consent record is said beside every other finding, even in the smallest composer', async () => {
    // 18 rows: the composer has room for one line beside the text, the summary.
    const now = clockAt('America/Denver', '22:30').now;
    const s = await startSim();
    const shop = s.sim.shops.main;
    const noRecord = shop.contacts.find(
      (c) => simConsent(s.sim, c.phone) === null && hasOpenLead(s.sim, c.id),
    );
    const refused = shop.contacts.find(
      (c) => simConsent(s.sim, c.phone) === false && hasOpenLead(s.sim, c.id),
    );
    if (!noRecord || !refused)
      throw new Error('the seed has no contact without consent, or none that refused it');
    movedTo(s.sim, noRecord, '+13035550143');
    const { tui } = await start({ sim: s, columns: 140, rows: 18, now });
    const lead = inboxLeadWhere(tui, (c) => c.id === noRecord.id);
    s.sim.receiveText(lead.leadId, 'STOP');
    await composeTo(tui, (c) => c.id === noRecord.id);
    expect(composerRows(tui.frame())).toHaveLength(4);
    expect(summaryLine(tui.frame())).toMatch(
      /no consent record · ⚠ opted out · ⚠ quiet hours · 22:30 for the customer \(America\/Denver, from the area code\)/,
    );
    await tui.press(KEYS.escape);

    await composeTo(tui, (c) => c.id === refused.id);
    // 21:30 in Oregon: quiet for this customer too.
    expect(summaryLine(tui.frame())).toMatch(
      /consent not given \d{4}-\d{2}-\d{2} · ⚠ quiet hours · 21:30 for the customer \(America\/Los_Angeles, from the area code\)/,
    );

    const noNumber = await start({ columns: 140, rows: 18, now, token: 'no_number' });
    const row = noNumber.tui.state().inbox.open.data?.open_leads[0];
    if (!row) throw new Error('the shop has no open lead');
    const other = simContactOfLead(noNumber.tui.s.sim, row.id, noNumber.tui.s.sim.shops.noNumber).contact;
    await noNumber.tui.press('c');
    await waitComposer(noNumber.tui, other.id);
    expect(summaryLine(noNumber.tui.frame())).toMatch(
      /^(consent given \d{4}-\d{2}-\d{2}|no consent record|consent not given \d{4}-\d{2}-\d{2}) · ⚠ texting not live · /,
    );
  });

  it('texting not live: said as soon as the composer opens', async () => {
    const { tui } = await start({ columns: 100, rows: 30, token: 'no_number' });
    const row = tui.state().inbox.open.data?.open_leads[0];
    if (!row) throw new Error('the shop has no open lead');
    const { contact } = simContactOfLead(tui.s.sim, row.id, tui.s.sim.shops.noNumber);
    await tui.press('c');
    const frame = await waitComposer(tui, contact.id);
    expect(frame).toContain('Texting is not live: the shop has no texting number');
  });
});

describe('someone wrote meanwhile', () => {
  it('a customer text that arrived after the composer opened is shown after y, and the question asked again', async () => {
    const { tui, wire } = await start({ columns: 100, rows: 30 });
    const { leadId, contact } = await composeTo(tui, consenting(tui));
    await tui.press('See you at 3', KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    tui.s.sim.receiveText(leadId, 'Actually, can you come at 4 instead?');

    await tui.press('y');
    const again = await tui.waitFor('The customer wrote since you started');
    expect(flat(again)).toContain(flat('Actually, can you come at 4 instead?'));
    expect(again).toContain(`Send to ${contact.name} (${contact.phone})? y/n`);
    expect(wire.writes).toEqual([]);
    // Still the same contact's question; no, then the text is back in the composer.
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-send', target: { contactId: contact.id } });
    await tui.press('n');
    await waitComposer(tui, contact.id);
    expect(composedText(tui, contact.id)).toBe('See you at 3');

    // Asked again, nothing new arrived: y sends, once.
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      path: `/contacts/${contact.id}/messages`,
      body: { body: 'See you at 3' },
    });
  });

  it('a text sent from another terminal meanwhile is shown before anything is sent', async () => {
    const { tui, wire } = await start({ columns: 100, rows: 30 });
    const { contact } = await composeTo(tui, consenting(tui));
    await tui.press('On my way', KEYS.enter);
    await tui.waitFor('? y/n');
    const other = await tui.s.fetch(`/contacts/${contact.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Tech is on the way now' }),
    });
    expect(other.status).toBe(200);
    const sentByOther = wire.writes.length;

    await tui.press('y');
    const again = await tui.waitFor('Someone else sent since you started');
    expect(again).toContain('Tech is on the way now');
    expect(wire.writes).toHaveLength(sentByOther);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(sentByOther + 1);
  });
});
