/**
 * From a draft to its approval, never blind: after d the draft shows the
 * pending action that holds it; a in Reviews asks the same y/n question as in
 * Actions, naming exactly that action, and approves it; Actions shows the
 * reply text of every review_reply action whose draft this inbox saw.
 */
import { describe, expect, it } from 'vitest';
import { selectedReview } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import { startTui } from '../support/tui.js';
import { recordWire, startupLoaded, unrepliedReviewIndex } from '../support/write-flows.js';
import { firstLoad, plain, QUIET } from './nav-pane-helpers.js';

describe('a draft leads to its approval', () => {
  it('d binds the draft to its action; a approves exactly that action from Reviews; Actions shows its text', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    const wire = recordWire(tui.s.sim);
    await firstLoad(tui, startupLoaded);
    const shop = tui.s.sim.shops.main;
    await tui.press('3');
    await tui.waitFor(/Reviews \(\d+/);
    // An unreplied review with no reply awaiting approval yet.
    const index = unrepliedReviewIndex(tui);
    expect(index).toBeGreaterThanOrEqual(0);
    await tui.press('g', ...Array.from({ length: index }, () => 'j'));
    const review = selectedReview(tui.state());
    if (!review) throw new Error('no review');

    // Before the draft: a says why it cannot approve, and nothing is written.
    await tui.press('a');
    expect(tui.state().notice?.text).toMatch(/no reply was drafted here/i);
    expect(tui.state().prompt).toBeUndefined();

    // Other actions keep arriving (the agent works too) while the list on screen is not read again.
    tui.s.sim.inject('action');
    await tui.press('d');
    const drafted = plain(await tui.waitFor(/awaits approval as action \S+ · a approves it/));
    const simAction = shop.actions.find(
      (action) =>
        action.status === 'pending_approval' &&
        action.target.type === 'review_reply' &&
        action.target.reviewId === review.id,
    );
    if (!simAction) throw new Error('the draft made no action');
    expect(drafted).toContain(`awaits approval as action ${simAction.id}`);
    expect(tui.state().notice?.text).toContain(`it awaits approval as action ${simAction.id}`);

    // a: the existing question, naming that action and what it publishes.
    await tui.press('a');
    const asking = plain(await tui.waitFor('? y/n'));
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-approve', actionId: simAction.id });
    expect(asking).toContain(`Approve review reply ${simAction.id}? y/n`);
    expect(asking).toContain('Publishes  the reply drafted here');
    await tui.press('y');
    await tui.waitFor((_f, state) => state.decisions[simAction.id]?.state === 'done');
    expect(wire.writes.filter((write) => write.path.endsWith('/decide'))).toEqual([
      {
        method: 'POST',
        path: `/actions/${simAction.id}/decide`,
        idempotencyKey: null,
        body: { status: 'approved' },
      },
    ]);
    expect(shop.reviews.find((candidate) => candidate.id === review.id)?.repliedAt).not.toBeNull();
    await tui.waitFor(`(approved here: action ${simAction.id})`);

    // Actions, published: the action shows the reply text drafted here.
    await tui.press('4', 's');
    await tui.waitFor(
      (_f, state) =>
        state.actions.published.data?.items.some((action) => action.id === simAction.id) === true,
    );
    const published = tui.state().actions.published.data?.items ?? [];
    const at = published.findIndex((action) => action.id === simAction.id);
    expect(at).toBeGreaterThanOrEqual(0);
    await tui.press('g', ...Array.from({ length: at }, () => 'j'));
    const frame = plain(await tui.waitFor(`Reply drafted here to ${oneLine(review.reviewer_name)}`));
    const reply = tui.state().drafts[review.id]?.draft?.reply ?? '';
    expect(frame.replace(/[│\s]+/g, ' ')).toContain(oneLine(reply).slice(0, 40));
  });
});
