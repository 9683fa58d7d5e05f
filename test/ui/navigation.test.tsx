/**
 * Moving around the inbox with the keyboard: panes (tab, shift-tab, 1–6),
 * the selection (j/k, arrows, g/G, ctrl-d/ctrl-u, several keys in one chunk),
 * opening a thread and going back, the help overlay (also in read-only), and
 * the two layouts (side by side from 120 columns, one pane below).
 */
import { describe, expect, it } from 'vitest';
import { PANES as PANE_LIST, paneById } from '../../src/panes/registry.js';
import type { PaneId } from '../../src/store/app-store.js';
import { inboxRows, openLead, threadLeadId } from '../../src/store/selectors.js';
import { showKeys } from '../../src/ui-kit/commands/describe.js';
import { dateTime, oneLine } from '../../src/ui-kit/format.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { draftWithItsAction } from '../support/write-flows.js';
import {
  firstLoad,
  hasHintFor,
  helpEntries,
  helpHasKey,
  helpLines,
  lines,
  plain,
  QUIET,
  requestsTo,
  selectedRow,
  width,
} from './nav-pane-helpers.js';

const PANES = PANE_LIST.map((pane) => pane.id);

/**
 * The panes framed on screen, left to right: each frame's title, the line under its top border, starts with
 * its tab's title ("Inbox — open leads", "Today and account").
 */
function framedPanes(frame: string): PaneId[] {
  const rows = lines(frame);
  const top = rows.findIndex((row) => row.trimStart().startsWith('┌'));
  const titles = (rows[top + 1] ?? '').split('│').map((part) => part.trim());
  return PANE_LIST.filter((pane) =>
    titles.some((title) => title === pane.title || title.startsWith(`${pane.title} `)),
  ).map((pane) => pane.id);
}

async function expectPane(tui: TestTui, pane: PaneId) {
  await tui.waitFor((frame, state) => state.focus === pane && framedPanes(frame).includes(pane));
  // Only the focused pane is drawn at 80 columns.
  expect(framedPanes(tui.frame())).toEqual([pane]);
}

/** Opens the selected lead (enter) and checks the thread is that lead's, by contact and creation time. */
async function openSelectedLead(tui: TestTui) {
  const state = tui.state();
  const lead = inboxRows(state)[selectedRow(state, 'inbox')];
  if (!lead) throw new Error('no lead selected');
  await tui.press(KEYS.enter);
  await tui.waitFor(
    (frame, now) =>
      now.focus === 'thread' &&
      plain(frame).includes(`Thread — ${oneLine(lead.contact_name)}`) &&
      plain(frame).includes(dateTime(lead.created_at)),
  );
  return lead;
}

describe('panes: tab, shift-tab and 1–6', () => {
  it('tab visits all six panes in order and wraps; shift-tab goes back the same way', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await expectPane(tui, 'inbox');
    const order: PaneId[] = ['inbox', 'thread', 'reviews', 'actions', 'contacts', 'today'];
    expect(PANES).toEqual(order);
    for (const pane of [...order.slice(1), 'inbox' as const]) {
      await tui.press(KEYS.tab);
      await expectPane(tui, pane);
    }
    for (const pane of [...order].reverse()) {
      await tui.press(KEYS.shiftTab);
      await expectPane(tui, pane);
    }
  });

  it('the tab bar names the six panes in order, numbered 1–6', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const tabLine = lines(tui.frame()).find((line) => line.includes('1 Inbox')) ?? '';
    const positions = PANES.map((pane, index) => tabLine.indexOf(`${index + 1} ${paneById(pane).title}`));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('1–6 jump straight to each pane, in any order', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    for (const key of ['6', '3', '5', '2', '4', '1', '6', '1']) {
      await tui.press(key);
      await expectPane(tui, PANES[Number(key) - 1] as PaneId);
    }
  });
});

describe('the selection', () => {
  it('j/k and the arrows move one row, never past the ends', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const cursor = () => selectedRow(tui.state(), 'inbox');
    await tui.press('k', KEYS.up);
    expect(cursor()).toBe(0);
    await tui.press('j');
    expect(cursor()).toBe(1);
    await tui.press(KEYS.down);
    expect(cursor()).toBe(2);
    await tui.press('k');
    expect(cursor()).toBe(1);
    await tui.press(KEYS.down, KEYS.down, KEYS.up);
    expect(cursor()).toBe(2);
    // What is selected is what enter opens.
    const lead = await openSelectedLead(tui);
    expect(lead.id).toBe(tui.state().inbox.open.data?.open_leads[2]?.id);
  });

  it('several keys in one chunk ("jjj") move three times', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jjj');
    expect(selectedRow(tui.state(), 'inbox')).toBe(3);
    await tui.press('jjjjj', 'kk');
    expect(selectedRow(tui.state(), 'inbox')).toBe(6);
    const lead = await openSelectedLead(tui);
    expect(lead.id).toBe(tui.state().inbox.open.data?.open_leads[6]?.id);
  });

  it('control keys read together in one chunk (tab tab, j j enter, ctrl-d ctrl-d) each count', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    // A slow link delivers keys pressed quickly in one read: Ink hands them over as one string.
    const count = tui.state().inbox.open.data?.open_leads.length ?? 0;
    await tui.press(`${KEYS.ctrlD}${KEYS.ctrlD}`);
    expect(selectedRow(tui.state(), 'inbox')).toBe(Math.min(count - 1, 2 * (24 - 9)));
    await tui.press(`${KEYS.ctrlU}${KEYS.ctrlU}`);
    expect(selectedRow(tui.state(), 'inbox')).toBe(0);
    await tui.press(`${KEYS.tab}${KEYS.tab}`);
    await expectPane(tui, 'reviews');
    await tui.press('1', `jj${KEYS.enter}`);
    await tui.waitFor((_f, state) => state.focus === 'thread');
    const lead = tui.state().inbox.open.data?.open_leads[2];
    expect(threadLeadId(tui.state())).toBe(lead?.id);
    await tui.waitFor(`Thread — ${oneLine(lead?.contact_name)}`);
  });

  it('a confirmation opened by a key of a chunk is not answered by the keys read with it', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, (state) => state.actions.pending_approval.data !== undefined);
    // "a" then "y" in one read (a paste, a key bounce): the approval still waits for its own y.
    await tui.press('4');
    await tui.waitFor(/│ Actions — awaiting approval/);
    await tui.press('ay');
    await tui.waitFor(/Approve review reply act_|Approve follow up text act_/);
    expect(tui.state().prompt?.kind).toBe('confirm-approve');
    await tui.press('n');
    expect(tui.state().prompt).toBeUndefined();

    // "c", text, enter and "y" in one read (a paste without bracketed paste): an enter read with more keys
    // after it is a line break in the text, never "send"; nothing is asked, nothing is sent.
    await tui.press('1', KEYS.enter);
    await tui.waitFor((frame, state) => state.focus === 'thread' && plain(frame).includes('consent'));
    await tui.press(`chi${KEYS.enter}y`);
    await tui.waitFor((_frame, state) => state.composer !== undefined);
    const contactId = tui.state().composer?.contactId ?? '';
    expect(tui.state().composed[contactId]?.text).toBe('hi\ny');
    expect(tui.state().prompt).toBeUndefined();
    // An enter of its own asks; the y read with it is not an answer either.
    await tui.press(`${KEYS.enter}`);
    await tui.waitFor(/Send to /);
    // esc answers no to the question, whether it asks for y or for a typed word (this contact's consent).
    await tui.press(KEYS.escape);
    await tui.press(`${KEYS.enter}y`);
    expect(tui.state().composed[contactId]?.text).toBe('hi\ny\ny');
    expect(tui.state().prompt).toBeUndefined();
    expect(await tui.writes()).toEqual([]);
  });

  it('G goes to the last row (scrolling it into view), g to the first', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const leads = tui.state().inbox.open.data?.open_leads ?? [];
    expect(leads.length).toBeGreaterThan(15);
    const last = leads.at(-1);
    const first = leads[0];
    if (!last || !first) throw new Error('no leads');
    const phoneRow = (lead: typeof last) => (frame: string) =>
      lines(frame).some(
        (line) => line.includes(oneLine(lead.caller_phone)) && line.includes(lead.job_type.slice(0, 8)),
      );
    // The list is longer than the pane: the last lead is off screen at first.
    expect(phoneRow(last)(tui.frame())).toBe(false);
    await tui.press('G');
    expect(selectedRow(tui.state(), 'inbox')).toBe(leads.length - 1);
    await tui.waitFor((frame) => phoneRow(last)(frame));
    await tui.press('g');
    expect(selectedRow(tui.state(), 'inbox')).toBe(0);
    await tui.waitFor((frame) => phoneRow(first)(frame) && !phoneRow(last)(frame));
  });

  it('ctrl-d / ctrl-u move a page (rows − 9) down and up, clamped to the list', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const count = tui.state().inbox.open.data?.open_leads.length ?? 0;
    const page = 24 - 9;
    expect(count).toBeGreaterThan(page);
    await tui.press(KEYS.ctrlD);
    expect(selectedRow(tui.state(), 'inbox')).toBe(page);
    await tui.press(KEYS.ctrlD);
    expect(selectedRow(tui.state(), 'inbox')).toBe(Math.min(count - 1, 2 * page));
    await tui.press(KEYS.ctrlU);
    expect(selectedRow(tui.state(), 'inbox')).toBe(Math.min(count - 1, 2 * page) - page);
    await tui.press(KEYS.ctrlU, KEYS.ctrlU);
    expect(selectedRow(tui.state(), 'inbox')).toBe(0);
    await tui.press(KEYS.ctrlD);
    const lead = await openSelectedLead(tui);
    expect(lead.id).toBe(tui.state().inbox.open.data?.open_leads[page]?.id);
  });

  it('each pane keeps its own selection', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, (state) => state.reviews.data !== undefined);
    await tui.press('jj', '3', 'j', '1');
    expect(selectedRow(tui.state(), 'inbox')).toBe(2);
    expect(selectedRow(tui.state(), 'reviews')).toBe(1);
  });
});

describe('opening a thread', () => {
  it('enter on a lead reads GET /leads/{id} and shows that contact; esc goes back to the inbox', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('jjjj');
    const lead = inboxRows(tui.state())[4];
    if (!lead) throw new Error('no fifth lead');
    // In the narrow layout nothing has read this lead yet.
    expect(await requestsTo(tui, `/leads/${lead.id}`)).toHaveLength(0);
    await openSelectedLead(tui);
    const reads = await requestsTo(tui, `/leads/${lead.id}`);
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.every((read) => read.status === 200)).toBe(true);
    const frame = plain(tui.frame());
    expect(frame).toContain(oneLine(lead.caller_phone));
    expect(framedPanes(frame)).toEqual(['thread']);
    expect(threadLeadId(tui.state())).toBe(lead.id);

    await tui.press(KEYS.escape);
    await expectPane(tui, 'inbox');
    // Back where staff left: the same lead is still selected.
    expect(selectedRow(tui.state(), 'inbox')).toBe(4);
  });

  it('the thread pane before any lead is opened shows the lead the inbox highlights (its first)', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const first = inboxRows(tui.state())[0];
    if (!first) throw new Error('no lead');
    await tui.press('2');
    await tui.waitFor(`Thread — ${oneLine(first.contact_name)} (${first.caller_phone})`);
    await tui.waitFor((_f, state) => openLead(state)?.lead.id === first.id);
  });
});

describe('help overlay (?)', () => {
  it("lists the focused pane's own keys and the global ones; esc and ? close it", async () => {
    // Big enough for the inbox's whole help without scrolling (at 80×24 it scrolls: see below).
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('?');
    let frame = await tui.waitFor('Keys — Inbox');
    expect(helpHasKey(frame, 'f')).toBe(true);
    expect(helpLines(frame).join('\n')).toContain('missed calls with no reply');
    expect(helpHasKey(frame, 'enter')).toBe(true);
    expect(helpHasKey(frame, 'c')).toBe(true);
    // Global keys are there too; another pane's own key is not.
    for (const keys of ['?', 'q ctrl-c', 'tab shift-tab', '1 2 3 4 5 6', 'j ↓ k ↑', 'g home G end', 'r R']) {
      expect(helpHasKey(frame, keys), keys).toBe(true);
    }
    expect(helpHasKey(frame, 'd')).toBe(false);
    expect(helpHasKey(frame, 'a')).toBe(false);
    // The help swallows keys: a pane key does nothing while it is open.
    await tui.press('3', 'j');
    expect(tui.state().focus).toBe('inbox');
    expect(selectedRow(tui.state(), 'inbox')).toBe(0);
    expect(plain(tui.frame())).toContain('Keys — Inbox');

    await tui.press(KEYS.escape);
    await tui.waitFor((f) => !plain(f).includes('Keys —') && /│ Inbox — open leads/.test(plain(f)));

    await tui.press('3', '?');
    frame = await tui.waitFor('Keys — Reviews');
    expect(helpHasKey(frame, 'd')).toBe(true);
    expect(helpLines(frame).join('\n')).toContain('reply draft');
    expect(helpHasKey(frame, 'f')).toBe(false);
    expect(helpHasKey(frame, 'enter')).toBe(false);
    await tui.press('?');
    await tui.waitFor((f) => !plain(f).includes('Keys —') && /│ Reviews \(/.test(plain(f)));

    await tui.press('4', '?');
    frame = await tui.waitFor('Keys — Actions');
    expect(helpHasKey(frame, 'a')).toBe(true);
    await tui.press(KEYS.escape);
    await tui.waitFor((f) => !plain(f).includes('Keys —'));
  });

  it("at 80×24 each key's text is there whole, wrapped under itself, and no line is wider than the terminal", async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('?');
    await tui.waitFor('Keys — Inbox');
    // Each row of the help: its keys as shown, and its words (a row's first command's, or the row's own).
    const rows = new Map<string, { keys: string[]; label: string }>();
    for (const { command, keys } of tui.keymap.commands('pane:inbox')) {
      if (keys.length === 0) continue;
      const id = command.helpRow?.id ?? command.id;
      const row = rows.get(id) ?? { keys: [], label: command.helpRow?.label ?? command.label };
      row.keys.push(...keys);
      rows.set(id, row);
    }
    const labels = new Map([...rows.values()].map((row) => [showKeys(row.keys), row.label]));
    const seen = new Map<string, string>();
    for (let scrolls = 0; scrolls < 80; scrolls += 1) {
      const frame = plain(tui.frame());
      for (const line of lines(frame)) expect([...line].length).toBeLessThanOrEqual(80);
      for (const entry of helpEntries(frame)) {
        const keys = [...labels.keys()].find((each) => entry.startsWith(`${each} `));
        if (keys !== undefined) seen.set(keys, entry.slice(keys.length).trim());
      }
      if (/lines (\d+)–(\d+) of \2,/.test(frame)) break;
      await tui.press('j');
    }
    // Every key seen from its first line; its whole text on screen, cut nowhere (an entry's first line may
    // scroll out of sight while its last is in it: the last screen's entries are checked as they began).
    expect([...seen.keys()].sort()).toEqual([...labels.keys()].sort());
    for (const [keys, text] of seen) expect(text.startsWith(labels.get(keys) ?? '?'), keys).toBe(true);
    expect([...seen.values()].some((text) => text.includes('…'))).toBe(false);
  });

  it('at 80×24 it scrolls to its end and no further: j past the end is taken back, and k scrolls back at once', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('?');
    const range = () => {
      const match = /Keys — Inbox {2}lines (\d+)–(\d+) of (\d+), j\/k scroll/.exec(plain(tui.frame()));
      if (!match) throw new Error(`no scroll range in the help's title:\n${plain(tui.frame())}`);
      return { first: Number(match[1]), last: Number(match[2]), of: Number(match[3]) };
    };
    await tui.waitFor('Keys — Inbox');
    expect(range().first).toBe(1);
    let presses = 0;
    while (range().last < range().of) {
      await tui.press('j');
      presses += 1;
      expect(presses).toBeLessThan(60);
    }
    const end = range();
    await tui.press('j', 'j', 'j');
    await tui.waitFor((_frame, state) => state.helpScroll === end.first - 1);
    expect(range()).toEqual(end);
    await tui.press('k');
    expect(range()).toEqual({ first: end.first - 1, last: end.last - 1, of: end.of });
  });

  it('in read-only mode the keys that change the shop (c, d, a) are in neither the help nor the hints', async () => {
    const writeKeys: Array<[PaneId, string]> = [
      ['inbox', 'c'],
      ['thread', 'c'],
      ['reviews', 'd'],
      ['reviews', 'a'],
      ['actions', 'a'],
      ['contacts', 'c'],
    ];
    // Every command of the registry that changes the shop is one of these.
    const fromRegistry = PANE_LIST.flatMap((pane) =>
      pane.commands.filter((command) => command.writes).map((command) => [pane.id, command.keys[0]]),
    );
    expect(fromRegistry).toEqual(writeKeys);
    const labelOf = (pane: PaneId) => paneById(pane).commands.find((command) => command.writes)?.label ?? '?';

    for (const readOnly of [false, true]) {
      const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET, readOnly });
      await firstLoad(tui, (state) => (state.actions.pending_approval.data?.items.length ?? 0) > 0);
      // A thread open, so that texting from it applies.
      await tui.press(KEYS.enter);
      await tui.waitFor((_f, state) => openLead(state) !== undefined);
      for (const [pane, key] of writeKeys) {
        await tui.press(String(PANES.indexOf(pane) + 1));
        await tui.waitFor((_f, state) => state.focus === pane);
        const does = labelOf(pane);
        // a in Reviews applies to a reply drafted here.
        if (pane === 'reviews' && key === 'a' && !readOnly) await draftWithItsAction(tui);
        await tui.waitFor((frame) => hasHintFor(frame, key) === !readOnly, 1_000);
        await tui.press('?');
        const help = await tui.waitFor(`Keys — ${paneById(pane).title}`);
        expect(helpHasKey(help, key), `${pane} help ${key}, readOnly=${readOnly}`).toBe(!readOnly);
        expect(helpEntries(help).join('\n').includes(does)).toBe(!readOnly);
        if (readOnly) expect(plain(help)).toContain('read-only');
        await tui.press(KEYS.escape);
        await tui.waitFor((f) => !plain(f).includes('Keys —'));
      }
      tui.close();
    }
  });
});

describe('layout', () => {
  const titleOf = {
    inbox: /Inbox — open leads \(\d+\)/,
    thread: /│ Thread\b/,
  };

  it('at 120×40 the inbox and the thread are side by side, on the same rows', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    const frame = plain(await tui.waitFor((f) => titleOf.thread.test(plain(f))));
    expect(frame).toMatch(titleOf.inbox);
    const row = lines(frame).find((line) => titleOf.inbox.test(line)) ?? '';
    // One line holds both titles: the panes are next to each other.
    expect(row).toMatch(titleOf.thread);
    expect(row.indexOf('Thread')).toBeGreaterThan(row.indexOf('Inbox'));
    // Opening a lead keeps both on screen, the thread now showing it.
    await tui.press('j', KEYS.enter);
    const lead = inboxRows(tui.state())[1];
    if (!lead) throw new Error('no second lead');
    const opened = plain(await tui.waitFor(`Thread — ${oneLine(lead.contact_name)}`));
    expect(opened).toMatch(titleOf.inbox);
  });

  it('at 80×24 one pane shows under the tab bar', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui);
    const frame = plain(tui.frame());
    expect(frame).toMatch(titleOf.inbox);
    expect(frame).not.toMatch(titleOf.thread);
    expect(frame).toMatch(/1 Inbox\s+2 Thread\s+3 Reviews\s+4 Actions\s+5 Contacts\s+6 Today/);
  });

  it('a resize from 120 to 80 columns and back switches the layout', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    await tui.waitFor((f) => titleOf.thread.test(plain(f)) && titleOf.inbox.test(plain(f)));
    await tui.resize(80, 24);
    let frame = plain(
      await tui.waitFor((f) => !titleOf.thread.test(plain(f)) && lines(f).every((line) => width(line) <= 80)),
    );
    expect(frame).toMatch(titleOf.inbox);
    expect(lines(frame).length).toBeLessThan(24);
    await tui.resize(120, 40);
    frame = plain(await tui.waitFor((f) => titleOf.thread.test(plain(f))));
    expect(frame).toMatch(titleOf.inbox);
    expect(lines(frame).some((line) => width(line) > 80)).toBe(true);
    expect(lines(frame).every((line) => width(line) <= 120)).toBe(true);
  });

  it('at 80×24 no screen is wider than 80 columns or as tall as the terminal', async () => {
    const tui = await startTui({ columns: 80, rows: 24, intervals: QUIET });
    await firstLoad(tui, (state) => state.contacts.data !== undefined && state.texting.data !== undefined);
    const check = (what: string) => {
      const frameLines = lines(tui.frame());
      const wide = frameLines.filter((line) => width(line) > 80);
      expect(wide, `${what}: lines wider than 80`).toEqual([]);
      expect(frameLines.length, `${what}: frame height`).toBeLessThan(24);
    };
    check('inbox');
    // The lead with the longest message, whose thread wraps the most.
    const leads = tui.state().inbox.open.data?.open_leads ?? [];
    const longest = leads.findIndex(
      (lead) => lead.job_type === 'AC not cooling' && lead.urgency === 'same_day',
    );
    await tui.press('g', 'j'.repeat(Math.max(0, longest)), KEYS.enter);
    await tui.waitFor('consent');
    check('thread');
    for (const key of ['3', '4', '5', '6']) {
      await tui.press(key);
      await tui.waitFor((_f, state) => state.focus === PANES[Number(key) - 1]);
      check(`pane ${key}`);
      await tui.press('?');
      await tui.waitFor('Keys —');
      check(`help of pane ${key}`);
      await tui.press(KEYS.escape);
    }
    await tui.press('1', '/', 'a');
    check('inbox search');
    await tui.press(KEYS.escape, 'f');
    await tui.waitFor('missed calls with no reply');
    check('callbacks');
  });
});
