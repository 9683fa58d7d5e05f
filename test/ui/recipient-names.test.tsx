/**
 * Wherever a recipient is named, the number is named with the name: two
 * contacts called Tom Kowalski are two people in the send question, the
 * status line while the thread is read again, the thread's "sent from here"
 * line, the notices (sent, replayed, waiting, refused) and the message log.
 */
import { describe, expect, it } from 'vitest';
import { selectedLead } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  confirmTheSend,
  faultOnNextWrite,
  inboxLeadWhere,
  recordWire,
  selectLeadByPhone,
  simConsent,
  simContactOfLead,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';
import { escapeRegExp, lines, plain } from './nav-pane-helpers.js';

const TOM = 'Tom Kowalski';
/** The seed's Tom Kowalski, and a second one the simulator gets a missed call from. */
const SEEDED_TOM = '+19715550117';
const OTHER_TOM = '+15035550188';

/** The message log's lines (inside its double border), each message's wrapped lines joined. */
const logText = (frame: string) =>
  lines(frame)
    .filter((line) => line.startsWith('║'))
    .map((line) => line.replace(/^║ ?/, '').replace(/ *║$/, '').trim())
    .join(' ');

const notices = (tui: TestTui) => tui.state().log.map((notice) => notice.text);

/** Selects the lead of this phone in the inbox, opens the composer on it and types a text. */
async function compose(tui: TestTui, phone: string, text: string) {
  await selectLeadByPhone(tui, phone);
  const lead = selectedLead(tui.state());
  if (!lead) throw new Error(`no lead of ${phone}`);
  const { contact } = simContactOfLead(tui.s.sim, lead.id);
  await tui.press('c');
  await waitComposer(tui, contact.id);
  await tui.press(text, KEYS.enter);
  return contact;
}

describe('a recipient is named with their number', () => {
  it('two contacts called Tom Kowalski: the question, the status line, the thread and the log tell them apart', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    const seeded = tui.s.sim.shops.main.contacts.find((contact) => contact.phone === SEEDED_TOM);
    expect(seeded?.name).toBe(TOM);
    tui.s.sim.missedCallFrom({ name: TOM, phone: OTHER_TOM });
    tui.session.poller.refreshAll();
    await tui.waitFor(
      (_frame, state) =>
        state.inbox.open.data?.open_leads.some((lead) => lead.caller_phone === OTHER_TOM) === true,
    );

    for (const phone of [SEEDED_TOM, OTHER_TOM]) {
      const contact = await compose(tui, phone, `See you at 3 (${phone.slice(-4)})`);
      expect(contact.name).toBe(TOM);
      await tui.waitFor(`Send to ${TOM} (${phone})?`);
      // Confirmed: while the thread is read again, the status line still names whom it goes to.
      wire.hold((request) => request.method === 'GET' && request.path.startsWith('/v1/leads/'));
      await confirmTheSend(tui);
      await tui.waitFor(`Sending to ${TOM} (${phone}) once the thread is read again`);
      wire.release();
      // Held on its way: the thread's line of the text sent from here names its recipient.
      wire.hold();
      await tui.waitFor((_frame, state) => state.outbox.at(-1)?.state === 'sending');
      await tui.press('2');
      await tui.waitFor(`sending… · to ${TOM} (${phone})`);
      wire.release();
      await tui.waitFor(`Sent to ${TOM} (${phone}).`);
      await tui.press('1');
    }

    expect(notices(tui).filter((text) => text.startsWith('Sent to '))).toEqual([
      `Sent to ${TOM} (${SEEDED_TOM}).`,
      `Sent to ${TOM} (${OTHER_TOM}).`,
    ]);
    await tui.press('L');
    const log = logText(plain(await tui.waitFor('Message log')));
    expect(log).toContain(`Sent to ${TOM} (${OTHER_TOM}).`);
    expect(log).toContain(`Sent to ${TOM} (${SEEDED_TOM}).`);
    expect(log.indexOf(`Sent to ${TOM} (${OTHER_TOM}).`)).toBeLessThan(
      log.indexOf(`Sent to ${TOM} (${SEEDED_TOM}).`),
    );
    expect(wire.writes.map((write) => write.path)).toEqual([
      `/contacts/${tui.s.sim.shops.main.contacts.find((contact) => contact.phone === SEEDED_TOM)?.id}/messages`,
      `/contacts/${tui.s.sim.shops.main.contacts.find((contact) => contact.phone === OTHER_TOM)?.id}/messages`,
    ]);
  });

  it('a replayed text and one that waits are each said with the name and the number', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await waitStartup(tui);
    const { contact } = inboxLeadWhere(tui, (each) => simConsent(tui.s.sim, each.phone) === true);
    const named = `${oneLine(contact.name)} (${contact.phone})`;

    // The answer lost after the text went out: the retry is recognised, and said to be.
    await compose(tui, contact.phone, 'Invoice attached');
    faultOnNextWrite(tui.s.sim, { kind: 'drop_response' });
    await confirmTheSend(tui);
    await tui.waitFor((_frame, state) => state.outbox.at(-1)?.state === 'replayed');
    expect(notices(tui)).toContain(
      `Already sent to ${named}: the service recognised the text and sent nothing new.`,
    );

    // Asked to wait a minute (429): not confirmed yet, and waiting to be tried again with the same key.
    await compose(tui, contact.phone, 'Tomorrow at 8?');
    faultOnNextWrite(tui.s.sim, { kind: 'rate_limit', retryAfterSeconds: 60 });
    await confirmTheSend(tui);
    await tui.waitFor((_frame, state) => state.outbox.at(-1)?.state === 'waiting');
    expect(tui.state().notice?.text).toMatch(new RegExp(`^Not confirmed yet for ${escapeRegExp(named)}: `));
  });

  it('a text the shop refuses: the notice, the thread and the log name the recipient and the number', async () => {
    const tui = await startTui({ columns: 100, rows: 30, token: 'texting_inactive' });
    await waitStartup(tui);
    const shop = tui.s.sim.shops.textingInactive;
    const row = tui.state().inbox.open.data?.open_leads[0];
    if (!row) throw new Error('the shop has no open lead');
    const { contact } = simContactOfLead(tui.s.sim, row.id, shop);
    const named = `${oneLine(contact.name)} (${contact.phone})`;
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Can we move to Friday?', KEYS.enter);
    await confirmTheSend(tui);
    await tui.waitFor((_frame, state) => state.outbox.at(-1)?.state === 'failed');
    expect(tui.state().notice?.text).toMatch(new RegExp(`^Not sent to ${escapeRegExp(named)}: `));
    await tui.press(KEYS.escape, '2');
    const frame = plain(await tui.waitFor(`NOT SENT · to ${named}`));
    expect(lines(frame).find((line) => line.includes('NOT SENT'))).toContain(`to ${named}`);
    await tui.press('L');
    const log = logText(plain(await tui.waitFor('Message log')));
    expect(log).toContain(`Not sent to ${named}: `);
  });
});
