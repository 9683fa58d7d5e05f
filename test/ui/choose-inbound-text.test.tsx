/**
 * Any of the Inbox's latest inbound texts opens from the keys: I highlights
 * the newest, j/k choose, enter opens its lead's thread at that very text
 * (not the thread's newest), esc goes back to the leads. The choice is the
 * text, not a place: texts arriving meanwhile move it down the block, and
 * one that left the block is said to have left, never swapped for another.
 */
import { describe, expect, it } from 'vitest';
import type { InboundPreview } from '../../src/contract/resources.js';
import type { AppState } from '../../src/store/app-store.js';
import { previewSender, previewsShown } from '../../src/store/inbound-match.js';
import { inboundId } from '../../src/store/seen.js';
import { threadLeadId, threadList } from '../../src/store/selectors.js';
import { startSim, type TestSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, helpHasKey, helpLines, plain, QUIET, selectedRow } from './nav-pane-helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const shownBodies = (state: AppState) => previewsShown(state).map((preview) => preview.body_preview);

/** The shown latest inbound text whose body starts so. */
function previewOf(state: AppState, body: string): InboundPreview {
  const preview = previewsShown(state).find((candidate) => body.startsWith(candidate.body_preview));
  if (!preview) throw new Error(`"${body}" is not among the latest inbound texts shown`);
  return preview;
}

/** Waits until the latest inbound texts shown are these (newest first), each matched to its lead. */
async function untilShownAndMatched(tui: TestTui, bodies: string[]) {
  await tui.waitFor(
    (_frame, state) =>
      shownBodies(state).length === bodies.length &&
      // Previews come cut by the service: each is the start of its text.
      shownBodies(state).every((preview, index) => bodies[index]?.startsWith(preview)) &&
      previewsShown(state).every((preview) => previewSender(state, preview).kind === 'matched'),
    10_000,
  );
}

/** The body of the text selected in the thread on screen. */
function selectedTextOfThread(state: AppState): string | undefined {
  const entry = threadList(state).rows[selectedRow(state, 'thread')];
  return entry?.kind === 'message' ? entry.message.body : undefined;
}

/** The shop receives these texts, in this order (a few ms apart, so that their times are in order too). */
async function receiveInTurn(s: TestSim, texts: ReadonlyArray<readonly [{ id: string }, string]>) {
  for (const [lead, body] of texts) {
    await sleep(5);
    s.sim.receiveText(lead.id, body);
  }
}

/** An inbox at 120×40 whose Inbox is read every 200 ms and threads paced every 50 ms: texts arrive and match with no key. */
async function liveInbox(s: TestSim): Promise<TestTui> {
  const tui = await startTui({
    sim: s,
    columns: 120,
    rows: 40,
    intervals: { ...QUIET, visibleMs: 200, burstMs: 50 },
  });
  await firstLoad(tui, startupLoaded);
  return tui;
}

describe("choosing among the Inbox's latest inbound texts", () => {
  it('I, j/k and enter open the chosen text in its thread, while new texts arrive between the keys', async () => {
    const s = await startSim();
    // Texts arrive on screen while one is being chosen, no key needed.
    const tui = await liveInbox(s);
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const [a, b, c, d] = [open[3], open[5], open[7], open[9]];
    if (!a || !b || !c || !d) throw new Error('too few open leads');

    const A1 = 'Is 9am tomorrow ok for the boiler?';
    const B1 = 'Can someone come Monday instead?';
    const A2 = 'Also the pressure gauge reads zero';
    await receiveInTurn(s, [
      [a, A1],
      [b, B1],
      [a, A2],
    ]);
    await untilShownAndMatched(tui, [A2, B1, A1]);

    // The oldest of the three: not the newest text of its thread.
    await tui.press('1', 'I');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A2)));
    expect(plain(tui.frame())).toContain('j/k choose · enter opens at that text');
    const leadRowBefore = selectedRow(tui.state(), 'inbox');
    await tui.press('j', 'j', 'j');
    // j and k choose among the texts, not the leads, and stop at the last.
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A1)));
    expect(selectedRow(tui.state(), 'inbox')).toBe(leadRowBefore);
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === a.id);
    expect(selectedTextOfThread(tui.state())).toBe(A1);
    expect(tui.state().inboundPick).toBeUndefined();

    // A text arrives while one is chosen: the choice stays on its text, now lower in the block.
    await tui.press('1', 'I', 'j');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), B1)));
    const C1 = 'Running late? The door code is 4411';
    await sleep(5);
    s.sim.receiveText(c.id, C1);
    await untilShownAndMatched(tui, [C1, A2, B1]);
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), B1)));
    await tui.press('k', 'j');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), B1)));
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === b.id);
    expect(selectedTextOfThread(tui.state())).toBe(B1);

    // One that leaves the block is said to have left; enter opens nothing else in its place.
    await tui.press('1', 'I', 'j', 'j');
    const chosen = previewOf(tui.state(), B1);
    expect(tui.state().inboundPick).toBe(inboundId(chosen));
    const D1 = 'Never mind, fixed it myself';
    await sleep(5);
    s.sim.receiveText(d.id, D1);
    await untilShownAndMatched(tui, [D1, C1, A2]);
    await tui.press(KEYS.enter);
    expect(tui.state().focus).toBe('inbox');
    expect(tui.state().notice?.text).toMatch(/^That text is no longer among the latest/);
    // esc gives the keys back to the list of leads.
    await tui.press(KEYS.escape);
    expect(tui.state().inboundPick).toBeUndefined();
    await tui.waitFor(
      (frame) =>
        plain(frame).includes('Latest inbound texts') && !plain(frame).includes('enter opens at that text'),
    );
    const leadRow = selectedRow(tui.state(), 'inbox');
    await tui.press('j');
    expect(selectedRow(tui.state(), 'inbox')).toBe(leadRow + 1);
  });

  it('while choosing, g and G go to the newest and the oldest, ? lists the keys of the choice, and the panes, refresh and help work', async () => {
    const s = await startSim();
    const tui = await liveInbox(s);
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const [a, b] = [open[2], open[4]];
    if (!a || !b) throw new Error('too few open leads');
    const A1 = 'Is the quote still good?';
    const B1 = 'The side gate is open';
    const A2 = 'Please ring twice';
    await receiveInTurn(s, [
      [a, A1],
      [b, B1],
      [a, A2],
    ]);
    await untilShownAndMatched(tui, [A2, B1, A1]);

    await tui.press('1', 'I', 'G');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A1)));
    await tui.press('g');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A2)));

    await tui.press('?');
    const help = await tui.waitFor('Keys — Inbox, choosing an inbound text');
    expect(helpLines(help).join('\n')).toContain('older / newer inbound text');
    expect(helpLines(help).join('\n')).toContain('newest / oldest inbound text');
    // Every row's words start in one column, a row of many keys included.
    const labelAt = (words: string) =>
      helpLines(help)
        .find((line) => line.includes(words))
        ?.indexOf(words);
    expect(labelAt('a page up / down')).toBe(labelAt('older / newer inbound text'));
    expect(labelAt('go to a pane')).toBe(labelAt('older / newer inbound text'));
    expect(helpHasKey(help, '?')).toBe(true);
    expect(helpHasKey(help, '1 2 3 4 5 6')).toBe(true);
    // The list's own moves are hidden by the choice's: no row offers them.
    expect(helpLines(help).join('\n')).not.toContain('move down / up');
    await tui.press(KEYS.escape);
    await tui.waitFor((frame) => !plain(frame).includes('Keys —'));
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A2)));

    // Another pane, and back: the choice is where it was left.
    await tui.press('3');
    expect(tui.state().focus).toBe('reviews');
    await tui.press('j');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), A2)));
    await tui.press('1', 'j');
    expect(tui.state().inboundPick).toBe(inboundId(previewOf(tui.state(), B1)));
    await tui.press(KEYS.enter);
    await tui.waitFor((_f, state) => state.focus === 'thread' && threadLeadId(state) === b.id);
    expect(selectedTextOfThread(tui.state())).toBe(B1);
  });

  it('enter on a chosen text not matched yet says so of that text, not of the latest', async () => {
    // No paced thread reads: the texts that arrive stay unmatched.
    const s = await startSim();
    const tui = await startTui({ sim: s, columns: 120, rows: 40, intervals: { ...QUIET, visibleMs: 200 } });
    await firstLoad(tui, startupLoaded);
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const [a, b] = [open[6], open[8]];
    if (!a || !b) throw new Error('too few open leads');
    s.sim.receiveText(a.id, 'First of two');
    await sleep(5);
    s.sim.receiveText(b.id, 'Second of two');
    await tui.waitFor((_frame, state) => shownBodies(state)[1]?.startsWith('First of two') === true);
    await tui.press('1', 'I', 'j');
    const chosen = previewOf(tui.state(), 'First of two');
    expect(tui.state().inboundPick).toBe(inboundId(chosen));
    expect(previewSender(tui.state(), chosen).kind).toBe('not-matched-yet');
    await tui.press(KEYS.enter);
    expect(tui.state().notice?.text).toMatch(/^That inbound text is not matched to its lead yet/);
    expect(tui.state().focus).toBe('inbox');
    await tui.press('k', KEYS.enter);
    expect(tui.state().notice?.text).toMatch(/^The latest inbound text is not matched to its lead yet/);
  });
});
