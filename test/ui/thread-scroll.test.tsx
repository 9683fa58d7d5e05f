/**
 * The thread scrolls by lines: the newest text is in view when it opens; a
 * text selected further up is shown from its first line with the later texts
 * below it (k never hides every later text); "N earlier" / "N newer" say what
 * is out of sight; long texts wrap whole.
 */
import { describe, expect, it } from 'vitest';
import { selectedLead } from '../../src/store/selectors.js';
import { KEYS, startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

/** Ten texts, numbered, in the thread of the first listed lead; the last one long enough to wrap. */
function longThread(
  shop: { leads: Array<{ id: string; messages: Array<Record<string, unknown>> }> },
  id: string,
) {
  const lead = shop.leads.find((candidate) => candidate.id === id);
  if (!lead) throw new Error('no lead');
  const base = Date.now() - 3_600_000;
  lead.messages.splice(0);
  for (let i = 1; i <= 10; i++) {
    const body =
      i === 10
        ? `Text number ten: ${'words that wrap over several lines '.repeat(5)}END-OF-TEN`
        : `Text number ${i} of the thread`;
    lead.messages.push({
      id: `msg_scroll_${i}`,
      direction: i % 2 ? 'inbound' : 'outbound',
      body,
      occurredAt: base + i * 60_000,
    });
  }
}

describe('thread scrolling', () => {
  it('keeps the newest text in view, scrolls up without hiding every later text, and marks what is out of sight', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const lead = selectedLead(tui.state());
    if (!lead) throw new Error('no lead');
    longThread(tui.s.sim.shops.main as never, lead.id);
    await tui.press(KEYS.enter);
    let frame = plain(await tui.waitFor('END-OF-TEN'));
    // Opened: the newest text, whole (wrapped over lines, not cut), and how many are above it.
    expect(frame).toContain('Text number ten:');
    expect(frame).toMatch(/▲ \d+ earlier texts \(k\)/);
    expect(frame).not.toContain('newer text');
    const wrapped = lines(frame).filter((line) => line.includes('words that wrap'));
    expect(wrapped.length).toBeGreaterThan(1);

    // k: the text before the newest is selected; the newest is still below it.
    await tui.press('k');
    frame = plain(tui.frame());
    expect(frame).toContain('Text number 9 of the thread');
    expect(frame).toContain('Text number ten:');

    // Up to the oldest: it is the first text shown, and the later ones are counted below.
    await tui.press('g');
    frame = plain(tui.frame());
    expect(frame).toContain('Text number 1 of the thread');
    expect(frame).not.toMatch(/earlier text/);
    const newer = /▼ (\d+) newer texts \(j\)/.exec(frame);
    expect(newer).not.toBeNull();
    const shownTexts = lines(frame).filter((line) => /Text number \d+ of the thread/.test(line)).length;
    expect(Number(newer?.[1])).toBe(10 - shownTexts);
    // Every text is in view or counted: nothing is silently out of sight.
    const k = lines(frame).findIndex((line) => line.includes('Text number 2 of the thread'));
    expect(k).toBeGreaterThan(-1);

    // G: back to the newest, and it stays in view when a new text arrives.
    await tui.press('G');
    tui.s.sim.shops.main.leads
      .find((candidate) => candidate.id === lead.id)
      ?.messages.push({
        id: 'msg_scroll_11',
        direction: 'inbound',
        body: 'ELEVENTH arrives',
        occurredAt: Date.now(),
      });
    await tui.press('r');
    frame = plain(await tui.waitFor('ELEVENTH arrives'));
    expect(frame).toMatch(/▲ \d+ earlier texts/);
  });

  it('at 80×24, marks a text whose first lines are above the view, and leaves no row empty', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const lead = selectedLead(tui.state());
    if (!lead) throw new Error('no lead');
    const messages = (
      tui.s.sim.shops.main.leads.find((candidate) => candidate.id === lead.id) as never as {
        messages: Array<Record<string, unknown>>;
      }
    ).messages;
    const base = Date.now() - 3_600_000;
    messages.splice(0);
    messages.push(
      {
        id: 'msg_cut_1',
        direction: 'inbound',
        body: `START-OF-ONE ${'the water heater in the basement is leaking onto '.repeat(8)}`,
        occurredAt: base,
      },
      ...['two', 'three', 'four', 'five'].map((word, index) => ({
        id: `msg_cut_${index + 2}`,
        direction: index % 2 ? 'inbound' : 'outbound',
        body: `Text number ${word}`,
        occurredAt: base + (index + 1) * 60_000,
      })),
    );
    await tui.press(KEYS.enter);
    const frame = plain(await tui.waitFor('Text number five'));
    // The oldest (as long as the service lets a text be) is cut at the top: its end is in view, its start
    // is not, and the mark says so.
    expect(frame).toContain('leaking onto');
    expect(frame).not.toContain('START-OF-ONE');
    const rows = lines(frame);
    const mark = rows.findIndex((line) => line.includes('▲ 1 earlier text (k)'));
    expect(mark).toBeGreaterThan(-1);
    // From the mark to the pane's bottom border, every row holds a line of the thread.
    const bottom = rows.findIndex((line, index) => index > mark && /^[└╰╚]/.test(line));
    expect(bottom).toBeGreaterThan(mark);
    for (const line of rows.slice(mark, bottom))
      expect(line.replace(/^[│║]\s*/, '').replace(/\s*[│║]$/, '')).not.toBe('');
    // g selects the oldest: it is shown from its first line.
    await tui.press('g');
    expect(plain(tui.frame())).toContain('START-OF-ONE');
  });
});
