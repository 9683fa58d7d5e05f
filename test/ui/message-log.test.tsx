/**
 * The message log (L): every notice this process showed, whoever set it (a
 * key that does not apply, a user action, a failure), kept with its time and
 * its whole text, newest first; a notice cut to fit the status line says
 * where it is whole. The log keeps at most 500.
 */
import { describe, expect, it } from 'vitest';
import { LOG_LIMIT } from '../../src/store/app-store.js';
import { KEYS, startTui } from '../support/tui.js';
import { faultOnNextWrite, startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

/** The log's lines (inside its double border), joined so that a wrapped message reads as one. */
const logText = (frame: string) =>
  lines(frame)
    .filter((line) => line.startsWith('║'))
    .map((line) => line.replace(/^║ ?/, '').replace(/ *║$/, '').trim())
    .join(' ');

const statusLine = (frame: string) => lines(frame).at(-2) ?? '';

describe('message log', () => {
  it('keeps every notice with its time and whole text, newest first; a cut notice points to it', async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    // 1: a draft made (a user action's notice).
    await tui.press('3');
    await tui.waitFor(/Reviews \(\d+/);
    await tui.press('d');
    await tui.waitFor('Draft ready');
    // 2: a draft refused by a failing service: an error, longer than the 80-column status line.
    await tui.press('j');
    faultOnNextWrite(tui.s.sim, { kind: 'status', status: 500 });
    await tui.press('d');
    const failed = plain(await tui.waitFor((_frame, state) => state.notice?.tone === 'error'));
    const errorText = tui.state().notice?.text ?? '';
    expect(errorText.length).toBeGreaterThan(80);
    // The status line cuts it, and says where it is whole.
    expect(statusLine(failed)).toContain('L whole message');
    expect(statusLine(failed)).not.toContain(errorText);
    // 3: a key that does not apply says why (the dispatcher's notice).
    await tui.press('4', 'S');
    await tui.waitFor('Actions — failed');
    await tui.press('a');
    await tui.waitFor((_frame, state) => state.log.length === 3);

    await tui.press('L');
    const frame = plain(await tui.waitFor('Message log — 3 messages, newest first'));
    const text = logText(frame);
    const [third, second, first] = [...tui.state().log].reverse();
    if (!first || !second || !third) throw new Error('three notices expected');
    expect(first.text).toMatch(/^Draft ready: it is not published\./);
    // Newest first, each whole (the long error wraps instead of being cut), each with its time of day.
    const at = (notice: { text: string }) => text.indexOf(notice.text.slice(-30));
    expect(at(third)).toBeGreaterThan(-1);
    expect(at(third)).toBeLessThan(at(second));
    expect(at(second)).toBeLessThan(at(first));
    expect(text.replace(/\s+/g, ' ')).toContain(errorText.replace(/\s+/g, ' '));
    const hhmmss = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
    for (const notice of [first, second, third]) expect(text).toContain(hhmmss(notice.at));

    // j scrolls to older messages; esc closes the log and keys go to the pane again.
    await tui.press('j');
    expect(logText(plain(tui.frame()))).not.toContain(third.text.slice(-30));
    await tui.press(KEYS.escape);
    await tui.waitFor((frame) => !frame.includes('Message log'));
    expect(tui.state().logOpen).toBe(false);
  });

  it('at 80×24, shows as many whole notices as fit under its title, and how many older ones are below', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    const base = Date.now();
    // Notices of one to three lines at this width, and one longer than the whole log.
    for (let i = 0; i < 17; i++) {
      const text =
        i === 16
          ? `notice ${i}: ${'a very long error from the service '.repeat(40)}end`
          : `notice ${i}: Inbox: oldest first.${' The callbacks waiting longest come first.'.repeat(i % 3)}`;
      tui.session.store.setState({ notice: { text, tone: 'info', at: base + i * 1000 } });
    }
    await tui.press('L');
    let frame = plain(await tui.waitFor('Message log — 17 messages, newest first'));
    const rows = lines(frame);
    expect(rows.every((row) => [...row].length <= 80)).toBe(true);
    // The border's top, the title under it, the notices, the mark, the border's bottom: nothing drawn over.
    const top = rows.findIndex((row) => row.startsWith('╔'));
    expect(rows[top + 1]).toMatch(/^║ Message log — 17 messages, newest first +║$/);
    expect(rows.findIndex((row) => row.startsWith('╚'))).toBeGreaterThan(top + 2);
    // The newest is longer than the room: cut, and the rest are below it.
    expect(rows[top + 2]).toMatch(/^║ \d\d:\d\d:\d\d notice 16: a very long error/);
    expect(frame).toContain('▼ 16 older below (j)');
    expect(frame).toMatch(/…\s*║/);

    // One older: whole notices from the 15th on, each once, with the count of those below still right.
    await tui.press('j');
    frame = plain(await tui.waitFor('1 newer above (k)'));
    const text = logText(frame);
    const older = Number(/▼ (\d+) older below/.exec(frame)?.[1]);
    const shown = [...text.matchAll(/notice (\d+):/g)].map((match) => Number(match[1]));
    expect(shown[0]).toBe(15);
    expect(shown).toEqual(Array.from({ length: shown.length }, (_, index) => 15 - index));
    expect(shown.length + older).toBe(16);
    expect(shown.length).toBeGreaterThan(3);
    expect(text).toContain(
      'notice 14: Inbox: oldest first. The callbacks waiting longest come first. The callbacks',
    );
    await tui.press(KEYS.escape);
    await tui.waitFor((frame) => !frame.includes('Message log'));
  });

  it(`keeps the last ${LOG_LIMIT} notices`, async () => {
    const tui = await startTui({ columns: 80, rows: 30, intervals: QUIET });
    await firstLoad(tui, startupLoaded);
    // Notices set straight on the store (as the session and user actions do) are logged too.
    for (let i = 0; i < LOG_LIMIT + 20; i++)
      tui.session.store.setState({ notice: { text: `notice ${i}`, tone: 'info', at: Date.now() } });
    const log = tui.state().log;
    expect(log).toHaveLength(LOG_LIMIT);
    expect(log[0]?.text).toBe('notice 20');
    expect(log.at(-1)?.text).toBe(`notice ${LOG_LIMIT + 19}`);
    // Another update with the same notice on screen logs nothing more.
    tui.session.store.setState({ searching: false });
    expect(tui.state().log).toHaveLength(LOG_LIMIT);
  });
});
