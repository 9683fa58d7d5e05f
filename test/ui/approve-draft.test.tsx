/**
 * Approving an agent action (Actions pane, a, then y/n) and drafting a reply
 * to a review (Reviews pane, d), through the keyboard against the simulator:
 * what staff see, and exactly which writes reach the service.
 */
import { describe, expect, it } from 'vitest';
import { selectedAction, selectedReview } from '../../src/store/selectors.js';
import { KEYS, startTui } from '../support/tui.js';
import { faultOnNext, recordWire, typeBackToBack, waitStartup, writesTo } from '../support/write-flows.js';

const DECIDE_PATH = /^\/v1\/actions\/[^/]+\/decide$/;
const DRAFT_PATH = /^\/v1\/reviews\/[^/]+\/draft$/;

async function start() {
  const tui = await startTui({ columns: 100, rows: 30 });
  const wire = recordWire(tui.s.sim);
  await waitStartup(tui);
  return { tui, wire };
}

async function openPendingActions(tui: Awaited<ReturnType<typeof start>>['tui']) {
  await tui.press('4');
  await tui.waitFor('Actions — awaiting approval');
  const action = selectedAction(tui.state());
  if (!action) throw new Error('no pending action');
  expect(action.status).toBe('pending_approval');
  return action;
}

describe('approving an action', () => {
  it('a asks y/n; n sends nothing; y sends one decide with status approved and shows published', async () => {
    const { tui, wire } = await start();
    const action = await openPendingActions(tui);

    await tui.press('a');
    const asking = await tui.waitFor('? y/n');
    // The question names the record it is bound to; its box says what is known of it.
    expect(asking).toContain(`Approve ${String(action.kind).replaceAll('_', ' ')} ${action.id}? y/n`);
    expect(asking).toContain(`Action     ${action.id}`);
    await tui.press('n');
    await tui.waitFor((frame, state) => state.prompt === undefined && !frame.includes('y/n'));
    expect(wire.writes).toEqual([]);
    expect(await tui.writes()).toEqual([]);
    expect(tui.s.sim.shops.main.actions.find((a) => a.id === action.id)?.status).toBe('pending_approval');

    // Enter never answers the prompt; esc answers no.
    await tui.press('a');
    await tui.waitFor('y/n');
    await tui.press(KEYS.enter, KEYS.escape);
    await tui.waitFor((frame) => !frame.includes('y/n'));
    expect(wire.writes).toEqual([]);

    await tui.press('a');
    await tui.waitFor('y/n');
    await tui.press('y');
    await tui.waitFor(
      `Approved: ${String(action.kind).replaceAll('_', ' ')} ${action.id}; the shop answered published.`,
    );

    expect(wire.writes).toEqual([
      {
        method: 'POST',
        path: `/actions/${action.id}/decide`,
        idempotencyKey: null,
        body: { status: 'approved' },
      },
    ]);
    expect(await writesTo(tui, DECIDE_PATH)).toEqual([
      { method: 'POST', path: `/v1/actions/${action.id}/decide`, status: 200 },
    ]);
    expect(tui.state().decisions[action.id]).toMatchObject({
      state: 'done',
      result: { status: 'published' },
    });
    expect(tui.s.sim.shops.main.actions.find((a) => a.id === action.id)?.status).toBe('published');
    // The pending list is read again: the approved action leaves it.
    await tui.waitFor((_frame, state) =>
      Boolean(state.actions.pending_approval.data?.items.every((item) => item.id !== action.id)),
    );
  });

  it('y pressed twice, or a and y again while the list still shows it pending, approve once', async () => {
    const { tui, wire } = await start();
    const action = await openPendingActions(tui);
    // The pending list's refresh after the approval hangs: the row still says pending.
    faultOnNext(
      tui.s.sim,
      (request) => request.path === '/v1/actions' && request.query.includes('status=pending_approval'),
      { kind: 'hang' },
    );
    await tui.press('a');
    await tui.waitFor('y/n');
    await typeBackToBack(tui, ['y', 'y', 'a', 'y']);
    await tui.waitFor('approved → published');
    expect(selectedAction(tui.state())?.id).toBe(action.id);
    expect(selectedAction(tui.state())?.status).toBe('pending_approval');

    await tui.press('a');
    expect(tui.state().prompt).toBeUndefined();
    await tui.press('y', 'a', 'y');
    expect(tui.state().prompt).toBeUndefined();
    expect(wire.writes).toHaveLength(1);
    expect(await writesTo(tui, DECIDE_PATH)).toHaveLength(1);
  });

  it('a on an action that is not pending does nothing', async () => {
    const { tui, wire } = await start();
    await openPendingActions(tui);
    await tui.press('s');
    await tui.waitFor(
      (frame, state) => frame.includes('Actions — published') && state.actions.published.data !== undefined,
    );
    const published = selectedAction(tui.state());
    expect(published?.status).toBe('published');

    await tui.press('a');
    expect(tui.state().prompt).toBeUndefined();
    await tui.press('y', 'j', 'a', 'y');
    expect(tui.state().prompt).toBeUndefined();
    expect(tui.frame()).not.toContain('y/n');
    expect(wire.writes).toEqual([]);
    expect(await tui.writes()).toEqual([]);
  });
});

describe('drafting a reply to a review', () => {
  it('d makes one draft request and shows the draft as not published', async () => {
    const { tui, wire } = await start();
    await tui.press('3');
    await tui.waitFor('Reviews (');
    const review = selectedReview(tui.state());
    if (!review) throw new Error('no review');
    const simReview = tui.s.sim.shops.main.reviews.find((candidate) => candidate.id === review.id);
    const repliedBefore = simReview?.repliedAt;

    // Twice quickly: the second d finds the draft already being made.
    await typeBackToBack(tui, ['d', 'd']);
    await tui.waitFor('DRAFT — not published');
    const frame = await tui.waitFor('Draft ready: it is not published');
    const draft = tui.state().drafts[review.id];
    expect(draft).toMatchObject({ state: 'done', draft: { review_id: review.id } });
    expect(frame).toContain((draft?.draft?.reply ?? '').slice(0, 20));

    expect(wire.writes).toEqual([
      { method: 'POST', path: `/reviews/${review.id}/draft`, idempotencyKey: null, body: undefined },
    ]);
    expect(await writesTo(tui, DRAFT_PATH)).toEqual([
      { method: 'POST', path: `/v1/reviews/${review.id}/draft`, status: 200 },
    ]);
    expect(await tui.writes()).toHaveLength(1);
    // A draft publishes nothing: the review is as unreplied as before.
    expect(simReview?.repliedAt).toBe(repliedBefore);
  });
});
