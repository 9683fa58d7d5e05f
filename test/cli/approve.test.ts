/**
 * `shop-inbox approve` from the built CLI against the simulator: --yes
 * needed without a terminal, once only (approving again changes nothing), a
 * read-only key refused before any decision is asked, a lost answer settled
 * by the lists.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApproveOutput, CliError } from '../../src/contract/cli-output.js';
import { startHostileServer } from '../support/hostile-server.js';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';
import { startSim, type TestSim } from '../support/sim.js';

let home: CliHome;
beforeEach(async () => {
  home = await cliHome('shop-inbox-approve-');
});
afterEach(async () => {
  await home.remove();
});

const envOf = (t: TestSim, extra: Record<string, string> = {}) =>
  home.env({ SHOP_API_BASE_URL: t.baseUrl, SHOP_API_KEY: t.sim.tokens.write, ...extra });

const pendingReply = (t: TestSim) => {
  const action = t.sim.shops.main.actions.find(
    (a) => a.status === 'pending_approval' && a.kind === 'review_reply',
  );
  if (!action) throw new Error('no pending review reply in the seed');
  return action;
};

const decisions = async (t: TestSim) =>
  (await t.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/decide'));

describe('shop-inbox approve', () => {
  it('without a terminal it needs --yes (exit 3, nothing decided); with it the reply is published', async () => {
    const t = await startSim();
    const action = pendingReply(t);
    const refused = await runCli(['approve', action.id], envOf(t));
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain(`Action ${action.id} · review_reply · pending_approval`);
    expect(refused.stderr).toMatch(/approving needs --yes when no one is at a terminal to answer/);
    expect(await decisions(t)).toEqual([]);

    const approved = await runCli(['approve', action.id, '--yes', '--json'], envOf(t));
    expect(approved.status).toBe(0);
    expect(ApproveOutput.parse(JSON.parse(approved.stdout))).toMatchObject({
      outcome: 'approved',
      status: 'published',
      action: { id: action.id },
    });
    expect(action.status).toBe('published');
    const review = t.sim.shops.main.reviews.find(
      (r) => action.target.type === 'review_reply' && r.id === action.target.reviewId,
    );
    expect(review?.repliedAt).not.toBeNull();

    const again = await runCli(['approve', action.id, '-y'], envOf(t));
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(
      `Already published: action ${action.id} was approved before; nothing changed.\n`,
    );
    expect(await decisions(t)).toHaveLength(1);
  });

  it('a read-only key is refused before anything is decided: exit 4', async () => {
    const t = await startSim();
    const action = pendingReply(t);
    const result = await runCli(
      ['approve', action.id, '--yes', '--json'],
      envOf(t, { SHOP_API_KEY: t.sim.tokens.read }),
    );
    expect(result.status).toBe(4);
    expect(CliError.parse(JSON.parse(result.stdout)).error).toMatchObject({
      code: 'read_only',
      exit_code: 4,
    });
    expect(result.stderr).toMatch(/this key is read-only: nothing was approved/);
    expect(await decisions(t)).toEqual([]);
    expect(action.status).toBe('pending_approval');
  });

  it('an action not awaiting approval, or not there: exit 1, said', async () => {
    const t = await startSim();
    const declined = t.sim.shops.main.actions.find((a) => a.status === 'declined');
    if (declined) {
      const result = await runCli(['approve', declined.id, '--yes'], envOf(t));
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/is declined, not awaiting approval/);
    }
    const missing = await runCli(['approve', 'act_nowhere', '--yes'], envOf(t));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no action act_nowhere among the shop's 100 newest/);
    expect(await decisions(t)).toEqual([]);
  });

  it('the answer lost after the shop published it: the lists say so, exit 0', async () => {
    const t = await startSim();
    const action = pendingReply(t);
    const hostile = await startHostileServer({ upstream: t.baseUrl });
    try {
      // A proxy's 502, the decision never made: the lists say it still awaits approval.
      hostile.behave({ kind: 'status', status: 502, body: '<html>bad gateway</html>' }, 'decideAction');
      const result = await runCli(
        ['approve', action.id, '--yes', '--json'],
        envOf(t, { SHOP_API_BASE_URL: hostile.baseUrl }),
      );
      expect(result.status).toBe(1);
      expect(ApproveOutput.parse(JSON.parse(result.stdout))).toMatchObject({
        outcome: 'not_approved',
        status: 'pending_approval',
        error: { code: 'server' },
      });
      // Made, and its answer lost: the lists say published.
      hostile.behave({ kind: 'swallow' }, 'decideAction');
      const lost = await runCli(
        ['approve', action.id, '--yes', '--json'],
        envOf(t, { SHOP_API_BASE_URL: hostile.baseUrl }),
      );
      expect(lost.status, lost.stderr).toBe(0);
      expect(ApproveOutput.parse(JSON.parse(lost.stdout))).toMatchObject({
        outcome: 'approved',
        status: 'published',
      });
    } finally {
      await hostile.close();
    }
  }, 60_000);
});
