/**
 * Quitting: q and ctrl-c quit at once when nothing is unsent, and ask
 * "Quit anyway? y/n" while a composed text is unsent or a text is still
 * sending; n keeps everything as it was.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  inboxLeadWhere,
  recordWire,
  selectLeadByPhone,
  simConsent,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

const QUIT_PROMPT = 'Quit anyway? y/n';

async function start() {
  const tui = await startTui({ columns: 100, rows: 30 });
  await waitStartup(tui);
  return tui;
}

/** Types a text for a lead's contact, then closes the composer with esc (the text stays). */
async function leaveTextUnsent(tui: TestTui, text: string) {
  const { contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
  await selectLeadByPhone(tui, contact.phone);
  await tui.press('c');
  await waitComposer(tui, contact.id);
  await tui.press(text, KEYS.escape);
  await tui.waitFor((_frame, state) => state.composer === undefined);
  expect(composedText(tui, contact.id)).toBe(text);
  return contact;
}

describe.each([
  { name: 'q', key: 'q' },
  { name: 'ctrl-c', key: KEYS.ctrlC },
])('$name', ({ key }) => {
  it('quits at once when nothing is unsent', async () => {
    const tui = await start();
    await tui.press(key);
    expect(tui.quitRequested).toBe(true);
    expect(tui.state().prompt).toBeUndefined();
  });

  it('asks first while a composed text is unsent: n keeps running with the text, y quits', async () => {
    const tui = await start();
    const contact = await leaveTextUnsent(tui, 'Call me back please');

    await tui.press(key);
    const asking = await tui.waitFor(QUIT_PROMPT);
    // Whom the text is for, by name and number.
    expect(asking).toContain(
      `Quit anyway? y/n · a text to ${contact.name} (${contact.phone}) is typed, not sent`,
    );
    expect(tui.quitRequested).toBe(false);

    await tui.press('n');
    await tui.waitFor((frame, state) => state.prompt === undefined && !frame.includes(QUIT_PROMPT));
    expect(tui.quitRequested).toBe(false);
    expect(composedText(tui, contact.id)).toBe('Call me back please');
    await tui.press('c');
    expect(await waitComposer(tui, contact.id)).toContain('Call me back please');
    await tui.press(KEYS.escape);
    await tui.waitFor((_frame, state) => state.composer === undefined);

    // Esc answers no as well.
    await tui.press(key);
    await tui.waitFor(QUIT_PROMPT);
    await tui.press(KEYS.escape);
    await tui.waitFor((frame) => !frame.includes(QUIT_PROMPT));
    expect(tui.quitRequested).toBe(false);

    await tui.press(key);
    await tui.waitFor(QUIT_PROMPT);
    await tui.press('y');
    expect(tui.quitRequested).toBe(true);
  });
});

describe('with the composer open', () => {
  it('ctrl-c asks first when it holds text; n goes back to it with the text', async () => {
    const tui = await start();
    const { contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('On our way', KEYS.ctrlC);
    await tui.waitFor(QUIT_PROMPT);
    await tui.press('n');
    await tui.waitFor((frame) => !frame.includes(QUIT_PROMPT));
    expect(tui.state().composer?.contactId).toBe(contact.id);
    expect(composedText(tui, contact.id)).toBe('On our way');
    expect(tui.quitRequested).toBe(false);
  });

  it('q is a letter of the text, not quit', async () => {
    const tui = await start();
    const { contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('q', 'uote', 'q');
    expect(composedText(tui, contact.id)).toBe('quoteq');
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.quitRequested).toBe(false);
  });
});

describe('quitting while a text is still sending', () => {
  it('asks first; once the text is sent, q quits at once', async () => {
    const tui = await start();
    const wire = recordWire(tui.s.sim);
    const { contact } = inboxLeadWhere(tui, (c) => simConsent(tui.s.sim, c.phone) === true);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('See you at noon', KEYS.enter);
    await tui.waitFor('? y/n');
    wire.hold();
    await tui.press('y');
    await tui.waitFor('sending…');
    // Nothing typed is left, but the text is not known sent yet.
    expect(composedText(tui, contact.id)).toBe('');

    await tui.press('q');
    await tui.waitFor(QUIT_PROMPT);
    await tui.press('n');
    expect(tui.quitRequested).toBe(false);

    wire.release();
    await tui.waitFor((_frame, state) => state.outbox[0]?.state === 'sent');
    await tui.press('q');
    expect(tui.quitRequested).toBe(true);
  });

  it('ctrl-c at the quit prompt quits', async () => {
    const tui = await start();
    await leaveTextUnsent(tui, 'unsent');
    await tui.press(KEYS.ctrlC);
    await tui.waitFor(QUIT_PROMPT);
    await tui.press(KEYS.ctrlC);
    expect(tui.quitRequested).toBe(true);
  });
});
