/**
 * Composing and sending a text, through the keyboard, against the simulator:
 * c opens the composer (from the inbox, the thread or Contacts), enter asks
 * "Send to NAME (PHONE)? y/n", y sends exactly once with an Idempotency-Key,
 * and nothing typed is ever lost (fast typing, backspace, paste, esc, refusals).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  faultOnNext,
  faultOnNextWrite,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  selectContactByPhone,
  selectLeadByPhone,
  simConsent,
  simContactOfLead,
  typeBackToBack,
  waitComposer,
  waitStartup,
  writesTo,
} from '../support/write-flows.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SEND_PATH = /^\/v1\/contacts\/[^/]+\/messages$/;

/** The threads are read when staff open them or write to them: the picture's own reads would read them first. */
const NO_PICTURE_READS = { burstMs: 600_000, pacedMs: 600_000 };

async function start(options: Parameters<typeof startTui>[0] = {}) {
  // Mid-afternoon for the seed's customers: no quiet-hours warning, whenever the suite runs.
  const tui = await startTui({
    columns: 100,
    rows: 30,
    now: seedCustomersAfternoon().now,
    intervals: NO_PICTURE_READS,
    ...options,
  });
  const wire = recordWire(tui.s.sim);
  await waitStartup(tui);
  return { tui, wire };
}

/** A lead in the inbox whose contact gave consent, selected and composed to with c. */
async function composeToConsentingLead(tui: TestTui) {
  const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
  await selectLeadByPhone(tui, target.contact.phone);
  await tui.press('c');
  await waitComposer(tui, target.contact.id);
  return target;
}

/** The line of the frame that holds the composer's counts. */
const countsLine = (frame: string) => frame.split('\n').find((line) => line.includes(' characters · ')) ?? '';

describe('compose → confirm → send', () => {
  it('from the inbox: c opens the composer once the thread is loaded; y sends one text with an Idempotency-Key', async () => {
    const { tui, wire } = await start();
    const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
    const { contact } = target;
    const before = outboundTo(tui.s.sim, contact.id).length;
    await selectLeadByPhone(tui, contact.phone);
    expect(tui.state().leads[target.leadId]?.data).toBeUndefined();

    await tui.press('c');
    // The inbox row has no contact id: the thread is read first, then the composer opens.
    const composing = await waitComposer(tui, contact.id);
    expect(tui.state().leads[target.leadId]?.data?.contact.id).toBe(contact.id);
    expect(composing).toContain(`To ${contact.name} (${contact.phone})`);

    const body = 'On my way, see you at 3';
    await tui.press(body);
    await tui.waitFor((frame) => countsLine(frame).includes(`${body.length} characters · 1 segment (GSM-7)`));

    await tui.press(KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    expect(wire.writes).toEqual([]);

    wire.hold();
    await tui.press('y');
    await tui.waitFor('sending…');
    expect(tui.state().composer).toBeUndefined();
    wire.release();
    await tui.waitFor((frame, state) => state.outbox[0]?.state === 'sent' && frame.includes('Sent to '));

    expect(wire.writes).toHaveLength(1);
    const [sent] = wire.writes;
    expect(sent).toMatchObject({ method: 'POST', path: `/contacts/${contact.id}/messages`, body: { body } });
    expect(sent?.idempotencyKey).toMatch(UUID_V4);
    expect(sent?.idempotencyKey).toBe(tui.state().outbox[0]?.idempotencyKey);
    expect(await writesTo(tui, SEND_PATH)).toEqual([
      { method: 'POST', path: `/v1/contacts/${contact.id}/messages`, status: 200 },
    ]);
    const outbound = outboundTo(tui.s.sim, contact.id);
    expect(outbound).toHaveLength(before + 1);
    expect(outbound.at(-1)?.body).toBe(body);
    // The simulator remembered the key the request carried: the same key again sends nothing new.
    const again = await tui.s.fetch(`/contacts/${contact.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': sent?.idempotencyKey ?? '' },
      body: JSON.stringify({ body }),
    });
    expect(await again.json()).toEqual({ data: { sent: true, replayed: true } });
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
    // A sent text leaves nothing typed behind.
    expect(composedText(tui, contact.id)).toBe('');
  });

  it('from the inbox, on a lead whose last read failed: the composer opens once a read succeeds', async () => {
    const { tui } = await start();
    const { leadId, contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    faultOnNext(tui.s.sim, (request) => request.method === 'GET' && request.path === `/v1/leads/${leadId}`, {
      kind: 'status',
      status: 503,
    });
    await selectLeadByPhone(tui, contact.phone);
    await tui.press(KEYS.enter);
    await tui.waitFor(
      (_frame, state) => state.leads[leadId]?.error !== undefined && !state.leads[leadId]?.data,
    );
    await tui.press(KEYS.escape);
    await tui.waitFor((_frame, state) => state.focus === 'inbox');

    await tui.press('c');
    await waitComposer(tui, contact.id);
    expect(tui.state().leads[leadId]?.data?.contact.id).toBe(contact.id);
  });

  it('from the thread: n returns to the composer with the text intact, then y sends', async () => {
    const { tui, wire } = await start();
    const { leadId, contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press(KEYS.enter);
    await tui.waitFor(`Thread — ${contact.name}`);
    await tui.waitFor((_frame, state) => state.leads[leadId]?.data !== undefined);
    expect(tui.state().focus).toBe('thread');

    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Running late, 10 min');
    await tui.press(KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);

    await tui.press('n');
    await tui.waitFor((frame, state) => state.prompt === undefined && !frame.includes('? y/n'));
    expect(tui.state().composer?.contactId).toBe(contact.id);
    expect(composedText(tui, contact.id)).toBe('Running late, 10 min');
    await tui.waitFor('Running late, 10 min');
    // Esc on the prompt answers no as well, and enter never answers it.
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    await tui.press(KEYS.enter, KEYS.escape);
    await tui.waitFor((frame) => !frame.includes('? y/n'));
    expect(tui.state().composer?.contactId).toBe(contact.id);
    expect(wire.writes).toEqual([]);
    expect(await tui.writes()).toEqual([]);

    await tui.press(KEYS.enter, 'y');
    await tui.waitFor((frame, state) => state.outbox[0]?.state === 'sent' && frame.includes('Sent to '));
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      path: `/contacts/${contact.id}/messages`,
      body: { body: 'Running late, 10 min' },
    });
    expect(wire.writes[0]?.idempotencyKey).toMatch(UUID_V4);
    expect(outboundTo(tui.s.sim, contact.id).at(-1)?.body).toBe('Running late, 10 min');
  });

  it('from Contacts: the composer names the contact, says consent is unknown, and sends', async () => {
    const { tui, wire } = await start();
    // A contact with no lead (an old customer): no consent record can be known.
    const shop = tui.s.sim.shops.main;
    const contact = shop.contacts.find(
      (candidate) =>
        /^[\p{L} .'-]+$/u.test(candidate.name) &&
        shop.contacts.filter((other) => other.phone === candidate.phone).length === 1 &&
        shop.leads.every((lead) => lead.contactId !== candidate.id),
    );
    if (!contact) throw new Error('no plain contact');
    const before = outboundTo(tui.s.sim, contact.id).length;
    await selectContactByPhone(tui, contact.phone);

    await tui.press('c');
    const frame = await waitComposer(tui, contact.id);
    expect(frame).toContain(`To ${contact.name} (${contact.phone})`);
    expect(frame).toContain('consent unknown · ');

    await tui.press('Your part arrived');
    await tui.press(KEYS.enter);
    // No consent record can be known: a single y does not send; typing send does.
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? Type send, then enter`);
    await tui.press('y', KEYS.enter);
    await tui.waitFor('not sent: type exactly send');
    expect(wire.writes).toEqual([]);
    await tui.press(KEYS.backspace, 'send', KEYS.enter);
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);

    expect(tui.state().outbox).toMatchObject([{ contactId: contact.id, state: 'sent' }]);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      path: `/contacts/${contact.id}/messages`,
      body: { body: 'Your part arrived' },
    });
    expect(wire.writes[0]?.idempotencyKey).toMatch(UUID_V4);
    expect(await writesTo(tui, SEND_PATH)).toHaveLength(1);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
    expect(outboundTo(tui.s.sim, contact.id).at(-1)?.body).toBe('Your part arrived');
  });
});

describe('the composer', () => {
  it('counts characters and SMS segments: GSM-7, 2 segments past 160, UCS-2 once an emoji is typed', async () => {
    const { tui } = await start();
    const { contact } = await composeToConsentingLead(tui);
    await tui.waitFor((frame) => countsLine(frame).includes('0 characters'));

    await tui.press('x'.repeat(160));
    await tui.waitFor((frame) => countsLine(frame).includes('160 characters · 1 segment (GSM-7)'));
    await tui.press('x');
    await tui.waitFor((frame) => countsLine(frame).includes('161 characters · 2 segments (GSM-7)'));

    // Back to a short plain text, then an emoji: the whole text is UCS-2.
    await typeBackToBack(
      tui,
      Array.from({ length: 161 }, () => KEYS.backspace),
    );
    await tui.waitFor((frame) => countsLine(frame).includes('0 characters'));
    await tui.press('See you soon');
    await tui.waitFor((frame) => countsLine(frame).includes('12 characters · 1 segment (GSM-7)'));
    await tui.press(' 👍');
    await tui.waitFor((frame) => countsLine(frame).includes('14 characters · 1 segment (UCS-2)'));
    expect(composedText(tui, contact.id)).toBe('See you soon 👍');
  });

  it('says when there is no consent on record, when consent was not given, and when it was given', async () => {
    const { tui } = await start();
    const none = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === null);
    await selectLeadByPhone(tui, none.contact.phone);
    await tui.press('c');
    const noRecord = await waitComposer(tui, none.contact.id);
    expect(noRecord).toContain('no consent record · ');

    await tui.press(KEYS.escape);
    const refused = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === false);
    await selectLeadByPhone(tui, refused.contact.phone);
    await tui.press('c');
    const notGiven = await waitComposer(tui, refused.contact.id);
    expect(notGiven).toMatch(/consent not given \d{4}-\d{2}-\d{2} · /);
    expect(notGiven).not.toContain('no consent record');

    await tui.press(KEYS.escape);
    const given = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
    await selectLeadByPhone(tui, given.contact.phone);
    await tui.press('c');
    const ok = await waitComposer(tui, given.contact.id);
    expect(ok).toMatch(/consent given \d{4}-\d{2}-\d{2} · /);
    expect(ok).not.toMatch(/no consent record|consent not given|consent unknown/);
  });

  it('esc closes it and keeps the text for that contact; another contact has its own empty text', async () => {
    const { tui, wire } = await start();
    const first = await composeToConsentingLead(tui);
    await tui.press('Quote is $180');
    await tui.press(KEYS.escape);
    await tui.waitFor(
      (frame, state) => state.composer === undefined && !frame.includes(`To ${first.contact.name}`),
    );
    expect(composedText(tui, first.contact.id)).toBe('Quote is $180');

    await tui.press('c');
    const reopened = await waitComposer(tui, first.contact.id);
    expect(reopened).toContain('Quote is $180');
    expect(countsLine(reopened)).toContain('13 characters');

    await tui.press(KEYS.escape);
    const second = inboxLeadWhere(
      tui,
      (contact) => contact.id !== first.contact.id && simConsent(tui.s.sim, contact.phone) === true,
    );
    await selectLeadByPhone(tui, second.contact.phone);
    await tui.press('c');
    const other = await waitComposer(tui, second.contact.id);
    expect(other).toContain(`To ${second.contact.name}`);
    expect(countsLine(other)).toContain('0 characters');
    expect(other).not.toContain('Quote is $180');
    await tui.press('Hi');
    await tui.press(KEYS.escape);

    await selectLeadByPhone(tui, first.contact.phone);
    await tui.press('c');
    expect(await waitComposer(tui, first.contact.id)).toContain('Quote is $180');
    expect(composedText(tui, second.contact.id)).toBe('Hi');
    expect(wire.writes).toEqual([]);
  });

  it('keeps every character typed, in one chunk or in many chunks written back to back', async () => {
    const { tui } = await start();
    const { contact } = await composeToConsentingLead(tui);
    await tui.press('hello there');
    expect(composedText(tui, contact.id)).toBe('hello there');

    await typeBackToBack(
      tui,
      Array.from({ length: 11 }, () => KEYS.backspace),
    );
    expect(composedText(tui, contact.id)).toBe('');
    await typeBackToBack(tui, [...'hello there']);
    expect(composedText(tui, contact.id)).toBe('hello there');
    await tui.waitFor(
      (frame) => frame.includes('hello there') && countsLine(frame).includes('11 characters'),
    );

    // Letters that look like keys (q, j, c, y, 1) are text while composing.
    await typeBackToBack(tui, [' ', 'q', 'j', 'c', 'y', '1', '?']);
    expect(composedText(tui, contact.id)).toBe('hello there qjcy1?');
    expect(tui.quitRequested).toBe(false);
    expect(tui.state().helpOpen).toBe(false);
  });

  it('keys typed right after c, before the thread is read, are the start of the text (q is not quit)', async () => {
    const { tui, wire } = await start();
    const { leadId, contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    const isLeadRead = (request: LoggedRequest) =>
      request.method === 'GET' && request.path === `/v1/leads/${leadId}`;
    wire.hold(isLeadRead);
    await tui.press('c');
    await tui.waitFor(() => wire.held === 1);
    await typeBackToBack(tui, [...'quote 2pm']);
    await tui.press(KEYS.backspace.repeat(2), 'PM', KEYS.enter, '1', 'j');
    expect(tui.quitRequested).toBe(false);
    expect(tui.state().focus).toBe('thread');
    expect(tui.state().prompt).toBeUndefined();
    // What is typed counts as unsent already: ctrl-c asks first.
    await tui.press(KEYS.ctrlC);
    await tui.waitFor('Quit anyway? y/n');
    await tui.press('n');
    expect(tui.quitRequested).toBe(false);

    wire.release();
    const frame = await waitComposer(tui, contact.id);
    expect(composedText(tui, contact.id)).toBe('quote 2PM1j');
    expect(frame).toContain('quote 2PM1j');
    await tui.press(' ok');
    expect(composedText(tui, contact.id)).toBe('quote 2PM1j ok');
  });

  it('esc after c, before the thread is read, gives up on the composer', async () => {
    const { tui, wire } = await start();
    const { leadId, contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    wire.hold((request) => request.method === 'GET' && request.path === `/v1/leads/${leadId}`);
    await tui.press('c');
    await tui.waitFor(() => wire.held === 1);
    await tui.press('x', KEYS.escape);
    wire.release();
    await tui.waitFor((_frame, state) => state.leads[leadId]?.data !== undefined);
    await tui.waitFor(`Thread — ${contact.name}`);
    expect(tui.state().composer).toBeUndefined();
    // The keys are the thread's again.
    await tui.press(KEYS.escape);
    await tui.waitFor((_frame, state) => state.focus === 'inbox');
  });

  it('backspace deletes one character, also when several backspaces arrive in one chunk', async () => {
    const { tui } = await start();
    const { contact } = await composeToConsentingLead(tui);
    await tui.press('hello there');
    await tui.press(KEYS.backspace);
    expect(composedText(tui, contact.id)).toBe('hello ther');
    await typeBackToBack(tui, [KEYS.backspace, KEYS.backspace]);
    expect(composedText(tui, contact.id)).toBe('hello th');
    // A held key or a busy event loop delivers several in one read.
    await tui.press(KEYS.backspace.repeat(3));
    expect(composedText(tui, contact.id)).toBe('hello');
    await tui.press('!!', `${KEYS.backspace}?`);
    expect(composedText(tui, contact.id)).toBe('hello!?');
    await tui.waitFor((frame) => frame.includes('hello!?') && !frame.includes('␡'));
  });

  it('a bracketed paste inserts its line break as text and does not ask to send', async () => {
    const { tui, wire } = await start();
    const { contact } = await composeToConsentingLead(tui);
    await tui.press('Note: ');
    await tui.press(`${KEYS.pasteStart}line one\rline two${KEYS.pasteEnd}`);
    expect(composedText(tui, contact.id)).toBe('Note: line one\nline two');
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.state().composer?.contactId).toBe(contact.id);
    const frame = await tui.waitFor('line two');
    expect(frame).not.toContain('? y/n');
    expect(frame).not.toContain('␍');

    // A paste whose keys arrive one event at a time: enter and tab inside it are text too.
    await tui.press(KEYS.pasteStart, 'a', KEYS.enter, 'b', KEYS.tab, 'c', KEYS.pasteEnd);
    expect(composedText(tui, contact.id)).toBe('Note: line one\nline twoa\nb c');
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.state().focus).toBe('thread');

    // After the paste, enter is enter again.
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    expect(tui.state().prompt).toMatchObject({
      kind: 'confirm-send',
      body: 'Note: line one\nline twoa\nb c',
    });
    expect(wire.writes).toEqual([]);
  });
});

describe('a text is never sent twice', () => {
  it('y twice quickly, then enter and y again, make one POST', async () => {
    const { tui, wire } = await start();
    const { contact } = await composeToConsentingLead(tui);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await tui.press('Be there at 9');
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');

    wire.hold();
    await typeBackToBack(tui, ['y', 'y']);
    await tui.press('yy', KEYS.enter, 'y', KEYS.enter, 'y');
    // Every send starts in the outbox, synchronously with its y: one confirmation, one entry.
    expect(tui.state().outbox).toHaveLength(1);
    await tui.waitFor(() => wire.held === 1);
    await tui.waitFor('sending…');
    wire.release();
    await tui.waitFor((_frame, state) => state.outbox[0]?.state === 'sent');

    await tui.press(KEYS.enter, 'y', 'c', KEYS.enter, 'y');
    expect(tui.state().outbox).toHaveLength(1);
    expect(tui.state().prompt).toBeUndefined();
    expect(wire.writes).toHaveLength(1);
    expect(await writesTo(tui, SEND_PATH)).toHaveLength(1);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
  });

  it('a response lost after the text went out is retried with the same key: one text at the simulator', async () => {
    const { tui, wire } = await start();
    const { contact } = await composeToConsentingLead(tui);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await tui.press('Invoice attached');
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');

    faultOnNextWrite(tui.s.sim, { kind: 'drop_response' });
    await tui.press('y');
    // The notice stays; the thread's "· sent" mark lasts only until the thread is read again (then the
    // service's copy shows), which under load can come before this looks.
    await tui.waitFor(
      (frame, state) =>
        (state.outbox[0]?.state === 'replayed' || state.outbox[0]?.state === 'sent') &&
        /Already sent to |Sent to /.test(frame),
    );

    expect(wire.writes).toHaveLength(2);
    const [first, retry] = wire.writes;
    expect(first?.idempotencyKey).toMatch(UUID_V4);
    expect(retry?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(retry?.body).toEqual(first?.body);
    expect(retry?.body).toEqual({ body: 'Invoice attached' });
    // The first answer never arrived (status 0); the retry was recognised.
    expect((await writesTo(tui, SEND_PATH)).map((write) => write.status)).toEqual([0, 200]);
    expect(tui.state().outbox[0]?.state).toBe('replayed');
    const outbound = outboundTo(tui.s.sim, contact.id);
    expect(outbound).toHaveLength(before + 1);
    expect(outbound.filter((message) => message.body === 'Invoice attached')).toHaveLength(1);
  });

  it('a 503 before the text went out is retried with the same key and ends sent, once', async () => {
    const { tui, wire } = await start();
    const { contact } = await composeToConsentingLead(tui);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await tui.press('Tomorrow 8am?');
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    faultOnNextWrite(tui.s.sim, { kind: 'status', status: 503 });
    await tui.press('y');
    await tui.waitFor((frame, state) => state.outbox[0]?.state === 'sent' && frame.includes('Sent to '));
    expect(wire.writes).toHaveLength(2);
    expect(new Set(wire.writes.map((write) => write.idempotencyKey)).size).toBe(1);
    expect((await writesTo(tui, SEND_PATH)).map((write) => write.status)).toEqual([503, 200]);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
  });
});

describe('a refused text, in plain words, back in the composer', () => {
  it.each([
    { token: 'no_number' as const, shop: 'noNumber' as const, words: 'no texting number' },
    { token: 'texting_inactive' as const, shop: 'textingInactive' as const, words: 'texting is not active' },
  ])('$token: says "$words" and restores the typed text', async ({ token, shop, words }) => {
    const { tui, wire } = await start({ token });
    const simShop = tui.s.sim.shops[shop];
    const row = tui.state().inbox.open.data?.open_leads[0];
    if (!row) throw new Error('the shop has no open lead');
    const { contact } = simContactOfLead(tui.s.sim, row.id, simShop);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Can we move to Friday?');
    await tui.press(KEYS.enter, 'y');

    const frame = await tui.waitFor((f, state) => state.outbox[0]?.state === 'failed' && f.includes(words));
    expect(frame).toContain('NOT SENT');
    expect(tui.state().notice?.text).toContain(words);
    expect(wire.writes).toHaveLength(1);
    expect((await writesTo(tui, SEND_PATH)).map((write) => write.status)).toEqual([422]);
    expect(outboundTo(tui.s.sim, contact.id, simShop)).toHaveLength(0);

    // Refused is final: no retry; the text waits in this contact's composer.
    expect(composedText(tui, contact.id)).toBe('Can we move to Friday?');
    await tui.press('c');
    const reopened = await waitComposer(tui, contact.id);
    expect(reopened).toContain('Can we move to Friday?');
    expect(wire.writes).toHaveLength(1);
  });
});

describe('a text whose record cannot be saved first', () => {
  it('is not sent: the status line and the log say why, and the text is back in the composer', async () => {
    const sim = await startSim();
    const stateHome = await mkdtemp(join(tmpdir(), 'shop-inbox-compose-outbox-'));
    try {
      const env = { XDG_STATE_HOME: stateHome };
      const outbox = OutboxFile.forKey(env, sim.baseUrl, sim.sim.tokens.write);
      // A directory where the outbox file should be: nothing can be saved there.
      await mkdir(outbox.path, { recursive: true });
      const { tui, wire } = await start({
        sim,
        columns: 120,
        rows: 30,
        session: { outbox: (key) => OutboxFile.forKey(env, sim.baseUrl, key) },
      });
      const target = await composeToConsentingLead(tui);
      const { contact } = target;
      await tui.press('Running 10 min late');
      await tui.press(KEYS.enter);
      await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
      await tui.press('y');

      const frame = await tui.waitFor(
        (f, state) => state.outbox[0]?.state === 'failed' && f.includes(`Not sent to ${contact.name}`),
      );
      expect(tui.state().notice?.text).toBe(
        `Not sent to ${contact.name} (${contact.phone}): a text is sent only once it is saved in the outbox, and ${outbox.path} is a directory, not a file. The text is back in the composer.`,
      );
      expect(frame).toContain('NOT SENT');
      // The composer is open again, on the same contact, with the text.
      expect(tui.state().composer?.contactId).toBe(contact.id);
      expect(composedText(tui, contact.id)).toBe('Running 10 min late');
      expect(frame).toContain('Running 10 min late');
      expect(wire.writes).toEqual([]);
      expect(await writesTo(tui, SEND_PATH)).toEqual([]);
      expect(outboundTo(tui.s.sim, contact.id).some((m) => m.body === 'Running 10 min late')).toBe(false);

      // The message log keeps it whole.
      await tui.press(KEYS.escape);
      await tui.run('log');
      await tui.waitFor(
        (f, state) => state.logOpen && f.includes('directory, not a file. The text is back in the composer.'),
      );
    } finally {
      await rm(stateHome, { recursive: true, force: true });
    }
  });
});
