/**
 * "New" marks go for what the panes on screen have in front of them, as their
 * descriptors say: by default the record selected in a pane's list, else the
 * pane's own `inSight`. Tried on a small set of panes of our own over a real
 * store.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followNewMarks, marksInSight } from '../../src/shell/new-marks.js';
import { type AppState, createAppStore } from '../../src/store/app-store.js';
import { emptySeen, observe } from '../../src/store/seen.js';
import { notes, SMALL_PANES } from './small-panes.js';

const AT = Date.UTC(2026, 5, 12, 9, 30);

beforeEach(() => {
  vi.useFakeTimers({ now: AT });
});
afterEach(() => {
  vi.useRealTimers();
});

function stateWith(focus: string, columns: number, selected: string): AppState {
  const store = createAppStore({
    columns,
    rows: 24,
    templates: notes('a', 'b', 'c'),
    machineTimeZone: 'UTC',
  });
  store.setState({ focus, selection: { notes: { id: selected, index: 0 } } });
  return store.getState();
}

describe('the marks in sight', () => {
  it('of a pane with a list and no inSight of its own: its selected record, of its first kind', () => {
    expect(marksInSight(stateWith('notes', 80, 'b'), SMALL_PANES)).toEqual([['reviews', ['b']]]);
  });

  it("of a pane with inSight: what it says; from 120 columns, the pair's together", () => {
    expect(marksInSight(stateWith('detail', 80, 'c'), SMALL_PANES)).toEqual([['actions', ['c']]]);
    expect(marksInSight(stateWith('notes', 120, 'c'), SMALL_PANES)).toEqual([
      ['reviews', ['c']],
      ['actions', ['c']],
    ]);
    expect(marksInSight(stateWith('other', 120, 'c'), SMALL_PANES)).toEqual([['leads', ['from-other']]]);
  });
});

describe('following the marks', () => {
  it('clears the marks of what is in sight, and only those, as the selection moves', () => {
    const store = createAppStore({
      columns: 80,
      rows: 24,
      templates: notes('a', 'b', 'c'),
      machineTimeZone: 'UTC',
    });
    let seen = observe(emptySeen(), 'reviews', [], AT);
    seen = observe(seen, 'reviews', ['a', 'b', 'c'], AT);
    seen = observe(observe(seen, 'leads', [], AT), 'leads', ['from-other'], AT);
    store.setState({ seen, focus: 'other', selection: { notes: { id: 'b', index: 1 } } });
    const stop = followNewMarks(store, { panes: SMALL_PANES });
    try {
      expect([...store.getState().seen.fresh.reviews]).toEqual(['a', 'b', 'c']);
      expect(store.getState().seen.fresh.leads.size).toBe(0);
      store.setState({ focus: 'notes' });
      expect([...store.getState().seen.fresh.reviews]).toEqual(['a', 'c']);
      store.setState({ selection: { notes: { id: 'c', index: 2 } } });
      expect([...store.getState().seen.fresh.reviews]).toEqual(['a']);
      // Leaving the pane clears nothing.
      store.setState({ focus: 'other' });
      expect([...store.getState().seen.fresh.reviews]).toEqual(['a']);
    } finally {
      stop();
    }
  });
});
