/**
 * The inbox says what is true: after an answer is lost, it asks the service
 * before reporting; an answer of unknown shape to a send is "not confirmed,
 * retrying with the same key", never "not sent"; nothing is "(0)" or "none"
 * before it has been read; the full-screen stop neither promises retries nor
 * quits past a text that is still waiting.
 */
import { describe, expect, it } from 'vitest';
import { selectedAction, selectedReview } from '../../src/store/selectors.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  faultOnNextWrite,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  selectLeadByPhone,
  simConsent,
  waitComposer,
  waitStartup,
  writesTo,
} from '../support/write-flows.js';
import { plain } from './nav-pane-helpers.js';

async function onPendingAction(tui: TestTui) {
  await tui.press('4');
  await tui.waitFor((_frame, state) => (state.actions.pending_approval.data?.items.length ?? 0) > 0);
  const action = selectedAction(tui.state());
  if (!action) throw new Error('no pending action');
  return action;
}

describe('an approval whose answer is lost', () => {
  it('approved before the answer was lost: the lists are read again and it says approved', async () => {
    const tui = await startTui({ columns: 120, rows: 30 });
    await waitStartup(tui);
    const action = await onPendingAction(tui);
    await tui.press('a');
    await tui.waitFor('? y/n');
    faultOnNextWrite(tui.s.sim, { kind: 'drop_response' });
    await tui.press('y');
    await tui.waitFor('; the answer was lost, but the shop now lists the action as published.');
    expect(tui.state().notice?.text).toMatch(new RegExp(`^Approved: .* ${action.id}; the answer was lost`));
    expect(tui.state().decisions[action.id]).toMatchObject({
      state: 'done',
      result: { status: 'published' },
    });
    expect(tui.s.sim.shops.main.actions.find((each) => each.id === action.id)?.status).toBe('published');
    expect(plain(tui.frame())).not.toContain('Not approved');
  });

  it('refused with a 5xx before anything happened: it says not approved, and that it is still pending', async () => {
    const tui = await startTui({ columns: 120, rows: 30 });
    await waitStartup(tui);
    const action = await onPendingAction(tui);
    await tui.press('a');
    await tui.waitFor('? y/n');
    faultOnNextWrite(tui.s.sim, { kind: 'status', status: 503 });
    await tui.press('y');
    await tui.waitFor((_frame, state) =>
      Boolean(state.notice?.text.endsWith('The shop lists it as still awaiting approval.')),
    );
    expect(tui.state().notice?.text).toMatch(/^Not approved: /);
    expect(tui.s.sim.shops.main.actions.find((each) => each.id === action.id)?.status).toBe(
      'pending_approval',
    );
    // It may be approved again.
    await tui.press('a');
    await tui.waitFor('? y/n');
    await tui.press('y');
    await tui.waitFor('; the shop answered published.');
  });
});

describe('a reply draft whose answer is lost', () => {
  it('made before the answer was lost: it says a draft now awaits approval, with its action', async () => {
    const tui = await startTui({ columns: 120, rows: 30 });
    await waitStartup(tui);
    await tui.press('3');
    await tui.waitFor((_frame, state) => state.reviews.data !== undefined);
    // A review with no pending draft: the draft makes a new action.
    const shop = tui.s.sim.shops.main;
    const drafted = new Set(
      shop.actions.flatMap((each) =>
        each.status === 'pending_approval' && each.target.type === 'review_reply'
          ? [each.target.reviewId]
          : [],
      ),
    );
    for (let index = 0; index < 20; index += 1) {
      const review = selectedReview(tui.state());
      if (review && !drafted.has(review.id)) break;
      await tui.press('j');
    }
    const review = selectedReview(tui.state());
    if (!review || drafted.has(review.id)) throw new Error('every review has a pending draft');
    faultOnNextWrite(tui.s.sim, { kind: 'drop_response' });
    await tui.press('d');
    const frame = await tui.waitFor('a reply draft now awaits approval in Actions (act_');
    const made = shop.actions.find(
      (each) =>
        each.target.type === 'review_reply' &&
        each.target.reviewId === review.id &&
        each.status === 'pending_approval',
    );
    expect(plain(frame)).toContain(made?.id ?? 'no action made');
  });

  it('refused with a 5xx: it says no draft, and that none awaits approval', async () => {
    const tui = await startTui({ columns: 120, rows: 30 });
    await waitStartup(tui);
    await tui.press('3');
    await tui.waitFor((_frame, state) => state.reviews.data !== undefined);
    faultOnNextWrite(tui.s.sim, { kind: 'status', status: 502 });
    await tui.press('d');
    await tui.waitFor('The shop lists no new reply draft awaiting approval.');
  });
});

describe('a send answered with a shape the contract does not know', () => {
  it('is "not confirmed, retrying with the same key", then replayed: one text at the simulator', async () => {
    // The retry comes 1.5 s on: long enough for a busy machine to draw the waiting text.
    const tui = await startTui({
      columns: 100,
      rows: 30,
      session: { sendRetry: { baseMs: 1_500, maxMs: 1_500 } },
    });
    const wire = recordWire(tui.s.sim);
    await waitStartup(tui);
    const { contact } = inboxLeadWhere(tui, (each) => simConsent(tui.s.sim, each.phone) === true);
    const before = outboundTo(tui.s.sim, contact.id).length;
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('Parts are in');
    await tui.press(KEYS.enter);
    await tui.waitFor('? y/n');
    faultOnNextWrite(tui.s.sim, { kind: 'wrong_shape' });
    // Every state the text goes through, and what the inbox says meanwhile.
    const states: string[] = [];
    const unsubscribe = tui.session.store.subscribe((state) => {
      const current = state.outbox[0]?.state;
      if (current && states.at(-1) !== current) states.push(current);
    });
    await tui.press('y');
    await tui.waitFor('not confirmed — will retry with the same key');
    expect(plain(tui.frame())).not.toContain('NOT SENT');
    await tui.waitFor((_frame, state) => state.outbox[0]?.state === 'replayed');
    unsubscribe();
    expect(states).not.toContain('failed');
    expect(states).toContain('waiting');
    expect(
      tui
        .state()
        .log.map((notice) => notice.text)
        .join('\n'),
    ).toMatch(/Not confirmed yet for .*Trying again with the same key\./);
    expect(plain(tui.frame())).not.toContain('NOT SENT');
    expect(new Set(wire.writes.map((write) => write.idempotencyKey)).size).toBe(1);
    expect(wire.writes).toHaveLength(2);
    expect(outboundTo(tui.s.sim, contact.id)).toHaveLength(before + 1);
    expect(await writesTo(tui, /\/messages$/)).toHaveLength(2);
  });
});

describe('before the first answer', () => {
  it('says loading, never "(0)" or "none"', async () => {
    const tui = await startTui({ columns: 100, rows: 30, simOptions: { faults: { latencyMs: 1_500 } } });
    await tui.waitFor('loading');
    const frame = plain(tui.frame());
    expect(frame).toContain('Inbox — open leads (…)');
    expect(frame).not.toMatch(/\(0\)/);
    expect(frame).not.toMatch(/\bnone\b/);
    await tui.press('3');
    await tui.waitFor('Reviews (…)');
    await tui.press('4');
    await tui.waitFor('Actions — awaiting approval (…)');
  });
});

describe('the full-screen stop of a refused key', () => {
  it('shows q quit, no retry countdown, and asks before quitting past a typed text', async () => {
    const tui = await startTui({ columns: 170, rows: 24 });
    await waitStartup(tui);
    const { contact } = inboxLeadWhere(tui, () => true);
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press('call me back');
    await tui.press(KEYS.escape);
    // The service fails for a while, then refuses the rotated key.
    tui.s.sim.faults.failNext({ kind: 'status', status: 503 }, 2);
    tui.session.poller.refreshAll();
    await tui.waitFor((_frame, state) => state.connection.state !== 'ok');
    tui.s.sim.rotateToken('write');
    tui.session.poller.refreshAll();
    const frame = plain(await tui.waitFor('refused this key'));
    const bottom = frame.split('\n').slice(-3).join('\n');
    expect(bottom).toContain('q quit');
    expect(bottom).not.toContain('undefined');
    expect(frame).not.toMatch(/retrying (now|in)/);
    await tui.press('q');
    await tui.waitFor('Quit anyway? y/n');
    expect(tui.quitRequested).toBe(false);
    await tui.press('n');
    expect(tui.quitRequested).toBe(false);
    await tui.press('q');
    await tui.waitFor('Quit anyway? y/n');
    await tui.press('y');
    expect(tui.quitRequested).toBe(true);
  });
});

describe("an action's detail", () => {
  it('says what the action will do, did or would have done, as its status has it', async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await waitStartup(tui);
    await onPendingAction(tui);
    const gap = (tense: string) =>
      new RegExp(`The API gives no detail of what this action ${tense} beyond its kind`);
    await tui.waitFor((frame) => gap('will do').test(plain(frame).replace(/\s*│\s*\n│\s*/g, ' ')));
    for (const [status, tense] of [
      ['published', 'did'],
      ['declined', 'would have done'],
      ['failed', 'was to do'],
    ] as const) {
      await tui.press('s');
      await tui.waitFor(
        (frame, state) =>
          state.actionsFilter === status &&
          (state.actions[status].data?.items.length ?? 0) > 0 &&
          frame.includes(`Actions — ${status}`),
      );
      await tui.waitFor((frame) => gap(tense).test(plain(frame).replace(/\s*│\s*\n│\s*/g, ' ')));
      expect(plain(tui.frame())).not.toContain('will do');
    }
  });
});
