/**
 * The second question before writing to a contact another terminal of this
 * box is writing to (the hub's presence says so): after y, or after the typed
 * word, it is asked once more as a plain y/n, nothing is sent until that y,
 * and the y that led to it is not its answer. Against the simulator over a
 * real socket; the presence the hub would report is put in the store (the
 * hub's own path is in test/e2e/hub-pty.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  inboxLeadWhere,
  outboundTo,
  recordWire,
  selectLeadByPhone,
  simConsent,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

async function composeToWritingElsewhere(tui: TestTui, consent: true | null) {
  const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === consent);
  tui.session.store.setState({ presence: { others: 1, composingElsewhere: [target.contact.id] } });
  await selectLeadByPhone(tui, target.contact.phone);
  await tui.press('c');
  await waitComposer(tui, target.contact.id);
  return target.contact;
}

describe('a contact another terminal writes to', () => {
  it('y asks again; a y read with the first is not the answer; the second y sends once', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    const contact = await composeToWritingElsewhere(tui, true);
    // The lead's thread says so, in words.
    await tui.waitFor('being replied to in another terminal');
    const before = outboundTo(tui.s.sim, contact.id).length;
    await tui.press('On my way', KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    // Two y in one read: the first answers the question, the second is not taken as the next answer.
    await tui.press('yy');
    await tui.waitFor(
      `Being replied to in another terminal: send to ${contact.name} (${contact.phone}) anyway? y/n`,
    );
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-send', again: true });
    expect(wire.writes).toEqual([]);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]?.path).toBe(`/contacts/${contact.id}/messages`);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
  });

  it('after the typed word it is a plain y/n; n goes back to the text and sends nothing', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    const contact = await composeToWritingElsewhere(tui, null);
    await tui.press('Your estimate is ready', KEYS.enter);
    await tui.waitFor('Type send, then enter');
    await tui.press('send', KEYS.enter);
    const frame = await tui.waitFor('Being replied to in another terminal: send to');
    expect(frame).toContain('y sends this anyway');
    const again = tui.state().prompt;
    expect(again).toMatchObject({ again: true });
    expect(again?.kind === 'confirm-send' ? again.word : 'not a send question').toBeUndefined();
    await tui.press('n');
    await tui.waitFor((f) => !f.includes('Being replied to in another terminal: send to'));
    expect(tui.state().composer?.contactId).toBe(contact.id);
    expect(wire.writes).toEqual([]);
  });

  it('with nobody else writing, y sends at once (no second question)', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    const contact = await composeToWritingElsewhere(tui, true);
    tui.session.store.setState({ presence: { others: 1, composingElsewhere: [] } });
    await tui.press('On my way', KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
  });
});
