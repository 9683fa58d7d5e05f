/**
 * Read-only mode: started with --read-only (nothing but GET may leave the
 * process, write keys are off and not offered), and a read-only key used
 * without the flag (the service's 403 read_only switches the inbox to
 * read-only and says how to turn on write mode).
 */
import { describe, expect, it } from 'vitest';
import { PANES as PANE_LIST, paneById } from '../../src/panes/registry.js';
import type { PaneId } from '../../src/store/app-store.js';
import { openLead, threadLeadId } from '../../src/store/selectors.js';
import type { Command } from '../../src/ui-kit/commands/command.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  composedText,
  confirmTheSend,
  draftWithItsAction,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  SEND_QUESTION,
  selectLeadByPhone,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';
import { helpEntries } from './nav-pane-helpers.js';

const WRITE_KEYS = ['c', 'd', 'a', 'y', KEYS.enter, 'y', KEYS.enter];

const PANES = PANE_LIST.map((pane) => pane.id);

const writeCommands = (pane: PaneId): Command[] =>
  paneById(pane).commands.filter((command) => command.writes);

/** How the status bar shows a command's hint. */
const hintText = (command: Command) => `${command.keys[0]} ${String(command.hint)}`;

/** The status bar's line of key hints: the last line with text. */
const hintLine = (frame: string) =>
  frame
    .split('\n')
    .filter((line) => line.trim())
    .at(-1) ?? '';

async function focusPane(tui: TestTui, pane: PaneId) {
  await tui.press(String(PANES.indexOf(pane) + 1));
  await tui.waitFor((_frame, state) => state.focus === pane);
}

describe('--read-only', () => {
  it('no write key in any pane sends anything; the header says [READ-ONLY]', async () => {
    const tui = await startTui({ columns: 100, rows: 30, readOnly: true });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    await tui.waitFor('[READ-ONLY]');

    for (const pane of PANES) {
      await focusPane(tui, pane);
      for (const key of WRITE_KEYS) {
        await tui.press(key);
        expect(tui.state().composer, `composer after ${JSON.stringify(key)} in ${pane}`).toBeUndefined();
        expect(tui.state().prompt, `prompt after ${JSON.stringify(key)} in ${pane}`).toBeUndefined();
      }
    }
    // The thread of a lead (enter in the inbox opened one above), and the other action statuses.
    await focusPane(tui, 'inbox');
    await tui.press(KEYS.enter);
    await tui.waitFor((_frame, state) => state.focus === 'thread' && threadLeadId(state) !== undefined);
    await tui.waitFor((_frame, state) => openLead(state) !== undefined);
    await tui.press(...WRITE_KEYS);
    await focusPane(tui, 'actions');
    for (const _status of ['published', 'declined', 'failed', 'pending_approval']) {
      await tui.press('s', ...WRITE_KEYS);
    }
    await focusPane(tui, 'reviews');
    await tui.press('j', ...WRITE_KEYS, 'j', ...WRITE_KEYS);
    // A paste cannot reach a composer that never opens.
    await tui.press(`${KEYS.pasteStart}hello\r${KEYS.pasteEnd}`, KEYS.enter, 'y');

    expect(tui.state().composer).toBeUndefined();
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.state().outbox).toEqual([]);
    expect(tui.state().drafts).toEqual({});
    expect(tui.state().decisions).toEqual({});
    expect(wire.writes).toEqual([]);
    expect(await tui.writes()).toEqual([]);
    expect(tui.frame()).toContain('[READ-ONLY]');
    expect(tui.quitRequested).toBe(false);
  });

  it('offers no write key: neither in the status bar nor in the help', async () => {
    const tui = await startTui({ columns: 160, rows: 30, readOnly: true });
    await waitStartup(tui);
    for (const pane of PANES) {
      await focusPane(tui, pane);
      const hints = hintLine(await tui.waitFor((frame) => frame.includes('?')));
      for (const command of writeCommands(pane)) expect(hints, pane).not.toContain(hintText(command));
      await tui.press('?');
      const help = await tui.waitFor('(read-only: keys that change the shop are off)');
      for (const command of writeCommands(pane)) expect(help, pane).not.toContain(command.label);
      await tui.press('?');
      await tui.waitFor((_frame, state) => !state.helpOpen);
    }
  });

  it('(in write mode the same hints are there, so their absence above means something)', async () => {
    const tui = await startTui({ columns: 160, rows: 30 });
    await waitStartup(tui);
    expect(tui.frame()).not.toContain('[READ-ONLY]');
    // A thread open, so that texting from it applies.
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => openLead(state) !== undefined);
    for (const pane of PANES) {
      await focusPane(tui, pane);
      // a in Reviews applies to a reply drafted here: draft one on a review with none awaiting approval.
      if (pane === 'reviews') await draftWithItsAction(tui);
      for (const command of writeCommands(pane)) {
        await tui.waitFor((f) => hintLine(f).includes(hintText(command)));
      }
      await tui.press('?');
      const help = await tui.waitFor(/Keys — /);
      for (const command of writeCommands(pane))
        expect(helpEntries(help).join('\n'), pane).toContain(command.label);
      await tui.press('?');
      await tui.waitFor((_frame, state) => !state.helpOpen);
    }
  });
});

describe('a read-only key without --read-only', () => {
  it('a refused send switches to read-only, says how to turn on write mode, and write keys stop working', async () => {
    const tui = await startTui({ columns: 130, rows: 30, token: 'read' });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    expect(tui.frame()).not.toContain('[READ-ONLY]');
    const { contact } = inboxLeadWhere(tui, () => true);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Are you home today?');
    await tui.press(KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);

    const frame = await tui.waitFor((f, state) => state.readOnly && f.includes('[READ-ONLY]'));
    expect(tui.state().readOnlyReason).toBe('server');
    await tui.waitFor("turn on write mode in the shop's API settings");
    expect(frame).not.toContain('y/n');
    expect(tui.state().outbox[0]).toMatchObject({ state: 'failed' });
    // Nothing typed is lost: the text waits in the composer's store for when writes are on.
    expect(composedText(tui, contact.id)).toBe('Are you home today?');
    expect(wire.writes).toHaveLength(1);
    expect(await tui.writes()).toEqual([
      { method: 'POST', path: `/v1/contacts/${contact.id}/messages`, status: 403 },
    ]);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before);

    // From now on, write keys do nothing anywhere.
    for (const pane of PANES) {
      await focusPane(tui, pane);
      await tui.press(...WRITE_KEYS);
      expect(tui.state().composer, pane).toBeUndefined();
      expect(tui.state().prompt, pane).toBeUndefined();
    }
    await focusPane(tui, 'inbox');
    await tui.press(KEYS.enter, ...WRITE_KEYS);
    expect(tui.state().composer).toBeUndefined();
    expect(wire.writes).toHaveLength(1);
    expect(await tui.writes()).toHaveLength(1);
    // The hint for c is gone with the key.
    await focusPane(tui, 'contacts');
    const hints = hintLine(await tui.waitFor('Contacts'));
    for (const command of writeCommands('contacts')) expect(hints).not.toContain(hintText(command));
  });

  it.each([
    { name: 'a draft (d)', pane: 'reviews' as const, keys: ['d'] },
    { name: 'an approval (a, y)', pane: 'actions' as const, keys: ['a', 'y'] },
  ])('$name refused with read_only switches to read-only too', async ({ pane, keys }) => {
    const tui = await startTui({ columns: 130, rows: 30, token: 'read' });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    await focusPane(tui, pane);
    await tui.waitFor((_frame, state) =>
      pane === 'reviews' ? Boolean(state.reviews.data) : Boolean(state.actions.pending_approval.data),
    );
    await tui.press(...keys);
    await tui.waitFor((frame, state) => state.readOnly && frame.includes('[READ-ONLY]'));
    await tui.waitFor('turn on write mode');
    expect((await tui.writes()).map((write) => write.status)).toEqual([403]);
    await tui.press(...keys, ...WRITE_KEYS);
    expect(wire.writes).toHaveLength(1);
    expect(await tui.writes()).toHaveLength(1);
  });
});
