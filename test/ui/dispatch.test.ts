/**
 * The one root handler, as the inbox wires it (session, store, controller,
 * keymap) and fed by the real input parser: each key of a batch goes to the command of the context the screen
 * is in at that moment (the first active one, by a fixed priority); a key
 * bound to nothing does nothing; a paste is never keys; a command that
 * changes the shop is hidden in a process read-only by choice and refused
 * with its reason under a read-only key; keys read with a question do not
 * answer it.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PANES } from '../../src/panes/registry.js';
import { createSession } from '../../src/session/create-session.js';
import { contextOf } from '../../src/shell/commands/dispatch.js';
import { createInboxUi } from '../../src/shell/inbox-ui.js';
import { type AppState, createAppStore, STATE_FIELDS } from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';
import { insertableText } from '../../src/text/text-filter.js';
import type { KeyContext } from '../../src/ui-kit/commands/command.js';
import { keyName } from '../../src/ui-kit/input/key-event.js';
import { parseAll } from '../../src/ui-kit/input/parse-input.js';
import { startSim } from '../support/sim.js';

/**
 * The inbox's shell as the terminal runs it (session, store, controller, keymap, dispatcher), against the
 * simulator; the session is not started, so only keys can change anything, and any request they made would
 * be in the simulator's log.
 */
async function shell(options: { readOnly?: boolean } = {}) {
  const s = await startSim();
  const session = createSession({
    baseUrl: s.baseUrl,
    apiKey: s.sim.tokens.write,
    ...options,
    now: () => 1_000,
  });
  let quits = 0;
  const ui = createInboxUi(session, { quit: () => (quits += 1), now: () => 1_000, mouse: false });
  running.push(() => {
    ui.dispose();
    session.close();
  });
  let batch = 0;
  return {
    store: session.store,
    keymap: ui.keymap,
    /** Bytes as the terminal sends them, read in one batch. */
    press: (bytes: string) => {
      batch += 1;
      ui.dispatch({ id: batch, events: parseAll(bytes) });
    },
    get quits() {
      return quits;
    },
    requests: () => s.requests(),
  };
}

const running: Array<() => void> = [];
afterEach(() => {
  for (const stop of running.splice(0)) stop();
});

/** Everything a key could change, field by field (sets and maps as lists). */
const snapshot = (state: AppState) =>
  JSON.parse(
    JSON.stringify(
      Object.fromEntries(Object.keys(STATE_FIELDS).map((field) => [field, state[field as keyof AppState]])),
      (_key, value: unknown) => (value instanceof Set || value instanceof Map ? [...value] : value),
    ),
  );

describe('contextOf: which context decides what a key does', () => {
  /** The states that take over the whole screen come up less often, so that the ones under them meet too. */
  const rarely = fc.oneof(
    { weight: 3, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  );
  const flags = fc.record({
    quitQuestion: rarely,
    fatal: rarely,
    prompt: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      fc.constantFrom('approve', 'send', 'send with a word', 'send being checked'),
    ),
    wallboard: rarely,
    helpOpen: fc.boolean(),
    logOpen: fc.boolean(),
    palette: fc.boolean(),
    templatePicker: fc.boolean(),
    composer: fc.boolean(),
    composerWaiting: fc.boolean(),
    searching: fc.boolean(),
    focus: fc.constantFrom(...PANES.map((pane) => pane.id)),
  });

  it('the first of: a quit question, the key refused screen, a typed confirmation, a question, the wallboard, help, log, palette, templates, composer, search, the pane', () => {
    fc.assert(
      fc.property(flags, (drawn) => {
        const target = { contactId: 'c1', name: 'Ray', phone: '+15035550100' };
        const prompt = drawn.quitQuestion
          ? { kind: 'confirm-quit' as const, unsent: 1, typed: [target], sending: [] }
          : drawn.prompt === 'approve'
            ? { kind: 'confirm-approve' as const, actionId: 'a1', label: 'x', facts: [], scroll: 0 }
            : drawn.prompt === undefined
              ? undefined
              : {
                  kind: 'confirm-send' as const,
                  target,
                  body: 'hi',
                  ...(drawn.prompt !== 'send' ? { word: 'send' } : {}),
                  ...(drawn.prompt === 'send being checked' ? { checking: true } : {}),
                };
        const state = {
          ...createAppStore().getState(),
          ...(prompt ? { prompt } : {}),
          ...(drawn.fatal ? { fatal: { kind: 'unauthorized' as const, message: 'refused' } } : {}),
          view: drawn.wallboard ? ('wallboard' as const) : ('inbox' as const),
          helpOpen: drawn.helpOpen,
          logOpen: drawn.logOpen,
          ...(drawn.palette ? { palette: { query: lineOf(''), selected: 0 } } : {}),
          ...(drawn.templatePicker ? { templatePicker: { query: lineOf(''), selected: 0 } } : {}),
          ...(drawn.composer ? { composer: target } : {}),
          ...(drawn.composerWaiting
            ? { composerWaiting: { leadId: 'l1', name: 'Ray', phone: '+15035550100' } }
            : {}),
          searching: drawn.searching,
          focus: drawn.focus,
        } as AppState;
        const expected: KeyContext = drawn.quitQuestion
          ? 'prompt'
          : drawn.fatal
            ? 'fatal'
            : drawn.prompt === 'send with a word'
              ? 'confirm'
              : drawn.prompt !== undefined
                ? 'prompt'
                : drawn.wallboard
                  ? 'wallboard'
                  : drawn.helpOpen
                    ? 'help'
                    : drawn.logOpen
                      ? 'log'
                      : drawn.palette
                        ? 'palette'
                        : drawn.templatePicker && drawn.composer
                          ? 'templates'
                          : drawn.composer || drawn.composerWaiting
                            ? 'composer'
                            : drawn.searching
                              ? 'search'
                              : `pane:${drawn.focus}`;
        expect(contextOf(state)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the dispatcher', () => {
  it('reads each key of a batch in the context the screen is in at that moment', async () => {
    const s = await shell();
    // "?" opens the help; the "j" read with it scrolls the help, it does not move the inbox's selection.
    s.press('?j');
    expect(s.store.getState().helpOpen).toBe(true);
    expect(s.store.getState().helpScroll).toBe(1);
    expect(s.store.getState().selection.inbox).toBeUndefined();
    // q closes it; the "4" read with it is the pane key again.
    s.press('q4');
    expect(s.store.getState().helpOpen).toBe(false);
    expect(s.store.getState().focus).toBe('actions');
  });

  it('does nothing at all for a key bound to nothing where it is pressed', async () => {
    const s = await shell();
    fc.assert(
      fc.property(
        fc.constantFrom(...PANES.map((pane) => pane.id)),
        fc.oneof(
          fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
          fc.constantFrom('é', 'ß', '👍', 'ж', '\u001B[24~', '\u0002'),
        ),
        (pane, bytes) => {
          s.store.setState({
            focus: pane,
            helpOpen: false,
            logOpen: false,
            palette: undefined,
            notice: undefined,
          });
          const [event] = parseAll(bytes);
          fc.pre(event?.kind === 'key');
          const name = event.kind === 'key' ? keyName(event) : '';
          fc.pre(s.keymap.resolve(`pane:${pane}`, name) === undefined);
          const before = snapshot(s.store.getState());
          s.press(bytes);
          expect(snapshot(s.store.getState()), `${JSON.stringify(bytes)} in ${pane}`).toEqual(before);
          expect(s.quits).toBe(0);
        },
      ),
    );
    expect(await s.requests()).toEqual([]);
  });

  it('never reads a paste as keys: in a pane it does nothing, in a search it is the text', async () => {
    const s = await shell();
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((text) => !text.includes('\u001B')),
        (text) => {
          s.store.setState({ focus: 'inbox', searching: false, search: {} });
          const before = snapshot(s.store.getState());
          s.press(`\u001B[200~${text}\u001B[201~`);
          expect(snapshot(s.store.getState())).toEqual(before);
          expect(s.quits).toBe(0);
          s.store.setState({ searching: true });
          s.press(`\u001B[200~${text}\u001B[201~`);
          expect(s.store.getState().search.inbox?.text).toBe(insertableText(text, { multiline: false }));
        },
      ),
    );
  });

  it('hides a command that changes the shop in a process read-only by choice: its key does nothing, says nothing', async () => {
    const s = await shell({ readOnly: true });
    expect(s.store.getState().readOnlyReason).toBe('flag');
    const before = snapshot(s.store.getState());
    s.press('c');
    expect(snapshot(s.store.getState())).toEqual(before);
  });

  it('refuses it under a read-only key, saying why, and runs nothing', async () => {
    const s = await shell();
    s.store.setState({ readOnly: true, readOnlyReason: 'server' });
    s.press('c');
    const state = s.store.getState();
    expect(state.composer ?? state.composerWaiting).toBeUndefined();
    expect(state.notice?.text).toBe(
      "This API key is read-only; turn on write mode in the shop's API settings.",
    );
    expect(await s.requests()).toEqual([]);
  });

  it("says a command's reason when it does not apply, unless it is one that stays silent", async () => {
    const s = await shell();
    // Nothing is read yet: no lead to text.
    s.press('c');
    expect(s.store.getState().notice?.text).toBe('No lead is selected.');
    expect(s.store.getState().composer).toBeUndefined();
    s.store.setState({ notice: undefined });
    // esc with no filter to clear says nothing.
    s.press('\u001B');
    expect(s.store.getState().notice).toBeUndefined();
  });

  it('does not take keys read with a question as its answer, nor any key once quitting', async () => {
    const s = await shell();
    // A text is typed for someone: q asks first. The "y" read with that q is no answer.
    s.store.setState({ composed: { c1: lineOf('on my way') } });
    s.press('qy');
    // c1 is no contact the reads know: the question counts the text, naming no one.
    expect(s.store.getState().prompt).toEqual({
      kind: 'confirm-quit',
      unsent: 1,
      typed: [undefined],
      sending: [],
    });
    expect(s.quits).toBe(0);
    s.press('y');
    expect(s.store.getState().prompt).toBeUndefined();
    expect(s.quits).toBe(1);
    s.store.setState({ quitting: true });
    const before = snapshot(s.store.getState());
    s.press('?4');
    expect(snapshot(s.store.getState())).toEqual(before);
  });
});
