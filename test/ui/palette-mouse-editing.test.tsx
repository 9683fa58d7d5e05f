/**
 * The command palette (: and ctrl-p), the mouse (tabs, rows, the wheel), and
 * line editing in a text as in a shell (ctrl-u, ctrl-w, ctrl-k, ctrl-y,
 * ctrl-a/e, alt-b/f), against the real inbox and simulator.
 */
import { describe, expect, it } from 'vitest';
import { paletteItems } from '../../src/shell/commands/palette-items.js';
import { inboxRows } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui } from '../support/tui.js';
import {
  composedText,
  inboxLeadWhere,
  selectLeadByPhone,
  simConsent,
  waitComposer,
} from '../support/write-flows.js';
import { firstLoad, lines, QUIET, selectedRow } from './nav-pane-helpers.js';

/** The palette's rows of commands (each "what it does · its name", the title and the query line aside). */
const paletteRows = (frame: string) =>
  lines(frame).filter((line) => line.startsWith('║') && line.includes(' · ') && !line.includes('Commands —'));

describe('the command palette', () => {
  it(': lists the commands of this pane with their keys; typing finds one; enter runs it', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    await tui.press(':');
    let frame = await tui.waitFor('Commands — type to find');
    expect(frame).toMatch(/switch open leads \/ missed calls with no reply · callbacks +f/);
    expect(frame).toMatch(/go to Reviews · pane\.reviews +3/);
    // The panes' keys are not typed into the query while it is open.
    await tui.press('callb');
    frame = await tui.waitFor(': callb');
    const firstMatch = paletteRows(frame)[0];
    expect(firstMatch).toContain('callbacks');
    expect(tui.state().inboxFilter).toBe('open');
    await tui.press(KEYS.enter);
    await tui.waitFor((_frame, state) => state.palette === undefined && state.inboxFilter === 'callbacks');
    await tui.waitFor('Inbox — missed calls with no reply');
  });

  it('says where the highlight is among what matches, as it scrolls and as a query narrows it', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press(':');
    const position = async (expected: RegExp) => {
      const frame = await tui.waitFor(expected);
      const match = / · (\d+) of (\d+)$/m.exec(
        lines(frame)
          .find((line) => line.includes('Commands —'))
          ?.replace(/ *║$/, '') ?? '',
      );
      if (!match) throw new Error(`no position in the palette's title:\n${frame}`);
      return { at: Number(match[1]), of: Number(match[2]) };
    };
    const all = paletteItems(tui.state(), tui.keymap).length;
    expect(await position(/Commands — .* · 1 of \d+/)).toEqual({ at: 1, of: all });
    // More than the box shows: the highlight goes out of the first rows, and the title follows it.
    await tui.press(...Array.from({ length: 20 }, () => KEYS.down));
    expect(await position(/ · 21 of /)).toEqual({ at: 21, of: all });
    await tui.press(...Array.from({ length: all + 5 }, () => KEYS.down));
    expect(await position(new RegExp(` · ${all} of `))).toEqual({ at: all, of: all });
    // A query: back to the first of what matches.
    await tui.press('refresh');
    const matching = paletteItems(tui.state(), tui.keymap).length;
    expect(matching).toBeLessThan(all);
    expect(await position(new RegExp(` · 1 of ${matching}`))).toEqual({ at: 1, of: matching });
    await tui.press('zzzzqqq');
    await tui.waitFor('No command matches.');
    expect(lines(tui.frame()).find((line) => line.includes('Commands —'))).not.toMatch(/ of \d/);
  });

  it("lists every pane's commands, naming the pane; :approve from the Inbox finds approve, and enter goes there and asks", async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => (state.actions.pending_approval.data?.items.length ?? 0) > 0);
    expect(tui.state().focus).toBe('inbox');
    await tui.press(':', 'approve');
    const frame = await tui.waitFor(': approve');
    const matches = paletteRows(frame);
    // Each pane's approve says what it approves there.
    expect(
      matches.some((line) =>
        /approve the selected pending action \(asks y\/n\) · approve → Actions/.test(line),
      ),
    ).toBe(true);
    expect(
      matches.some((line) =>
        /approve the reply drafted here for the selected review \(asks y\/n\) · approve → Review/.test(line),
      ),
    ).toBe(true);
    // Each pane's own command: the Actions one, chosen, focuses Actions and runs there.
    const at = matches.findIndex((line) => line.includes('· approve → Actions'));
    await tui.press(...Array.from({ length: at }, () => KEYS.down), KEYS.enter);
    await tui.waitFor(
      (_frame, state) => state.focus === 'actions' && state.prompt?.kind === 'confirm-approve',
    );
    await tui.press('n');

    // :bill does not offer "order the list" (its letters only scattered there).
    await tui.press('1', ':', 'bill');
    const bill = await tui.waitFor(': bill');
    expect(bill).not.toContain('order the list');
  });

  it(':bill, :texting and :credits find Today, where billing lives; enter goes there and reads them again', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui, (state) => state.billing.data !== undefined && state.me.data !== undefined);
    for (const word of ['bill', 'texting', 'credits']) {
      await tui.press(KEYS.escape, '1', ':', word);
      const first = paletteRows(await tui.waitFor(`: ${word}`))[0] ?? '';
      expect(first, word).toMatch(/billing, texting and credits: .* · account → Today/);
    }
    const before = tui.s.sim.requests.list().length;
    await tui.press(KEYS.enter);
    await tui.waitFor((_frame, state) => state.focus === 'today' && state.palette === undefined);
    await tui.waitFor('Reading billing, texting and credits again.');
    // Read again now, not at the next turn of the quiet pace.
    await tui.waitFor(() => {
      const paths = tui.s.sim.requests
        .list()
        .slice(before)
        .map((request) => request.path);
      return ['/v1/billing', '/v1/texting', '/v1/me'].every((path) => paths.includes(path));
    });
  });

  it('ctrl-p opens it too; arrows choose; esc closes it and runs nothing', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('\u0010');
    await tui.waitFor('Commands — type to find');
    await tui.press('go to');
    await tui.press(KEYS.down, KEYS.down);
    expect(tui.state().palette?.selected).toBe(2);
    await tui.press(KEYS.up);
    expect(tui.state().palette?.selected).toBe(1);
    await tui.press(KEYS.escape);
    await tui.waitFor((_frame, state) => state.palette === undefined);
    expect(tui.state().focus).toBe('inbox');
  });

  it('a command that does not apply now says why, in the list and when chosen', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    // A filter that matches no lead: the Thread pane shows no thread, so there is nobody to text from it.
    await tui.press('/', 'zzqx', KEYS.enter, '2', ':', 'text this');
    const frame = await tui.waitFor('text this contact');
    expect(frame).toContain('(not now: no lead matches the filter “zzqx”: no thread to show');
    await tui.press(KEYS.enter);
    await tui.waitFor('No lead matches the filter “zzqx”: no thread to show');
    expect(tui.state().composer).toBeUndefined();
  });

  it('in read-only mode it offers no command that changes the shop', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET, readOnly: true });
    await firstLoad(tui);
    await tui.press(':');
    const frame = await tui.waitFor('Commands — type to find');
    expect(frame).not.toContain('compose');
    expect(frame).not.toContain("text the selected lead's contact");
  });
});

describe('the mouse', () => {
  it('a click on a tab shows that pane; on a row, selects it; the wheel moves the selection', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    const tabRow = lines(tui.frame()).findIndex((line) => line.includes('1 Inbox'));
    const tabs = lines(tui.frame())[tabRow] ?? '';
    await tui.click(tabs.indexOf('3 Reviews') + 2, tabRow);
    await tui.waitFor((_frame, state) => state.focus === 'reviews');
    await tui.click(tabs.indexOf('1 Inbox') + 1, tabRow);
    await tui.waitFor((_frame, state) => state.focus === 'inbox');

    const leads = inboxRows(tui.state());
    const target = leads[4];
    if (!target) throw new Error('fewer than five leads');
    const y = lines(tui.frame()).findIndex((line) =>
      line.includes(oneLine(target.contact_name).slice(0, 12)),
    );
    await tui.click(10, y);
    expect(selectedRow(tui.state(), 'inbox')).toBe(4);
    expect(tui.state().selection.inbox?.id).toBe(target.id);

    await tui.wheel(10, y, 'down');
    expect(selectedRow(tui.state(), 'inbox')).toBe(7);
    await tui.wheel(10, y, 'up');
    await tui.wheel(10, y, 'up');
    expect(selectedRow(tui.state(), 'inbox')).toBe(1);
  });

  it('off ("mouse": false or --no-mouse): clicks and the wheel do nothing', async () => {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET, mouse: false });
    await firstLoad(tui);
    const tabRow = lines(tui.frame()).findIndex((line) => line.includes('1 Inbox'));
    const tabs = lines(tui.frame())[tabRow] ?? '';
    await tui.click(tabs.indexOf('3 Reviews') + 2, tabRow);
    await tui.wheel(10, 8, 'down');
    expect(tui.state().focus).toBe('inbox');
    expect(selectedRow(tui.state(), 'inbox')).toBe(0);
    // The report is not typed anywhere either.
    expect(tui.state().searching).toBe(false);
  });
});

describe('editing a text as in a shell', () => {
  async function composing() {
    const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
    await firstLoad(tui);
    const target = inboxLeadWhere(tui, (contact) => simConsent(tui.s.sim, contact.phone) === true);
    await selectLeadByPhone(tui, target.contact.phone);
    await tui.press('c');
    await waitComposer(tui, target.contact.id);
    return { tui, contactId: target.contact.id };
  }

  it('ctrl-w cuts a word, ctrl-u the line before the cursor, ctrl-k after it; ctrl-y puts the last cut back', async () => {
    const { tui, contactId } = await composing();
    await tui.press('see you at noon');
    await tui.press('\u0017');
    expect(composedText(tui, contactId)).toBe('see you at ');
    await tui.press('\u0019');
    expect(composedText(tui, contactId)).toBe('see you at noon');
    await tui.press('\u0001', '\u001Bf');
    expect(tui.state().composed[contactId]?.cursor).toBe(3);
    await tui.press('\u000B');
    expect(composedText(tui, contactId)).toBe('see');
    await tui.press('\u0005', '\u0015');
    expect(composedText(tui, contactId)).toBe('');
    await tui.press('\u0019');
    expect(composedText(tui, contactId)).toBe('see');
    await tui.press('\u001Bb', 'I ');
    expect(composedText(tui, contactId)).toBe('I see');
  });

  it('ctrl-u and ctrl-w read together with text (a slow link) edit it, and no control character is typed', async () => {
    const { tui, contactId } = await composing();
    await tui.press('Running late');
    await tui.press('\u0015\u0017be there at 3\u0017\u0017at 3pm');
    expect(composedText(tui, contactId)).toBe('be there at 3pm');
    expect(composedText(tui, contactId)).not.toMatch(/\p{Cc}/u);
    await tui.waitFor('1 segment (GSM-7)');
  });

  it('ctrl-j and alt-enter put a line break in the text; enter alone asks to send it', async () => {
    const { tui, contactId } = await composing();
    await tui.press('one', '\n', 'two', '\u001B\r', 'three');
    expect(composedText(tui, contactId)).toBe('one\ntwo\nthree');
    expect(tui.state().prompt).toBeUndefined();
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-send', body: 'one\ntwo\nthree' });
  });
});
