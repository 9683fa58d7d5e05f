/**
 * Lists that never hide anything: every list window marks the rows out of sight above and below it
 * ("▲ 4 above", "▼ 12 below"), within its box. The window's arithmetic is checked by properties; each pane's
 * list against the simulator at 80×24 and 120×40.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paneById } from '../../src/panes/registry.js';
import type { AppState, PaneId } from '../../src/store/app-store.js';
import { listWindowRange } from '../../src/ui-kit/components/list-window.js';
import { startSim } from '../support/sim.js';
import { startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain, QUIET, selectedRow } from './nav-pane-helpers.js';

describe('listWindowRange', () => {
  const cases = fc
    .record({ length: fc.integer({ min: 1, max: 300 }), height: fc.integer({ min: 1, max: 60 }) })
    .chain(({ length, height }) =>
      fc.record({
        length: fc.constant(length),
        height: fc.constant(height),
        selected: fc.integer({ min: 0, max: length - 1 }),
      }),
    );

  it('shows the selected row, counts every row out of sight, and never takes more rows than it has', () => {
    fc.assert(
      fc.property(cases, ({ length, selected, height }) => {
        const window = listWindowRange(length, selected, height);
        expect(window.count).toBeGreaterThanOrEqual(1);
        expect(selected).toBeGreaterThanOrEqual(window.start);
        expect(selected).toBeLessThan(window.start + window.count);
        expect(window.above).toBe(window.start);
        expect(window.below).toBe(length - window.start - window.count);
        expect(window.above + window.count + window.below).toBe(length);
        const used = window.count + Number(window.markAbove) + Number(window.markBelow);
        expect(used).toBeLessThanOrEqual(height);
        // A mark only where rows are out of sight, and one wherever they are when the window has three rows.
        if (window.markAbove) expect(window.above).toBeGreaterThan(0);
        if (window.markBelow) expect(window.below).toBeGreaterThan(0);
        if (height >= 3) {
          expect(window.markAbove).toBe(window.above > 0);
          expect(window.markBelow).toBe(window.below > 0);
        }
        // No row of the box is wasted: a list longer than the box fills it.
        if (length >= height) expect(used).toBe(height);
        else expect(window).toMatchObject({ start: 0, count: length, markAbove: false, markBelow: false });
      }),
    );
  });

  it('moves by one row as the selection moves by one (no jumps past the rows between)', () => {
    fc.assert(
      fc.property(cases, ({ length, selected, height }) => {
        fc.pre(selected + 1 < length && height >= 3);
        const here = listWindowRange(length, selected, height);
        const next = listWindowRange(length, selected + 1, height);
        expect(next.start).toBeGreaterThanOrEqual(here.start);
        // Only where a mark appears or goes may the first row shown move by two.
        expect(next.start - here.start).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('at the ends: the first rows and "▼" only; the last rows and "▲" only', () => {
    expect(listWindowRange(20, 0, 5)).toEqual({
      start: 0,
      count: 4,
      above: 0,
      below: 16,
      markAbove: false,
      markBelow: true,
    });
    expect(listWindowRange(20, 19, 5)).toEqual({
      start: 16,
      count: 4,
      above: 16,
      below: 0,
      markAbove: true,
      markBelow: false,
    });
    expect(listWindowRange(20, 10, 5)).toMatchObject({ start: 9, count: 3, above: 9, below: 8 });
  });
});

const PANES: Array<{ id: PaneId; key: string }> = [
  { id: 'inbox', key: '1' },
  { id: 'reviews', key: '3' },
  { id: 'actions', key: '4' },
  { id: 'contacts', key: '5' },
];

const listLength = (state: AppState, pane: PaneId) => paneById(pane).list?.of(state).rows.length ?? 0;

/** Where the pane's bottom border is, and how many lines the screen has. */
function layout(tui: TestTui) {
  const shown = lines(tui.frame());
  return { lines: shown.length, bottomBorder: shown.findLastIndex((line) => line.startsWith('└')) };
}

describe.each([
  [80, 24],
  [120, 40],
])('every list at %i×%i', (columns, rows) => {
  it.each(PANES)(
    '$id: "▼ n below" at the top, both marks in the middle, "▲ n above" at the end',
    async ({ id, key }) => {
      const s = await startSim();
      // Every list longer than the tallest box.
      for (let i = 0; i < 40; i++)
        for (const kind of ['missed_call', 'review', 'action'] as const) s.sim.inject(kind);
      const tui = await startTui({ sim: s, columns, rows, intervals: QUIET });
      await firstLoad(tui, startupLoaded);
      await tui.press(key);
      await tui.waitFor((_, state) => state.focus === id && listLength(state, id) > rows);
      const length = listLength(tui.state(), id);
      const box = layout(tui);
      expect(box.lines).toBe(rows - 1);
      const expectWithinBox = () => expect(layout(tui), plain(tui.frame())).toEqual(box);

      await tui.press('g');
      const top = plain(await tui.waitFor(/▼ \d+ below/));
      expect(top).not.toMatch(/▲ \d+ above/);
      const below = Number(/▼ (\d+) below/.exec(top)?.[1]);
      expect(below).toBeGreaterThan(0);
      expect(below).toBeLessThan(length);
      expectWithinBox();

      // Down to the middle: rows out of sight on both sides, and together with those shown, every row.
      for (let step = 0; step < Math.floor(length / 2); step++) await tui.press('j');
      const middle = plain(await tui.waitFor(/▲ \d+ above[\s\S]*▼ \d+ below/));
      const above = Number(/▲ (\d+) above/.exec(middle)?.[1]);
      const belowMiddle = Number(/▼ (\d+) below/.exec(middle)?.[1]);
      expect(above).toBeLessThanOrEqual(selectedRow(tui.state(), id));
      // The same box with two marks shows one row fewer than with one: one more row is out of sight.
      expect(above + belowMiddle).toBe(below + 1);
      expectWithinBox();

      await tui.press('G');
      const end = plain(await tui.waitFor(/▲ \d+ above/));
      expect(end).not.toMatch(/▼ \d+ below/);
      // At the end one mark: the rows shown are one more than at the top (the same box, one mark).
      expect(Number(/▲ (\d+) above/.exec(end)?.[1])).toBe(below);
      expectWithinBox();
    },
  );
});
