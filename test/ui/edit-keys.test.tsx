/**
 * F1 (or ctrl-_, which ctrl-/ sends in most terminals) in a text lists its
 * editing keys from the keymap in use, over what is typed: the composer's,
 * a search line's; the hint line names it; esc or F1 goes back to the text,
 * unchanged.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { firstLoad, lines, plain, QUIET } from './nav-pane-helpers.js';

const F1 = '\u001BOP';
const CTRL_UNDERSCORE = '\u001F';

/** Every row of the list, read by scrolling it to its end with j. */
async function allRows(tui: TestTui): Promise<string> {
  const seen = new Set<string>();
  for (let press = 0; press < 40; press++) {
    for (const line of lines(tui.frame())) if (line.startsWith('║')) seen.add(line);
    if (!/▼ \d+/.test(plain(tui.frame()))) break;
    await tui.press('j');
  }
  return [...seen].join('\n');
}

describe('the editing keys of a text', () => {
  it('in the composer: the hint names F1; F1 lists the keys from the keymap in use; esc goes back to the text', async () => {
    const tui = await startTui({
      columns: 80,
      rows: 24,
      intervals: QUIET,
      keys: { 'edit.cut-start': ['ctrl-u', 'ctrl-o'] },
    });
    await firstLoad(tui);
    await tui.press('5');
    await tui.waitFor((_frame, state) => (state.contacts.data?.items.length ?? 0) > 0);
    await tui.press('c');
    await tui.waitFor((_frame, state) => state.composer !== undefined);
    await tui.press('hello there');
    const composing = plain(await tui.waitFor('hello there'));
    expect(composing.split('\n').at(-1)).toMatch(/f1 keys/);

    await tui.press(F1);
    await tui.waitFor('Editing keys — the composer');
    const listed = await allRows(tui);
    for (const [keys, does] of [
      ['home ctrl-a', 'start of the text'],
      ['end ctrl-e', 'end of the text'],
      ['alt-b', 'a word left'],
      ['alt-f', 'a word right'],
      ['ctrl-u ctrl-o', 'cut to the start of the line'],
      ['ctrl-w', 'cut the word before the cursor'],
      ['ctrl-k', 'cut to the end of the line'],
      ['ctrl-y', 'put back what was cut last'],
      ['ctrl-j', 'a line break in the text'],
      ['ctrl-t', 'canned replies'],
      ['ctrl-g', 'edit the text in your editor'],
    ] as const)
      expect(listed).toMatch(new RegExp(`${keys.replace(/[-]/g, '\\-')}\\b.*${does}`));
    // At its end j goes no further, and k scrolls back at once.
    expect(plain(tui.frame())).toMatch(/▲ \d+ j\/k/);
    await tui.press('j', 'j', 'j');
    await tui.waitFor((frame) => !/▼ \d+/.test(plain(frame)));
    await tui.press('k');
    expect(plain(tui.frame())).toMatch(/▼ 1 j\/k/);
    // Keys while the list is open are not typed.
    await tui.press('q');
    await tui.waitFor((_frame, state) => state.editKeys === undefined);
    expect(tui.state().composer).toBeDefined();
    const contactId = tui.state().composer?.contactId ?? '';
    expect(tui.state().composed[contactId]?.text).toBe('hello there');
    await tui.press(F1, KEYS.escape);
    await tui.waitFor((frame, state) => state.editKeys === undefined && frame.includes('hello there'));
    expect(tui.state().composer).toBeDefined();
  });

  it("in a search line: ctrl-_ lists its keys, without the composer's", async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('/', 'ab');
    expect(plain(tui.frame()).split('\n').at(-1)).toMatch(/f1 keys/);
    await tui.press(CTRL_UNDERSCORE);
    await tui.waitFor('Editing keys — a filter or search line');
    const listed = await allRows(tui);
    expect(listed).toContain('cut the word before the cursor');
    expect(listed).toContain('keep the filter');
    expect(listed).not.toContain('canned replies');
    await tui.press(CTRL_UNDERSCORE);
    await tui.waitFor((_frame, state) => state.editKeys === undefined && state.searching);
    expect(tui.state().search.inbox?.text).toBe('ab');
  });
});
