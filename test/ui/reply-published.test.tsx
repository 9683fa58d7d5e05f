/**
 * A reply drafted here and approved is a reply, not a draft: the review is
 * read again at once (the poller would not read it for minutes here), shows
 * replied, and the "DRAFT" label goes. A reply published elsewhere takes the
 * label away too, saying the draft made here may not be it.
 */
import { describe, expect, it } from 'vitest';
import { selectedReview } from '../../src/store/selectors.js';
import { day } from '../../src/ui-kit/format.js';
import { startTui } from '../support/tui.js';
import { draftWithItsAction, startupLoaded } from '../support/write-flows.js';
import { firstLoad, plain, QUIET } from './nav-pane-helpers.js';

async function draftedReview() {
  const tui = await startTui({ columns: 100, rows: 30, intervals: QUIET });
  await firstLoad(tui, startupLoaded);
  await tui.press('3');
  await draftWithItsAction(tui);
  const review = selectedReview(tui.state());
  if (!review) throw new Error('no review');
  expect(plain(tui.frame())).toContain('DRAFT — not published');
  return { tui, review };
}

describe('after a reply is published', () => {
  it('approved here: the review is read again, shows replied, and the DRAFT label goes', async () => {
    const { tui, review } = await draftedReview();
    const readsBefore = (await tui.s.requests()).filter((request) => request.path === '/v1/reviews').length;
    await tui.press('a');
    await tui.waitFor('? y/n');
    await tui.press('y');
    await new Promise((r) => setTimeout(r, 800));
    console.log(
      (await tui.s.requests())
        .map((r) => `${r.method} ${r.path}?${r.query}`)
        .slice(-12)
        .join('\n'),
    );
    await tui.waitFor(
      (_frame, state) => state.reviews.data?.items.find((item) => item.id === review.id)?.replied_at != null,
    );
    const replied = tui.state().reviews.data?.items.find((item) => item.id === review.id)?.replied_at;
    const shown = plain(await tui.waitFor(`REPLY — published ${day(replied)}`));
    expect(shown).toContain(`replied ${day(replied)}`);
    expect(shown).not.toContain('DRAFT');
    expect(shown).not.toContain('not replied');
    // Read again because of the approval, not by the poller's turn (600 s here).
    const reads = (await tui.s.requests()).filter((request) => request.path === '/v1/reviews').length;
    expect(reads).toBeGreaterThan(readsBefore);
  });

  it('published elsewhere: once the review is read with its reply, the DRAFT label goes', async () => {
    const { tui, review } = await draftedReview();
    // Another terminal approves the action holding the reply.
    const drafted = Object.values(tui.state().draftedReplies).find((item) => item.reviewId === review.id);
    if (!drafted) throw new Error('not bound');
    await tui.s.client().decideAction(drafted.actionId, 'approved');
    await tui.press('r');
    const shown = plain(await tui.waitFor('A reply was published'));
    expect(shown).toContain('the draft made here was not approved here and may not be it');
    expect(shown).not.toContain('DRAFT');
  });
});
