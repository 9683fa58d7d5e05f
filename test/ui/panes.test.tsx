/**
 * What the header, the inbox and a thread show, checked against what the
 * simulator's API returns: the header's counts and read-only badge, the inbox
 * (open leads, callbacks, local filter, previews), a thread (contact, email,
 * consent, messages oldest first, truncation). The list panes are in
 * panes-lists.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import type { Inbox, ShopOverview } from '../../src/contract/resources.js';
import { contactOf, isOpen, latestConsent } from '../../src/sim/views.js';
import type { SimLead } from '../../src/sim/world.js';
import { inboxRows } from '../../src/store/selectors.js';
import { age, block, dateTime, enumLabel, oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import {
  apiData,
  escapeRegExp,
  firstLoad,
  lines,
  plain,
  QUIET,
  queryOf,
  requestsTo,
} from './nav-pane-helpers.js';

/** The frame line that holds a lead's row: its phone and the start of its job type. */
function leadLine(frame: string, lead: { caller_phone: string; job_type: string; contact_name: string }) {
  return lines(frame).find(
    (line) =>
      line.includes(oneLine(lead.caller_phone)) &&
      line.includes(oneLine(lead.job_type).slice(0, 8)) &&
      line.includes(oneLine(lead.contact_name).slice(0, 8)),
  );
}

/** "12m" may become "13m" between the render and the check: either is right. */
const agesOf = (timestamp: string) =>
  new Set([age(timestamp, Date.now()), age(timestamp, Date.now() - 16_000)]);

/** Moves the inbox selection to this lead and opens its thread. */
async function openLead(tui: TestTui, leadId: string) {
  const index = inboxRows(tui.state()).findIndex((lead) => lead.id === leadId);
  expect(index, `lead ${leadId} in the inbox`).toBeGreaterThanOrEqual(0);
  await tui.press('1', 'g', ...(index > 0 ? ['j'.repeat(index)] : []), KEYS.enter);
  return tui.waitFor(
    (frame, state) =>
      state.focus === 'thread' && state.leads[leadId]?.data !== undefined && plain(frame).includes('consent'),
  );
}

describe('header', () => {
  it('shows the business, billing and texting status and the counts of GET /me', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    const me = await apiData<ShopOverview>(tui, '/me');
    const [first = '', second = ''] = lines(tui.frame());
    expect(first).toContain(me.identity.business_name);
    expect(first).toMatch(new RegExp(`billing ${escapeRegExp(enumLabel(me.billing_pulse.status))}`));
    expect(first).toMatch(new RegExp(`texting ${escapeRegExp(enumLabel(me.texting_pulse.texting_status))}`));
    expect(first).not.toContain('READ-ONLY');
    expect(second).toMatch(new RegExp(`\\b${me.inbox_pulse.open_leads} open leads`));
    expect(second).toMatch(new RegExp(`\\b${me.inbox_pulse.needs_callback} callbacks`));
    expect(second).toMatch(new RegExp(`\\b${me.reviews_pulse.unreplied} unreplied reviews`));
    expect(second).toMatch(new RegExp(`\\b${me.pending_actions} pending`));
    expect(second).toMatch(/credits/);
    expect(second).toMatch(new RegExp(`\\b${me.credits_pulse.remaining}\\b`));
    // The counts are the seeded shop's, not zeros or placeholders.
    expect(me.inbox_pulse.open_leads).toBeGreaterThan(0);
    expect(me.pending_actions).toBeGreaterThan(0);
  });

  it('[READ-ONLY] shows only in read-only mode', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET, readOnly: true });
    await firstLoad(tui);
    const [first = ''] = lines(tui.frame());
    expect(first).toContain('Rivera Plumbing & Heating');
    expect(first).toContain('[READ-ONLY]');
    // Also before the shop has loaded.
    const early = await startTui({ columns: 120, rows: 40, intervals: QUIET, readOnly: true });
    expect(lines(early.frame())[0]).toContain('[READ-ONLY]');
  });
});

describe('inbox', () => {
  it('rows show name, phone, job, urgency (SAME DAY), status and age, as GET /inbox has them', async () => {
    const tui = await startTui({ columns: 80, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    const inbox = await apiData<Inbox>(tui, '/inbox?filter=open&limit=100');
    const frame = plain(tui.frame());
    expect(frame).toContain(`Inbox — open leads (${inbox.open_leads.length})`);
    const shown = inbox.open_leads.slice(0, 20);
    for (const lead of shown) {
      const line = leadLine(frame, lead);
      expect(line, `row of ${lead.id}`).toBeDefined();
      if (!line) continue;
      if (lead.urgency === 'same_day') {
        expect(line).toContain('SAME DAY');
      } else {
        expect(line).toContain(enumLabel(lead.urgency));
        expect(line).not.toContain('SAME DAY');
      }
      expect(line).toMatch(new RegExp(`\\b${escapeRegExp(enumLabel(lead.status))}\\b`));
      const ageShown = line.replace(/│\s*$/, '').trim().split(/\s+/).at(-1) ?? '';
      expect(agesOf(lead.created_at), `age of ${lead.id}`).toContain(ageShown);
    }
    // Both kinds of urgency are among them, and "same day" is never spelled in lower case.
    expect(shown.some((lead) => lead.urgency === 'same_day')).toBe(true);
    expect(shown.some((lead) => lead.urgency !== 'same_day')).toBe(true);
    expect(frame).not.toContain('same day');
  });

  it('shows the latest inbound texts below the leads', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const inbox = await apiData<Inbox>(tui, '/inbox?filter=open&limit=100');
    const frame = plain(tui.frame());
    const heading = lines(frame).findIndex((line) => line.includes('Latest inbound texts'));
    expect(heading).toBeGreaterThan(0);
    const below = lines(frame).slice(heading + 1, heading + 4);
    expect(inbox.latest_inbound.length).toBeGreaterThanOrEqual(3);
    inbox.latest_inbound.slice(0, 3).forEach((preview, index) => {
      expect(below[index]).toContain(oneLine(preview.body_preview).slice(0, 30));
      const ageShown = below[index]?.replace(/^│\s*/, '').split(/\s+/)[0] ?? '';
      expect(agesOf(preview.occurred_at)).toContain(ageShown);
    });
  });

  it('f switches to the missed calls with no reply: exactly what GET /inbox?filter=callbacks returns; f again goes back', async () => {
    const tui = await startTui({ columns: 80, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('f');
    let frame = plain(await tui.waitFor(/Inbox — missed calls with no reply \(\d+\)/));
    await tui.waitFor((_f, state) => state.inbox.callbacks.data !== undefined);
    frame = plain(tui.frame());
    const reads = await requestsTo(tui, '/inbox');
    expect(reads.some((read) => queryOf(read.query).get('filter') === 'callbacks')).toBe(true);

    const callbacks = await apiData<Inbox>(tui, '/inbox?filter=callbacks&limit=100');
    const open = await apiData<Inbox>(tui, '/inbox?filter=open&limit=100');
    expect(callbacks.open_leads.length).toBeGreaterThan(0);
    expect(callbacks.open_leads.length).toBeLessThan(open.open_leads.length);
    expect(frame).toContain(`Inbox — missed calls with no reply (${callbacks.open_leads.length})`);
    expect(inboxRows(tui.state()).map((lead) => lead.id)).toEqual(
      callbacks.open_leads.map((lead) => lead.id),
    );
    for (const lead of callbacks.open_leads) expect(leadLine(frame, lead), lead.id).toBeDefined();
    // Open leads that are not callbacks (already answered) are not listed.
    const callbackIds = new Set(callbacks.open_leads.map((lead) => lead.id));
    const answered = open.open_leads.filter((lead) => !callbackIds.has(lead.id)).slice(0, 10);
    expect(answered.length).toBeGreaterThan(0);
    for (const lead of answered) expect(leadLine(frame, lead), lead.id).toBeUndefined();

    await tui.press('f');
    frame = plain(await tui.waitFor(`Inbox — open leads (${open.open_leads.length})`));
    expect(frame).not.toContain('missed calls with no reply (');
    expect(leadLine(frame, answered[0] as (typeof answered)[number])).toBeDefined();
  });

  it('/ filters the list locally by a name fragment, without asking the API; esc clears it', async () => {
    const tui = await startTui({ columns: 80, rows: 40, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const all = inboxRows(tui.state());
    const inboxReadsBefore = (await requestsTo(tui, '/inbox')).length;
    const fragment = 'renÉ'.toLowerCase();
    const expected = all.filter((lead) => lead.contact_name.toLowerCase().includes(fragment));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);

    await tui.press('/', ...fragment);
    let frame = plain(await tui.waitFor(`Inbox — open leads (${expected.length} shown of ${all.length})`));
    expect(frame).toContain(`/ ${fragment}`);
    for (const lead of expected) expect(leadLine(frame, lead)).toBeDefined();
    const others = all.filter((lead) => !expected.includes(lead));
    for (const lead of others) expect(leadLine(frame, lead)).toBeUndefined();
    // Enter keeps the filter and gives the keys back to the list.
    await tui.press(KEYS.enter, 'j');
    expect(tui.state().searching).toBe(false);
    expect(plain(tui.frame())).toContain(`Inbox — open leads (${expected.length} shown of ${all.length})`);
    expect((await requestsTo(tui, '/inbox')).length).toBe(inboxReadsBefore);

    await tui.press(KEYS.escape);
    frame = plain(await tui.waitFor(`Inbox — open leads (${all.length})`));
    expect(frame).not.toContain(`/ ${fragment}`);
  });
});

describe('thread', () => {
  it("shows the contact's name, phone, email from the contacts list, stage, and the lead", async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => state.contacts.data !== undefined);
    const shop = tui.s.sim.shops.main;
    const withEmail = inboxRows(tui.state()).find(
      (lead) => shop.contacts.find((contact) => contact.phone === lead.caller_phone)?.email,
    );
    if (!withEmail) throw new Error('no lead whose contact has an email');
    const frame = plain(await openLead(tui, withEmail.id));
    const detail = tui.state().leads[withEmail.id]?.data;
    if (!detail) throw new Error('thread not loaded');
    const contact = shop.contacts.find((candidate) => candidate.id === detail.contact.id);
    expect(frame).toContain(`Thread — ${oneLine(contact?.name)}`);
    expect(frame).toContain(
      `${oneLine(contact?.phone)} · ${contact?.email} · stage ${enumLabel(detail.contact.stage)}`,
    );
    expect(frame).toMatch(
      new RegExp(
        `lead ${escapeRegExp(enumLabel(detail.lead.status))} · .* · from ${escapeRegExp(enumLabel(detail.lead.source))} · ${escapeRegExp(dateTime(detail.lead.created_at))}`,
      ),
    );
    expect(frame).toContain('bodies come truncated by the service');
  });

  it('says "no email on file" for a contact without one', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => state.contacts.data !== undefined);
    const shop = tui.s.sim.shops.main;
    const noEmail = inboxRows(tui.state()).find((lead) => {
      const contact = shop.contacts.find((candidate) => candidate.phone === lead.caller_phone);
      return contact && contact.email === null && !/[\p{Cc}]/u.test(contact.name);
    });
    if (!noEmail) throw new Error('no lead whose contact has no email');
    const frame = plain(await openLead(tui, noEmail.id));
    expect(frame).toContain(`${oneLine(noEmail.caller_phone)} · no email on file · stage`);
  });

  it('says the email is not loaded, never "no email on file", for a contact the contacts read did not return', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => state.contacts.data !== undefined);
    const shop = tui.s.sim.shops.main;
    const withEmail = inboxRows(tui.state()).filter(
      (lead) => shop.contacts.find((contact) => contact.phone === lead.caller_phone)?.email,
    );
    const [searched, other] = withEmail;
    if (!searched || !other) throw new Error('two leads whose contacts have an email are needed');
    // A search in Contacts: the contacts read now holds the searched one alone.
    const query = searched.caller_phone.slice(-7);
    await tui.press('5', '/', query, KEYS.enter);
    await tui.waitFor(
      (_frame, state) => state.contacts.loadedQuery === query && state.contacts.data?.items.length === 1,
    );
    const frame = plain(await openLead(tui, other.id));
    expect(frame).toContain(`${oneLine(other.caller_phone)} · email not loaded · stage`);
    expect(frame).not.toContain('no email on file');
  });

  it('shows each consent case: given, NOT given, and no consent on record', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    const shop = tui.s.sim.shops.main;
    const listed = new Set(inboxRows(tui.state()).map((lead) => lead.id));
    const candidates = shop.leads.filter((lead) => isOpen(lead) && listed.has(lead.id));
    const consentOf = (lead: SimLead) => latestConsent(shop, contactOf(shop, lead).phone);
    const cases: Array<[string, (lead: SimLead) => boolean, RegExp]> = [
      [
        'given',
        (lead) => consentOf(lead)?.sms_initial === true,
        /consent: given \(\+\d+, recorded \d{4}-\d\d-\d\d/,
      ],
      [
        'NOT given',
        (lead) => consentOf(lead)?.sms_initial === false,
        /consent: NOT given \(\+\d+, recorded /,
      ],
      ['none', (lead) => consentOf(lead) === null, /consent: no consent on record/],
    ];
    for (const [name, matches, shown] of cases) {
      const lead = candidates.find(matches);
      if (!lead) throw new Error(`the seeded shop has no open lead with consent ${name}`);
      const frame = plain(await openLead(tui, lead.id));
      expect(frame, name).toMatch(shown);
      const record = consentOf(lead);
      if (record) expect(frame).toContain(`${record.phone}, recorded ${dateTime(record.recorded_at)}`);
      for (const [other, , otherText] of cases) if (other !== name) expect(frame).not.toMatch(otherText);
      await tui.press(KEYS.escape);
      await tui.waitFor((_f, state) => state.focus === 'inbox');
    }
  });

  it('lists the texts oldest to newest, each with its direction and time', async () => {
    const tui = await startTui({ columns: 80, rows: 60, intervals: QUIET });
    await firstLoad(tui);
    const shop = tui.s.sim.shops.main;
    const listed = new Set(inboxRows(tui.state()).map((lead) => lead.id));
    const lead = shop.leads
      .filter((candidate) => listed.has(candidate.id))
      .filter((candidate) => new Set(candidate.messages.map((message) => message.direction)).size === 2)
      .sort((a, b) => b.messages.length - a.messages.length)[0];
    if (!lead) throw new Error('no thread with texts both ways');
    const frame = plain(await openLead(tui, lead.id));
    const detail = tui.state().leads[lead.id]?.data;
    if (!detail) throw new Error('thread not loaded');
    expect(detail.messages.length).toBeGreaterThanOrEqual(4);
    expect(frame).toContain(`${detail.messages.length} texts, oldest first`);
    const oldestFirst = [...detail.messages].sort(
      (a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at),
    );
    let previous = -1;
    for (const message of oldestFirst) {
      const label = `${message.direction === 'inbound' ? '◀ them' : '▶ shop'} · ${dateTime(message.occurred_at)}`;
      const at = frame.indexOf(label, previous + 1);
      expect(at, `${label} after position ${previous}`).toBeGreaterThan(previous);
      const body = block(message.body).split('\n')[0]?.slice(0, 25) ?? '';
      const bodyAt = frame.indexOf(body, at);
      expect(bodyAt, `body of ${message.id}`).toBeGreaterThan(at);
      previous = bodyAt;
    }
  });

  it('a long text shows as the service truncated it, and the pane says bodies come truncated', async () => {
    const tui = await startTui({ columns: 100, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    const shop = tui.s.sim.shops.main;
    const listed = new Set(inboxRows(tui.state()).map((lead) => lead.id));
    const lead = shop.leads.find(
      (candidate) =>
        listed.has(candidate.id) && candidate.messages.some((message) => message.body.length > 280),
    );
    if (!lead) throw new Error('no listed lead with a long text');
    const frame = plain(await openLead(tui, lead.id));
    const long = tui.state().leads[lead.id]?.data?.messages.find((message) => message.body.endsWith('…'));
    expect(long).toBeDefined();
    expect(frame).toContain('bodies come truncated by the service');
    expect(frame.replace(/[│\s]+/g, ' ')).toContain(block(long?.body).slice(-40).replace(/\s+/g, ' ').trim());
  });
});
