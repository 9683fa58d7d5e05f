/**
 * The question that approves an action, at 80×24 against the simulator: it
 * shows everything the inbox knows (kind, id, when generated; for a reply
 * drafted here the review and the reply), wrapped and scrolled, never cut; it
 * says plainly when it cannot tell what an action publishes; a no is said and
 * logged, and so is every answer of the service.
 */
import { describe, expect, it } from 'vitest';
import { selectedAction, selectedReview } from '../../src/store/selectors.js';
import { dateTime } from '../../src/ui-kit/format.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import { draftWithItsAction, recordWire, waitStartup } from '../support/write-flows.js';
import { plain } from './nav-pane-helpers.js';

const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The rows of the question's box on screen: label and text, box and padding removed. */
function boxRows(frame: string): string[] {
  return plain(frame)
    .split('\n')
    .filter((line) => line.startsWith('║') && !line.includes('Approve '))
    .map((line) => line.slice(2, -2).trimEnd());
}

/** Every row of the question, read by scrolling it from the top to the end with j. */
async function readWholeQuestion(tui: TestTui): Promise<{ rows: string[]; scrolled: number }> {
  const rows = new Map<number, string>();
  for (let scroll = 0; scroll < 200; scroll++) {
    const frame = plain(tui.frame());
    const shown = boxRows(frame).filter((row) => !/^(▲ \d+|▼ \d+|j\/k scroll)/.test(row.trim()));
    const first = Number(/▲ (\d+)/.exec(frame)?.[1] ?? 0);
    shown.forEach((row, index) => {
      rows.set(first + index, row);
    });
    if (!/▼ \d+/.test(frame))
      return {
        rows: [...rows.keys()].sort((a, b) => a - b).map((at) => rows.get(at) ?? ''),
        scrolled: scroll,
      };
    await tui.press('j');
  }
  throw new Error('the question never reached its end');
}

describe('the approval question', () => {
  it('a reply drafted here: the review and the reply whole at 80×24, scrolled with j; y approves and logs the answer', async () => {
    const s = await startSim();
    // Long reviews: at 80×24 the question cannot hold one without scrolling.
    for (const review of s.sim.shops.main.reviews)
      review.text = Array.from({ length: 60 }, (_, index) => `word${index}-${review.id.slice(-4)}`).join(' ');
    const tui = await startTui({ sim: s, columns: 80, rows: 24 });
    await waitStartup(tui);
    await tui.press('3');
    await draftWithItsAction(tui);
    const review = selectedReview(tui.state());
    if (!review) throw new Error('no review');
    const drafted = Object.values(tui.state().draftedReplies).find((item) => item.reviewId === review.id);
    if (!drafted) throw new Error('the draft is not bound');

    await tui.press('a');
    const asked = plain(await tui.waitFor('? y/n'));
    expect(asked).toContain(`Approve review reply ${drafted.actionId}? y/n`);
    expect(asked).toMatch(/▼ \d+ · j\/k scroll/);
    expect(asked).not.toMatch(/▲ \d+/);
    // The frame is the terminal's height less one row; nothing runs past 80 columns.
    for (const line of plain(asked).split('\n')) expect([...line].length).toBeLessThanOrEqual(80);

    const { rows, scrolled } = await readWholeQuestion(tui);
    expect(scrolled).toBeGreaterThan(0);
    const question = rows.join('\n');
    expect(question).toContain(`Kind       review reply (review_reply)`);
    expect(question).toContain(`Action     ${drafted.actionId}`);
    const action = tui
      .state()
      .actions.pending_approval.data?.items.find((item) => item.id === drafted.actionId);
    if (action) expect(question).toContain(`Generated  ${dateTime(action.generated_at)}`);
    expect(question).toContain(`Review     ${review.reviewer_name}`);
    expect(question).toContain('★');
    // Wrapped, never cut: every word of the review and of the reply, in order.
    const text = words(rows.map((row) => row.slice(11)).join(' '));
    expect(text).toContain(words(review.review_text));
    expect(text).toContain(words(drafted.reply));
    // The end is in sight; j goes no further, and k scrolls back up at once.
    expect(plain(tui.frame())).toMatch(/▲ \d+ · j\/k scroll/);
    await tui.press('j', 'j', 'j');
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-approve', scroll: scrolled });
    await tui.press('k');
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-approve', scroll: scrolled - 1 });

    const wire = recordWire(tui.s.sim);
    await tui.press('y');
    const label = `review reply ${drafted.actionId}`;
    await tui.waitFor(`Approved: ${label}; the shop answered published.`);
    expect(tui.state().log.at(-1)?.text).toBe(`Approved: ${label}; the shop answered published.`);
    expect(wire.writes.map((write) => write.path)).toEqual([`/actions/${drafted.actionId}/decide`]);
  });

  it('an action this inbox did not draft: it says plainly what it cannot tell; n and esc leave "not approved" in the status line and the log', async () => {
    const tui = await startTui({ columns: 80, rows: 24 });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    await tui.press('4');
    await tui.waitFor('Actions — awaiting approval');
    const rows = tui.state().actions.pending_approval.data?.items ?? [];
    const replyAt = rows.findIndex((item) => String(item.kind) === 'review_reply');
    const otherAt = rows.findIndex((item) => String(item.kind) !== 'review_reply');
    expect(replyAt).toBeGreaterThanOrEqual(0);
    expect(otherAt).toBeGreaterThanOrEqual(0);

    await tui.press('g', ...Array.from({ length: replyAt }, () => 'j'), 'a');
    const action = selectedAction(tui.state());
    if (!action) throw new Error('no action');
    const { rows: reply } = await readWholeQuestion(tui);
    const replyText = words(reply.join(' '));
    expect(replyText).toContain(`Action ${action.id}`);
    expect(replyText).toContain(`Generated ${dateTime(action.generated_at)}`);
    expect(replyText).toContain('Which review, and what the reply says, cannot be shown');
    expect(replyText).toContain('this inbox did not ask for this draft');
    await tui.press('n');
    const label = `review reply ${action.id}`;
    await tui.waitFor(`Not approved: ${label} (nothing was sent to the shop).`);
    expect(tui.state().log.at(-1)?.text).toBe(`Not approved: ${label} (nothing was sent to the shop).`);

    await tui.press('g', ...Array.from({ length: otherAt }, () => 'j'), 'a');
    const other = selectedAction(tui.state());
    if (!other) throw new Error('no action');
    await tui.waitFor('? y/n');
    expect(words(boxRows(tui.frame()).join(' '))).toContain('what it does is not shown');
    // All of it fits: nothing to scroll, and no hint says there is.
    await tui.waitFor(
      (_frame, state) => state.prompt?.kind === 'confirm-approve' && state.prompt.scrollMax === 0,
    );
    expect(plain(tui.frame())).not.toMatch(/scroll/);
    await tui.press('j');
    expect(tui.state().prompt).toMatchObject({ kind: 'confirm-approve', scroll: 0 });
    await tui.press(KEYS.escape);
    const otherLabel = `${String(other.kind).replaceAll('_', ' ')} ${other.id}`;
    await tui.waitFor(`Not approved: ${otherLabel}`);
    expect(tui.state().log.at(-1)?.text).toBe(`Not approved: ${otherLabel} (nothing was sent to the shop).`);
    expect(wire.writes).toEqual([]);
  });

  it("a refusal is logged with the action and the service's answer", async () => {
    const tui = await startTui({ columns: 80, rows: 24 });
    await waitStartup(tui);
    await tui.press('4');
    await tui.waitFor('Actions — awaiting approval');
    const action = selectedAction(tui.state());
    if (!action) throw new Error('no action');
    // Another terminal approved it meanwhile: the shop refuses a second approval of a published action.
    tui.s.sim.shops.main.actions.splice(
      tui.s.sim.shops.main.actions.findIndex((item) => item.id === action.id),
      1,
    );
    await tui.press('a');
    await tui.waitFor('? y/n');
    await tui.press('y');
    const label = `${String(action.kind).replaceAll('_', ' ')} ${action.id}`;
    await tui.waitFor(`Not approved: ${label}`);
    expect(tui.state().log.at(-1)?.text).toMatch(
      new RegExp(`^Not approved: ${label}; not found: .* \\(the shop answered HTTP 404 not_found\\)$`),
    );
  });
});
