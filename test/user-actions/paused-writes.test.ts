/**
 * Writes during a 429's pause: an approval or a draft is refused at once with
 * the wait in plain words (no request); a confirmed text waits for the pause
 * to end and then goes out once, instead of timing out inside the call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../src/session/create-session.js';
import { startSim } from '../support/sim.js';
import { until } from '../support/until.js';

const sessions: Session[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

const quiet = {
  visibleMs: 60_000,
  headerMs: 60_000,
  backgroundMs: 60_000,
  rareMs: 60_000,
  burstMs: 60_000,
  pacedMs: 60_000,
};

describe('writes while every request is paused', () => {
  it('refuses an approval and a draft at once, saying how long to wait, and sends nothing', async () => {
    const t = await startSim();
    const session = createSession({ baseUrl: t.baseUrl, apiKey: t.sim.tokens.write, intervals: quiet });
    sessions.push(session);
    const action = t.sim.shops.main.actions.find((item) => item.status === 'pending_approval');
    const review = t.sim.shops.main.reviews[0];
    if (!action || !review) throw new Error('seed has no pending action or review');
    session.budget.pauseUntil(Date.now() + 20_000);
    await session.approve(action.id);
    expect(session.store.getState().notice?.text).toMatch(
      /Not approved yet: .*rate limited.*try again in (19|20) s/,
    );
    await session.draft(review.id);
    expect(session.store.getState().notice?.text).toMatch(/No draft yet: .*try again in/);
    expect(await t.requests()).toEqual([]);
  });

  it('holds a confirmed text until the pause ends, then sends it once', async () => {
    const t = await startSim();
    const session = createSession({ baseUrl: t.baseUrl, apiKey: t.sim.tokens.write, intervals: quiet });
    sessions.push(session);
    const contact = t.sim.shops.main.contacts[0];
    if (!contact) throw new Error('seed has no contact');
    const pauseEnds = Date.now() + 800;
    session.budget.pauseUntil(pauseEnds);
    session.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'After the pause',
    );
    const waiting = await until(() =>
      session.store.getState().outbox.find((text) => text.state === 'waiting'),
    );
    expect(waiting.reason).toMatch(/rate limited/);
    expect(await t.requests()).toEqual([]);
    const done = await until(() => session.store.getState().outbox.find((text) => text.state === 'sent'));
    expect(done.attempts).toBe(1);
    const posts = (await t.requests()).filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(Date.now()).toBeGreaterThanOrEqual(pauseEnds);
  });
});
