/**
 * A small set of panes of our own, over fields of the real store, for trying
 * the shell's machinery (selection following, "new" marks) without the real
 * panes' data: "Notes" lists the templates (u shows only those with a "!"),
 * "Detail" shows the note highlighted in Notes unless threadFrom names a
 * record of its own, "Other" has no list. Nothing of ours is mocked: the
 * machinery runs on a real store.
 */
import type { PaneDescriptor } from '../../src/panes/pane.js';
import { paneSet } from '../../src/panes/pane-set.js';
import type { AppState, Template } from '../../src/store/app-store.js';
import { selectedIndexIn } from '../../src/store/selection.js';
import { selectionOf } from '../../src/store/selectors.js';

const Nothing = () => null;

const noteRows = (state: AppState): readonly Template[] =>
  state.unrepliedOnly ? state.templates.filter((note) => note.body.includes('!')) : state.templates;

export const noteList = (state: AppState) => ({
  rows: noteRows(state),
  rowId: (note: Template) => note.name,
});

export const selectedNote = (state: AppState): string | undefined => {
  const list = noteList(state);
  return list.rows[selectedIndexIn(list, selectionOf(state, 'notes'))]?.name;
};

/** The note Detail shows: its own (threadFrom names one), else the one highlighted in Notes. */
const detailRecord = (state: AppState): string | undefined =>
  state.threadFrom.list === 'lead' ? state.threadFrom.leadId : selectedNote(state);

export const notesPane: PaneDescriptor = {
  id: 'notes',
  title: 'Notes',
  Component: Nothing,
  list: { of: noteList, noun: 'note', rowLabel: (note: Template) => note.name },
  reads: () => [],
  choices: (state) => [state.unrepliedOnly],
  seen: { kinds: ['reviews'] },
  beside: 'detail',
  commands: [],
};

export const detailPane: PaneDescriptor = {
  id: 'detail',
  title: 'Detail',
  Component: Nothing,
  reads: () => [],
  choices: (state) => [state.threadFrom],
  seen: { kinds: [], inSight: (state) => [['actions', [detailRecord(state) ?? 'none']]] },
  shows: {
    from: (state) => (state.threadFrom.list === 'lead' ? undefined : 'notes'),
    record: detailRecord,
    nowShowing: (state) => `the detail shows ${selectedNote(state) ?? 'nothing'} now`,
    // Holds on to a "keep-" note that left Notes while Detail was the pane staff worked in.
    keep: (state, shown) =>
      shown.startsWith('keep-') &&
      state.threadFrom.list !== 'lead' &&
      !noteRows(state).some((note) => note.name === shown)
        ? { threadFrom: { list: 'lead', leadId: shown } }
        : undefined,
  },
  commands: [],
};

export const otherPane: PaneDescriptor = {
  id: 'other',
  title: 'Other',
  Component: Nothing,
  reads: () => [],
  seen: { kinds: ['leads'], inSight: () => [['leads', ['from-other']]] },
  commands: [],
};

export const SMALL_PANES = paneSet([notesPane, detailPane, otherPane]);

export const notes = (...names: string[]): Template[] =>
  names.map((name) => ({ name, body: name.endsWith('!') ? 'urgent!' : 'plain' }));
