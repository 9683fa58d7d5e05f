/**
 * A text sent from here is listed once: as "you · sent" until the service's
 * own copy appears in the thread, then as the service has it.
 */
import { describe, expect, it } from 'vitest';
import { filedLeadLabel } from '../../src/panes/thread.js';
import { HOSTILE_CONTACT_NAME } from '../../src/sim/demo-content.js';
import type { AppState } from '../../src/store/app-store.js';
import { inboxRows, threadLeadId } from '../../src/store/selectors.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  afternoonZone,
  confirmTheSend,
  consentingCallerWaiting,
  faultOnNext,
  recordWire,
  SEND_QUESTION,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

const occurrences = (frame: string, text: string) => frame.split(text).length - 1;

const inboxLoaded = (_frame: string, state: AppState) => (state.inbox.open.data?.open_leads.length ?? 0) > 0;

/** Opens the first lead's thread and its composer. */
async function composeToFirstLead(tui: TestTui) {
  await tui.waitFor(inboxLoaded);
  await tui.press(KEYS.enter);
  await tui.waitFor('texts, oldest first');
  await tui.press('c');
  await tui.waitFor('characters');
}

describe('the thread after a send', () => {
  it('shows the sent text once, first as sent from here, then as the service lists it', async () => {
    const tui = await startTui({ columns: 100, rows: 40 });
    await composeToFirstLead(tui);
    await tui.press('Parts arrive at 3pm', KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    // The thread's reads after the send wait at the simulator, so that what the screen shows before the
    // service lists the text can be looked at, however soon the inbox reads the thread again. (The read
    // before the send, which looks for texts written meanwhile, goes through.)
    const wire = recordWire(tui.s.sim);
    const sent = () => tui.s.sim.requests.list().some((request) => request.method === 'POST');
    wire.hold((request) => request.method === 'GET' && request.path.startsWith('/v1/leads/') && sent());
    await confirmTheSend(tui);
    await tui.waitFor(/you · .* · sent/);
    expect(occurrences(tui.frame(), 'Parts arrive at 3pm')).toBe(1);
    wire.release();
    await tui.press('r');
    await tui.waitFor((frame) => !/you · .* · sent/.test(frame) && frame.includes('Parts arrive at 3pm'));
    expect(occurrences(tui.frame(), 'Parts arrive at 3pm')).toBe(1);
    expect(tui.frame()).toMatch(/▶ shop/);
  });
});

describe('a reply the shop files under another lead of the contact', () => {
  it('the thread it was sent from says where, enter opens that thread, and the text is listed once', async () => {
    const s = await startSim();
    const { lead: older, contact } = await consentingCallerWaiting(s);
    // The customer called again: the shop files a text to them under that newer lead.
    const newer = s.sim.missedCall(contact.id);
    const tui = await startTui({
      sim: s,
      columns: 100,
      rows: 40,
      session: { timeZone: afternoonZone() },
    });
    await waitStartup(tui);
    // From the older missed call's thread.
    await tui.press('f', '/', contact.phone, KEYS.enter);
    await tui.waitFor(
      (_f, state) => state.inbox.callbacks.data?.open_leads.some((row) => row.id === newer) === true,
    );
    await tui.press('j', KEYS.enter);
    await tui.waitFor(
      (frame, state) => threadLeadId(state) === older.id && frame.includes('texts, oldest first'),
    );
    await tui.press('c');
    await waitComposer(tui, contact.id);
    const body = 'Sorry we missed your call, Ray here from the shop: calling you back in 5 minutes.';
    await tui.press(body, KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);

    const filed = await tui.waitFor('the shop filed it under the lead of');
    expect(s.sim.shops.main.leads.find((lead) => lead.id === newer)?.messages.at(-1)?.body).toBe(body);
    expect(filed).toContain(
      `↳ the shop filed it under the lead of ${filedLeadLabel(tui.state(), newer)} · enter opens it`,
    );
    expect(filedLeadLabel(tui.state(), newer)).toContain(
      s.sim.shops.main.leads.find((lead) => lead.id === newer)?.jobType,
    );
    expect(threadLeadId(tui.state())).toBe(older.id);
    expect(occurrences(filed, body.slice(0, 40))).toBe(1);
    expect(filed.match(/▶ you · .* · sent/g)).toHaveLength(1);

    // Enter on it opens the thread the shop filed it under, where it is the shop's copy, once.
    await tui.press(KEYS.enter);
    const there = await tui.waitFor(
      (frame, state) => threadLeadId(state) === newer && frame.includes(body.slice(0, 40)),
    );
    expect(occurrences(there, body.slice(0, 40))).toBe(1);
    expect(there).not.toContain('▶ you');
    expect(there).not.toContain('filed it under');
    // Back in the thread it was sent from (among the open leads now: both calls were answered), read
    // again: still said once, and where.
    await tui.press(KEYS.escape, 'f');
    await tui.waitFor((_f, state) => inboxRows(state).some((row) => row.id === older.id));
    const row = inboxRows(tui.state()).findIndex((candidate) => candidate.id === older.id);
    await tui.press('g', ...Array.from({ length: row }, () => 'j'), KEYS.enter, 'r');
    const back = await tui.waitFor(
      (frame, state) => threadLeadId(state) === older.id && frame.includes('filed it under'),
    );
    expect(occurrences(back, body.slice(0, 40))).toBe(1);

    // The customer answers in this thread: the answer comes after the text sent from here, which stays
    // where it was sent, though the shop listed it elsewhere.
    s.sim.receiveText(older.id, 'Great, talk soon');
    await tui.press('r');
    const answered = (await tui.waitFor('Great, talk soon')).split('\n');
    const sentRow = answered.findIndex((line) => line.includes('▶ you'));
    expect(sentRow).toBeGreaterThan(-1);
    expect(sentRow).toBeLessThan(answered.findIndex((line) => line.includes('Great, talk soon')));
  });

  it('enter on a text the shop lists in this very thread says there is nothing to open', async () => {
    const tui = await startTui({ columns: 100, rows: 40 });
    await composeToFirstLead(tui);
    await tui.press('Parts arrive at 3pm', KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);
    await tui.waitFor(
      (frame, state) =>
        state.outbox[0]?.state === 'sent' && frame.includes('▶ shop') && !frame.includes('▶ you'),
    );
    const lead = threadLeadId(tui.state());
    await tui.press(KEYS.enter);
    await tui.waitFor('Only a text the shop filed under another lead opens a thread.');
    expect(threadLeadId(tui.state())).toBe(lead);
  });
});

describe('ctrl-c at a confirmation', () => {
  it('answers no to the send, keeps the text, and asks before quitting', async () => {
    const tui = await startTui({ columns: 100, rows: 40 });
    await composeToFirstLead(tui);
    await tui.press('Kept text', KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await tui.press(KEYS.ctrlC);
    await tui.waitFor('Quit anyway? y/n');
    expect(tui.quitRequested).toBe(false);
    expect(await tui.writes()).toEqual([]);
    await tui.press('n');
    await tui.waitFor('Kept text');
    expect(tui.state().composer).toBeDefined();
  });
});

describe('keys typed fast arrive together', () => {
  it('takes a line break that ends a chunk as enter, and line breaks inside it as text', async () => {
    const tui = await startTui({ columns: 100, rows: 40 });
    await composeToFirstLead(tui);
    const contactId = tui.state().composer?.contactId ?? '';
    await tui.press('first line\rsecond line');
    expect(tui.state().composed[contactId]?.text).toBe('first line\nsecond line');
    expect(tui.state().prompt).toBeUndefined();
    await tui.press(' ok\r');
    expect(tui.state().composed[contactId]?.text).toBe('first line\nsecond line ok');
    expect(tui.state().prompt?.kind).toBe('confirm-send');
    expect(await tui.writes()).toEqual([]);
  });
});

describe('a search typed fast', () => {
  it('ends at enter, and the keys after it in the same chunk are keys again', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await tui.waitFor('Inbox — open leads');
    await tui.press('5');
    await tui.waitFor((_frame, state) => state.contacts.data !== undefined);
    await tui.press('/', 'ana\rc');
    expect(tui.state().searching).toBe(false);
    expect(tui.state().search.contacts?.text).toBe('ana');
    await tui.waitFor(/Contacts matching “ana”/);
    expect(tui.state().composer).toBeDefined();
  });
});

describe('the tab bar at 80 columns', () => {
  it('shows new counts as ●N so all six tabs fit', async () => {
    const tui = await startTui({ columns: 80, rows: 24 });
    await tui.waitFor('Inbox — open leads');
    tui.session.store.setState((state) => ({
      seen: {
        ...state.seen,
        fresh: {
          // The Inbox counts new leads (and unread conversations, and new texts not matched yet: none here).
          leads: new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']),
          inbound: new Set(),
          reviews: new Set(['k', 'l']),
          actions: new Set(['m']),
        },
      },
    }));
    const frame = await tui.waitFor('●10');
    const tabs = frame.split('\n').find((line) => line.includes('1 Inbox')) ?? '';
    expect(tabs).toMatch(/1 Inbox ●10 +2 Thread +3 Reviews ●2 +4 Actions ●1 +5 Contacts +6 Today/);
  });
});

describe('text typed while a thread loads', () => {
  it('is kept when the thread fails to load, and comes back with the next c', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await tui.waitFor(inboxLoaded);
    // The first read of a thread fails with a 500; the next one works.
    faultOnNext(tui.s.sim, (request) => request.path.includes('/leads/'), { kind: 'status', status: 500 });
    // Typed in the same read as c, so it is surely typed before the thread's answer arrives.
    await tui.press('crunning late');
    await tui.waitFor('What you typed is kept');
    expect(tui.state().composer).toBeUndefined();
    await tui.press('q');
    await tui.waitFor('Quit anyway? y/n');
    await tui.press('n', 'r');
    await tui.waitFor((_frame, state) => Object.values(state.leads).some((lead) => lead.data));
    await tui.press('c');
    await tui.waitFor('running late');
    const contactId = tui.state().composer?.contactId ?? '';
    expect(tui.state().composed[contactId]?.text).toBe('running late');
  });
});

describe('a notice that names a customer', () => {
  it('passes the name through the sanitizer, like every other customer text', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    const hostile = tui.s.sim.shops.main.contacts.find((contact) => contact.name === HOSTILE_CONTACT_NAME);
    if (!hostile) throw new Error('the seed has no hostile contact');
    tui.session.sender.confirm({ contactId: hostile.id, name: hostile.name, phone: hostile.phone }, 'Hello');
    const frame = await tui.waitFor('Sent to PRIZE DEPT');
    const notice = frame.split('\n').find((line) => line.includes('Sent to')) ?? '';
    expect(notice).toContain(`Sent to PRIZE DEPT␍␇Claim Now (${hostile.phone}).`);
    expect(frame).not.toContain('\r');
    expect(frame).not.toContain('\u0007');
  });
});
