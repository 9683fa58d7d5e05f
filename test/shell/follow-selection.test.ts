/**
 * Selection following runs over whatever panes it is given: their lists,
 * what staff choose in them (`choices`) and the panes that show another's
 * highlighted record (`shows`). Tried here on a small set of panes of our own
 * (small-panes.ts) over a real store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { followSelections } from '../../src/shell/follow-selection.js';
import { type AppStore, createAppStore } from '../../src/store/app-store.js';
import { notes, SMALL_PANES, selectedNote } from './small-panes.js';

const AT = Date.UTC(2026, 5, 12, 9, 30);
let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** Notes listing these, focused on `focus`, with `selected` highlighted in Notes. */
function storeWith(names: string[], selected: string, focus: string, columns = 80): AppStore {
  const store = createAppStore({ columns, rows: 24, templates: notes(...names), machineTimeZone: 'UTC' });
  store.setState({ focus });
  stop = followSelections(store, { panes: SMALL_PANES, now: () => AT });
  const index = names.indexOf(selected);
  store.setState((state) => ({ selection: { ...state.selection, notes: { id: selected, index } } }));
  return store;
}

describe('following the selection over the panes it is given', () => {
  it('a record that leaves the list on screen: its neighbour is selected, and the pane says which left', () => {
    const store = storeWith(['a', 'b', 'c'], 'b', 'notes');
    store.setState({ templates: notes('a', 'c') });
    expect(selectedNote(store.getState())).toBe('c');
    expect(store.getState().notice).toEqual({
      text: 'The note you had selected (b) left this list; now on c.',
      tone: 'warning',
      at: AT,
      background: true,
    });
  });

  it('a record that leaves the list while an error is on the status line: the error stays, the log says which left', () => {
    const store = storeWith(['a', 'b', 'c'], 'b', 'notes');
    const error = { text: 'Not approved: review reply act_1; not found', tone: 'error' as const, at: AT };
    store.setState({ notice: error });
    store.setState({ templates: notes('a', 'c') });
    expect(selectedNote(store.getState())).toBe('c');
    expect(store.getState().notice).toEqual(error);
    expect(store.getState().log.at(-1)?.text).toBe('The note you had selected (b) left this list; now on c.');
  });

  it("a list that changed because of a pane's own choice moves the selection quietly", () => {
    const store = storeWith(['a!', 'b', 'c!'], 'b', 'notes');
    // u in this small pane: only the notes with a "!" (its choices name unrepliedOnly).
    store.setState({ unrepliedOnly: true });
    expect(selectedNote(store.getState())).toBe('c!');
    expect(store.getState().notice).toBeUndefined();
  });

  it('a record that leaves a list off screen is told by the pane on screen that shows it', () => {
    const store = storeWith(['a', 'b', 'c'], 'b', 'detail');
    store.setState({ templates: notes('a', 'c') });
    expect(store.getState().notice?.text).toBe(
      'The note you had selected (b) left the Notes list; the detail shows c now.',
    );
    // Not while nothing on screen shows it.
    store.setState({ focus: 'other' });
    store.setState({ templates: notes('a') });
    expect(store.getState().notice?.text).toBe(
      'The note you had selected (b) left the Notes list; the detail shows c now.',
    );
    expect(selectedNote(store.getState())).toBe('a');
  });

  it('the pane staff work in holds on to a record its `keep` keeps, and says nothing', () => {
    const store = storeWith(['a', 'keep-b', 'c'], 'keep-b', 'detail');
    store.setState({ templates: notes('a', 'c') });
    const state = store.getState();
    expect(state.threadFrom).toEqual({ list: 'lead', leadId: 'keep-b' });
    expect(selectedNote(state)).toBe('c');
    expect(state.notice).toBeUndefined();
  });

  it('does not hold on when the pane is not the one staff work in', () => {
    const store = storeWith(['a', 'keep-b', 'c'], 'keep-b', 'notes', 120);
    store.setState({ templates: notes('a', 'c') });
    expect(store.getState().threadFrom).toEqual({ list: 'inbox' });
    expect(store.getState().notice?.text).toBe(
      'The note you had selected (keep-b) left this list; now on c.',
    );
  });

  it('each change is heard once, already settled, by listeners older and newer than the following', () => {
    const store = createAppStore({
      columns: 80,
      rows: 24,
      templates: notes('a', 'keep-b', 'c'),
      machineTimeZone: 'UTC',
    });
    store.setState({ focus: 'detail' });
    // The poller and the session listen from before the panes are drawn.
    const older: Array<string | undefined> = [];
    store.subscribe((state) => older.push(state.selection.notes?.id));
    stop = followSelections(store, { panes: SMALL_PANES, now: () => AT });
    const newer: Array<{ note: string | undefined; from: string }> = [];
    store.subscribe((state) => newer.push({ note: selectedNote(state), from: state.threadFrom.list }));
    store.setState((state) => ({ selection: { ...state.selection, notes: { id: 'keep-b', index: 1 } } }));
    older.length = 0;
    newer.length = 0;
    // The highlighted note leaves; Detail, where staff work, keeps it (two rounds of settling).
    store.setState({ templates: notes('a', 'c') });
    expect(older).toEqual(['c']);
    expect(newer).toEqual([{ note: 'c', from: 'lead' }]);
    // A change that moves nothing is heard once too.
    store.setState({ rows: 30 });
    expect(older).toEqual(['c', 'c']);
  });
});
