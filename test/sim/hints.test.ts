/**
 * What the simulator's answers say of who was in touch, besides the threads: with `plausible` hints a text,
 * a call and a reply move the contact's `last_contact_at` and Today names the contact; with `none` nothing
 * outside the threads links a text to its writer (the worst case the inbox must still cope with).
 */
import { describe, expect, it } from 'vitest';
import type { Contact, Today } from '../../src/contract/resources.js';
import type { HintMode } from '../../src/sim/hints.js';
import { manualClock, startSim, type TestSim } from '../support/sim.js';

const MINUTE = 60_000;

async function data<T>(t: TestSim, path: string): Promise<T> {
  const response = await t.fetch(path);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** A text from an open lead's customer, a reply to another and a missed call, each a minute apart. */
async function aFewMinutes(hints: HintMode) {
  const clock = manualClock(Date.parse('2026-11-21T15:00:00Z'));
  const t = await startSim({ now: clock.now, hints });
  const shop = t.sim.shops.main;
  const [writer, answered] = shop.leads.filter((lead) => ['new', 'contacted'].includes(lead.status));
  if (!writer || !answered) throw new Error('the seed has too few open leads');
  const contactOf = (contactId: string) => shop.contacts.find((contact) => contact.id === contactId);
  const before = await data<{ items: Contact[] }>(t, '/contacts?limit=100');
  clock.advance(MINUTE);
  t.sim.receiveText(writer.id, 'Is Tuesday still good?');
  clock.advance(MINUTE);
  const send = await t.fetch(`/contacts/${answered.contactId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body: 'See you Tuesday.' }),
  });
  expect(send.status).toBe(200);
  clock.advance(MINUTE);
  const caller = contactOf(writer.contactId);
  if (!caller) throw new Error('no contact');
  t.sim.missedCall(caller.id);
  const after = await data<{ items: Contact[] }>(t, '/contacts?limit=100');
  const today = await data<Today>(t, '/today?limit=100');
  const names = [caller.name, contactOf(answered.contactId)?.name ?? ''];
  return { before, after, today, names, since: clock.now() - 3 * MINUTE, writer, answered };
}

const timeOf = (list: { items: Contact[] }, id: string) =>
  list.items.find((contact) => contact.id === id)?.last_contact_at;

describe('the hints of the simulator', () => {
  it('plausible: every text, reply and call moves last_contact_at, and Today names the contact', async () => {
    const { before, after, today, names, since, writer, answered } = await aFewMinutes('plausible');
    for (const lead of [writer, answered]) {
      expect(timeOf(after, lead.contactId)).not.toBe(timeOf(before, lead.contactId));
      expect(Date.parse(timeOf(after, lead.contactId) ?? '')).toBeGreaterThan(since);
    }
    const recent = today.activity.filter((item) => Date.parse(item.created_at) > since);
    expect(recent.map((item) => item.kind)).toEqual(
      expect.arrayContaining(['sms_inbound', 'text_sent', 'missed_call']),
    );
    for (const name of names) expect(recent.some((item) => item.summary.includes(name))).toBe(true);
  });

  it('none: last_contact_at and the order of the contacts list stay as they were; no summary names a contact', async () => {
    const { before, after, today, names, since } = await aFewMinutes('none');
    // The same contacts in the same order with the same times (the missed call's contact was known already).
    expect(after.items.map((contact) => [contact.id, contact.last_contact_at])).toEqual(
      before.items.map((contact) => [contact.id, contact.last_contact_at]),
    );
    const recent = today.activity.filter((item) => Date.parse(item.created_at) > since);
    expect(recent.map((item) => item.kind)).toEqual(
      expect.arrayContaining(['sms_inbound', 'text_sent', 'missed_call']),
    );
    for (const item of today.activity) for (const name of names) expect(item.summary).not.toContain(name);
  });
});
