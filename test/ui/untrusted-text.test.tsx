/**
 * Customer text on the terminal: names, bodies, review text, job types,
 * summaries and action kinds may carry escape sequences (clear screen, OSC
 * window titles, hyperlinks and clipboard writes), BEL, bare CR, C1 controls
 * and bidi overrides. None of it may reach the terminal raw, on any pane;
 * Ink's own colour codes (SGR, ESC[…m) are the only escapes allowed in a frame.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_CONTACT_NAME, HOSTILE_MESSAGE } from '../../src/sim/demo-content.js';
import { isOpen } from '../../src/sim/views.js';
import { newId } from '../../src/sim/world.js';
import { inboxRows } from '../../src/store/selectors.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, plain } from './nav-pane-helpers.js';

/** Ink's colours and styles: the only escape sequences a frame may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is what this test is about
const SGR = /\u001B\[[0-9;]*m/g;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

function expectClean(frame: string, where: string) {
  expect(frame, `${where}: OSC`).not.toContain('\u001B]');
  expect(frame, `${where}: clear screen`).not.toContain('\u001B[2J');
  expect(frame, `${where}: BEL`).not.toContain('\u0007');
  expect(frame, `${where}: bare CR`).not.toContain('\r');
  expect(frame, `${where}: bidi control`).not.toMatch(BIDI);
  expect(frame, `${where}: C1 control`).not.toMatch(/[\u0080-\u009F]/u);
  const withoutColours = frame.replace(SGR, '');
  expect(withoutColours, `${where}: an escape that is not a colour`).not.toContain('\u001B');
  // Stripped, not half-stripped: no leftovers of the sequences either. (The simulator's own draft
  // reply may echo "]0;pwned" from the reviewer's name: that is the service's text, not an escape.)
  expect(plain(frame), `${where}: escape parameters`).not.toMatch(/␛|\[2J|\[31m|\[1A|\]8;;|\]52;/);
}

/** Adds hostile text in every other place customer data reaches the screen. */
function addHostileRecords(s: Awaited<ReturnType<typeof startSim>>) {
  const { world, shops } = s.sim;
  const shop = shops.main;
  const now = Date.now();
  const next = () => Math.random().toString(16).slice(2, 12);
  shop.reviews.push({
    id: newId(world, next, 'rev'),
    reviewerName: '\u001B]0;pwned\u0007Eve \u202Eregnah\u202C',
    rating: 1,
    text: 'Awful\u001B[2J\u001B[H \u009D0;title\u009C and \u001B]8;;https://evil.example\u0007click here\u001B]8;;\u0007 then\rOVERWRITE',
    createdAtGoogle: now - 60_000,
    repliedAt: null,
    reply: null,
  });
  const lead = [...shop.leads].filter(isOpen).sort((a, b) => b.createdAt - a.createdAt)[0];
  if (!lead) throw new Error('no open lead');
  lead.jobType = 'boiler\u001B[1A\u001B[2K\u0007';
  shop.activity.push({
    kind: 'sms_inbound',
    summary: 'Note \u001B]52;c;ZXZpbA==\u0007 copied to clipboard\u2066 isolate',
    createdAt: now - 30_000,
  });
  shop.actions.push({
    id: newId(world, next, 'act'),
    kind: 'review_reply\u001B]0;title\u0007\u202E',
    status: 'pending_approval',
    generatedAt: now - 10_000,
    target: { type: 'review_reply', reviewId: shop.reviews[0]?.id ?? '', reply: 'thanks' },
  });
}

describe('untrusted text', () => {
  it('the seeded world really holds hostile text (the test data this relies on)', () => {
    expect(HOSTILE_CONTACT_NAME).toContain('\r');
    expect(HOSTILE_CONTACT_NAME).toContain('\u0007');
    expect(HOSTILE_MESSAGE).toContain('\u001b[2J');
    expect(HOSTILE_MESSAGE).toMatch(BIDI);
  });

  it('no frame of any pane carries a raw control or escape from customer data, and the text is still shown', async () => {
    const s = await startSim();
    addHostileRecords(s);
    const tui = await startTui({ sim: s, columns: 120, rows: 40 });
    await firstLoad(tui, startupLoaded);
    const frames: Array<[string, string]> = [];
    // Besides the frames looked at below, every frame drawn in between (sampled often).
    const sampled = new Set<string>();
    const sampler = setInterval(() => sampled.add(tui.frame()), 4);
    const look = async (where: string, expected: string | RegExp) => {
      const frame = await tui.waitFor((f) =>
        typeof expected === 'string' ? plain(f).includes(expected) : expected.test(plain(f)),
      );
      frames.push([where, frame]);
      return plain(frame);
    };

    // Inbox, wide: the hostile caller name (CR, BEL) and the spam preview; the hostile job type.
    let frame = await look('inbox', 'URGENT Your home warranty');
    expect(frame).toMatch(/PRIZE DEPT\S{2}Cl/);
    expect(frame).toContain('boiler');

    // The spam text in its thread (clear screen, colours, bidi override around "txt.exe").
    const shop = tui.s.sim.shops.main;
    const hostile = shop.contacts.find((contact) => contact.name === HOSTILE_CONTACT_NAME);
    const index = inboxRows(tui.state()).findIndex((lead) => lead.caller_phone === hostile?.phone);
    expect(index).toBeGreaterThanOrEqual(0);
    await tui.press('g', ...(index > 0 ? ['j'.repeat(index)] : []), KEYS.enter);
    frame = await look('thread', 'txt.exe');
    expect(frame).toMatch(/Thread — PRIZE DEPT[^\sA-Za-z]{2}/);
    expect(frame).toContain('URGENT Your home warranty');

    // The same at 80 columns, where the thread has the whole width.
    await tui.resize(80, 24);
    frame = await look('thread, narrow', /Thread — PRIZE DEPT/);
    await tui.press(KEYS.escape);
    await look('inbox, narrow', /│ Inbox — open leads/);
    await tui.resize(120, 40);

    // Reviews: OSC title in the name, clear screen / C1 OSC / OSC 8 link / CR in the text; its draft.
    await tui.press('3', 'g');
    frame = await look('reviews', 'click here');
    expect(frame).toContain('Eve');
    await tui.press('d');
    frame = await look('review draft', 'DRAFT — not published');

    // Actions: a hostile kind.
    await tui.press('4');
    frame = await look('actions', /│ Actions — awaiting approval/);
    expect(frame).toContain('review reply');

    // Contacts and today: the hostile name, the OSC 52 clipboard write in a summary.
    await tui.press('5');
    frame = await look('contacts', /PRIZE DEPT\S{2}Claim Now/);
    await tui.press('6');
    frame = await look('today', 'copied to clipboard');
    expect(frame).toMatch(/New text from PRIZE DEPT\S{2}Claim Now/);

    // The help and the status bar are drawn over the same frames.
    await tui.press('?');
    await look('help', 'Keys — Today');

    clearInterval(sampler);
    expect(frames.length).toBeGreaterThanOrEqual(10);
    for (const [where, raw] of frames) expectClean(raw, where);
    expect(sampled.size).toBeGreaterThan(frames.length);
    for (const raw of sampled) expectClean(raw, 'a frame drawn in between');
  });
});
