/**
 * After y, the thread is read again before anything is sent. When that read
 * fails, nothing is sent: the question comes back, saying why, still bound to
 * the same contact and the exact text; y then sends without that check (staff
 * decided knowingly), n returns the text to the composer. Against the
 * simulator over a real socket, the lead's reads failing at the simulator.
 */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/sim/simulator.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { KEYS, settle, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  selectLeadByPhone,
  simConsent,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

/** Every read of this lead (retries included) meets a 503 until the returned function is called. */
function failLeadReads(sim: Simulator, leadId: string): () => void {
  const draw = sim.faults.draw.bind(sim.faults);
  let failing = true;
  sim.faults.draw = () => {
    const current = sim.requests.list().at(-1);
    if (failing && current?.method === 'GET' && current.path === `/v1/leads/${leadId}`)
      return { kind: 'status', status: 503 };
    return draw();
  };
  return () => {
    failing = false;
  };
}

const leadReads = (sim: Simulator, leadId: string) =>
  sim.requests.list().filter((request) => request.method === 'GET' && request.path === `/v1/leads/${leadId}`)
    .length;

/** A consenting customer's lead, composed to with c, the text typed and enter pressed: the y/n question. */
async function askToSendToConsenting(tui: TestTui, body: string) {
  const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
  await selectLeadByPhone(tui, target.contact.phone);
  await tui.press('c');
  await waitComposer(tui, target.contact.id);
  await tui.press(body, KEYS.enter);
  await tui.waitFor(`Send to ${target.contact.name} (${target.contact.phone})? y/n`);
  return target;
}

async function start() {
  // Mid-afternoon for the seed's customers: no quiet-hours warning, whenever the suite runs.
  const tui = await startTui({ columns: 100, rows: 30, now: seedCustomersAfternoon().now });
  const wire = recordWire(tui.s.sim);
  await waitStartup(tui);
  return { tui, wire };
}

const AGAIN = (contact: { name: string; phone: string }) =>
  `Thread not read again: send to ${contact.name} (${contact.phone}) anyway? y/n`;

describe('the thread cannot be read again before sending', () => {
  it('asks again, saying why, and sends nothing; the second y sends once, to the same contact, the exact text', async () => {
    const { tui, wire } = await start();
    const body = 'See you at 3';
    const { leadId, contact } = await askToSendToConsenting(tui, body);
    const before = outboundTo(tui.s.sim, contact.id).length;
    const readsBefore = leadReads(tui.s.sim, leadId);
    failLeadReads(tui.s.sim, leadId);

    await tui.press('y');
    const frame = await tui.waitFor(AGAIN(contact));
    // The read was tried (the answer was not taken without it), and it says why it failed.
    expect(leadReads(tui.s.sim, leadId)).toBeGreaterThan(readsBefore);
    expect(frame.replace(/[│║\s]+/g, ' ')).toContain(
      "Could not read the thread again to check for new texts: the shop's API had a problem (HTTP 503).",
    );
    expect(wire.writes).toEqual([]);
    expect(tui.state().prompt).toMatchObject({
      kind: 'confirm-send',
      target: { contactId: contact.id },
      body,
    });
    expect(tui.state().prompt).not.toHaveProperty('checking', true);

    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({
      method: 'POST',
      path: `/contacts/${contact.id}/messages`,
      body: { body },
    });
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
  });

  it('n returns the text to the composer and sends nothing; once the thread reads again, y sends once', async () => {
    const { tui, wire } = await start();
    const body = 'Running late, 10 min';
    const { leadId, contact } = await askToSendToConsenting(tui, body);
    const readAgain = failLeadReads(tui.s.sim, leadId);

    await tui.press('y');
    await tui.waitFor(AGAIN(contact));
    await tui.press('n');
    await waitComposer(tui, contact.id);
    expect(tui.state().prompt).toBeUndefined();
    expect(composedText(tui, contact.id)).toBe(body);
    expect(wire.writes).toEqual([]);

    readAgain();
    await tui.press(KEYS.enter);
    await tui.waitFor(`Send to ${contact.name} (${contact.phone})? y/n`);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
    expect(wire.writes[0]).toMatchObject({ path: `/contacts/${contact.id}/messages`, body: { body } });
  });

  it('a text the inbox read meanwhile is shown, and asked about, before y sends without the check', async () => {
    const { tui, wire } = await start();
    const { leadId, contact } = await askToSendToConsenting(tui, 'See you at 3');
    const readAgain = failLeadReads(tui.s.sim, leadId);
    await tui.press('y');
    await tui.waitFor(AGAIN(contact));

    // The customer writes; the shop answers again and the thread is read (as the poller would).
    tui.s.sim.receiveText(leadId, 'Actually, can you come at 4 instead?');
    readAgain();
    tui.session.poller.request({ kind: 'lead', id: leadId });
    await tui.waitFor((_frame, state) =>
      (state.leads[leadId]?.data?.messages ?? []).some((message) => message.body.startsWith('Actually')),
    );

    await tui.press('y');
    const again = await tui.waitFor('The customer wrote since you started');
    expect(again).toContain(`Send to ${contact.name} (${contact.phone})? y/n`);
    expect(wire.writes).toEqual([]);
    await tui.press('y');
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    expect(wire.writes).toHaveLength(1);
  });
});

describe('while the thread is read again', () => {
  it('esc answers no: the text is back in the composer, and nothing is sent when the read ends', async () => {
    const { tui, wire } = await start();
    const body = 'See you at 3';
    const { leadId, contact } = await askToSendToConsenting(tui, body);
    wire.hold((request) => request.method === 'GET' && request.path === `/v1/leads/${leadId}`);
    await tui.press('y');
    await tui.waitFor(
      `Sending to ${contact.name} (${contact.phone}) once the thread is read again · esc: no`,
    );
    await tui.waitFor(() => wire.held > 0);

    await tui.press(KEYS.escape);
    await waitComposer(tui, contact.id);
    expect(composedText(tui, contact.id)).toBe(body);
    // The read that was held ends: the flow decides in the same step as it stores the thread.
    const before = tui.state().leads[leadId]?.updatedAt;
    wire.release();
    await tui.waitFor((_frame, state) => state.leads[leadId]?.updatedAt !== before);
    await settle();
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.state().composer?.contactId).toBe(contact.id);
    expect(wire.writes).toEqual([]);
  });
});
