/**
 * A read-only key, known before anyone types (issue 18): the inbox asks the
 * shop at start, shows [READ-ONLY], and keeps c, d and a (keys and palette)
 * from opening what cannot succeed, saying why; the help says it too. R asks
 * again, and write mode switched on in the shop lifts it. A refusal that
 * still comes (the key switched to read-only in the shop's settings between
 * the confirmation and the send) puts the text back in that contact's
 * composer, wherever staff went meanwhile, and says so.
 */
import { describe, expect, it } from 'vitest';
import { PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import { threadLeadId } from '../../src/store/selectors.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  confirmTheSend,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  SEND_QUESTION,
  selectLeadByPhone,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

const WHY = "This API key is read-only; turn on write mode in the shop's API settings.";
const WHY_AFTER_REFUSAL =
  "The shop refused a write with this API key: it is read-only; turn on write mode in the shop's API settings.";
const isProbe = (request: Pick<LoggedRequest, 'method' | 'path'>) =>
  request.method === 'POST' && request.path.startsWith(`/v1/reviews/${PROBE_ID_PREFIX}`);

/** The status bar's line of key hints: the last line with text. */
const hintLine = (frame: string) =>
  frame
    .split('\n')
    .filter((line) => line.trim())
    .at(-1) ?? '';

async function readKeyInbox(): Promise<TestTui> {
  const tui = await startTui({ token: 'read', columns: 150, rows: 30, session: { keyMode: {} } });
  await waitStartup(tui);
  await tui.waitFor((frame, state) => state.readOnlyReason === 'server' && frame.includes('[READ-ONLY]'));
  return tui;
}

/** Presses a key and checks it opened nothing and said why. */
async function refusedWithReason(tui: TestTui, keys: string[], why = WHY) {
  tui.session.store.setState({ notice: undefined });
  await tui.press(...keys);
  expect(tui.state().composer).toBeUndefined();
  expect(tui.state().composerWaiting).toBeUndefined();
  expect(tui.state().prompt).toBeUndefined();
  expect(tui.state().notice?.text).toBe(why);
  await tui.waitFor(why.slice(0, 60));
}

describe('a read-only key, asked at start', () => {
  it("[READ-ONLY] from the shop's answer; c, d and a say why and open nothing; nothing but the probe writes", async () => {
    const tui = await readKeyInbox();
    expect(tui.state().keyMode).toMatchObject({ mode: 'read', how: 'probe' });
    // With no notice on the line, the status line says why and what brings write mode back.
    tui.session.store.setState({ notice: undefined });
    await tui.waitFor(
      "Read-only: the shop says this API key cannot write. Turn on write mode in the shop's API settings; the inbox asks again every 5 min (R: now).",
    );

    await tui.press('1');
    await refusedWithReason(tui, ['c']);
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && Boolean(threadLeadId(state)));
    await refusedWithReason(tui, ['c']);
    await tui.press('5');
    await tui.waitFor((_f, state) => state.focus === 'contacts' && Boolean(state.contacts.data));
    await refusedWithReason(tui, ['c']);
    await tui.press('3');
    await tui.waitFor((_f, state) => Boolean(state.reviews.data));
    await refusedWithReason(tui, ['d']);
    await refusedWithReason(tui, ['a']);
    await tui.press('4');
    await tui.waitFor((_f, state) => Boolean(state.actions.pending_approval.data?.items.length));
    await refusedWithReason(tui, ['a']);
    // Still nothing after more tries: y (would answer a question) and enter go nowhere.
    await tui.press('a', 'y', 'd', 'c', KEYS.enter, 'y');
    expect(tui.state().prompt).toBeUndefined();

    const writes = await tui.writes();
    expect(writes).toHaveLength(1);
    expect(isProbe(writes[0] as LoggedRequest)).toBe(true);
    expect(writes[0]?.status).toBe(403);
    expect(tui.state().outbox).toEqual([]);
    expect(tui.state().decisions).toEqual({});
    expect(tui.state().drafts).toEqual({});
  });

  it('the palette lists them with why, and running one from there says why too; the help says it; hints leave them out', async () => {
    const tui = await readKeyInbox();
    await tui.press('1');
    expect(hintLine(tui.frame())).not.toContain('c text');
    await tui.press(':', 'text the selected');
    const palette = await tui.waitFor('(not now: this API key is read-only');
    expect(palette).toMatch(/text the selected lead's contact.*\(not now: this API key is read-only/);
    tui.session.store.setState({ notice: undefined });
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.palette === undefined && state.notice?.text === WHY);
    expect(tui.state().composer).toBeUndefined();

    await tui.press('3', '?');
    const help = await tui.waitFor('(read-only key: keys that change the shop say why they are off)');
    expect(help).toMatch(/d +ask for a reply draft.*\(not now: this API key is read-only/);
    expect(help).toMatch(
      /a +approve the reply drafted here for the selected review.*\(not now: this API key is read-only/,
    );
    await tui.press('?');
    expect(hintLine(await tui.waitFor((_f, state) => !state.helpOpen))).not.toMatch(/draft reply|approve/);
  });

  it('R asks the shop again: write mode switched on there lifts read-only, and c opens the composer', async () => {
    const tui = await readKeyInbox();
    tui.s.sim.setTokenMode('read', 'write');
    await tui.press('1', 'R');
    await tui.waitFor('Write mode is on for this API key');
    expect(tui.frame()).not.toContain('[READ-ONLY]');
    expect(tui.state()).toMatchObject({ readOnly: false, keyMode: { mode: 'write', how: 'probe' } });
    await tui.press('c');
    await tui.waitFor((_f, state) => state.composer !== undefined);
    expect(hintLine(tui.frame())).not.toContain('c text');
  });
});

describe('a refusal that still comes', () => {
  it("the key switched to read-only between y and the send: the text is back in that contact's composer, wherever staff are", async () => {
    const tui = await startTui({ columns: 130, rows: 30, session: { keyMode: {} } });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    await tui.waitFor((_f, state) => state.keyMode.mode === 'write');
    const { contact } = inboxLeadWhere(tui, () => true);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('On my way, about 20 minutes.');
    await tui.press(KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    // The send is held at the shop, in flight; meanwhile the key is switched to read-only there.
    wire.hold((request) => request.method === 'POST' && request.path.endsWith('/messages'));
    await confirmTheSend(tui);
    await tui.waitFor(() => wire.held === 1);
    expect(composedText(tui, contact.id)).toBe('');
    tui.s.sim.setTokenMode('write', 'read');
    // Staff moved on: another pane, another record.
    await tui.press('3', 'j');
    wire.release();

    await tui.waitFor((frame, state) => state.readOnly && frame.includes('[READ-ONLY]'));
    expect(tui.state().focus).toBe('reviews');
    expect(composedText(tui, contact.id)).toBe('On my way, about 20 minutes.');
    expect(tui.state().keyMode).toMatchObject({ mode: 'read', how: 'refused' });
    const notice = tui.state().notice?.text ?? '';
    const named = `${contact.name} (${contact.phone})`;
    expect(notice).toBe(
      `Not sent to ${named}: this key is read-only: turn on write mode in the shop's API settings. The text is back in the composer for ${named}.`,
    );
    expect(tui.state().log.map((entry) => entry.text)).toContain(notice);
    await tui.waitFor('Not sent to');
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before);
    // From now on c says why; once write mode is back, the text is there to send.
    await refusedWithReason(tui, ['1', 'c'], WHY_AFTER_REFUSAL);
    tui.s.sim.setTokenMode('write', 'write');
    await tui.press('R');
    await tui.waitFor((_f, state) => !state.readOnly);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    const composer = await waitComposer(tui, contact.id);
    expect(composer).toContain('On my way, about 20 minutes.');
  });
});
