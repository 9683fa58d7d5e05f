/**
 * The approval question in the built inbox, in a real 80×24 terminal: a
 * reply drafted here with a long review is shown in a box that fits the
 * screen (no row runs past 80 columns), scrolls to its end with j, and ends
 * with the whole reply; n leaves "Not approved" on the status line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-approval-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-approval-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

it('at 80×24 the question about a drafted reply fits, scrolls to the whole reply, and n says not approved', async () => {
  const s = await startSim();
  const shop = s.sim.shops.main;
  for (const review of shop.reviews)
    review.text = Array.from({ length: 150 }, (_, index) => `w${index}`).join(' ');
  // The row of the first unreplied review with no reply awaiting approval, as the inbox lists reviews.
  const listed = (await s.client().getReviews({ limit: 100 })).items;
  const index = listed.findIndex(
    (review) =>
      review.replied_at === null &&
      !shop.actions.some(
        (action) =>
          action.status === 'pending_approval' &&
          action.target.type === 'review_reply' &&
          action.target.reviewId === review.id,
      ),
  );
  expect(index).toBeGreaterThanOrEqual(0);
  const t = spawnInTerminal(process.execPath, [bundle.cliPath], {
    cols: 80,
    rows: 24,
    env: terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write }),
  });
  terminals.push(t);
  await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  t.send('3');
  await t.waitForText(/Reviews \(\d+/);
  t.send(`g${'j'.repeat(index)}`);
  await t.waitForText('w1 w2');
  t.send('d');
  await t.waitForText(/awaits approval as action/, 10_000);
  const action = shop.actions.find(
    (item) =>
      item.status === 'pending_approval' &&
      item.target.type === 'review_reply' &&
      item.target.reviewId === listed[index]?.id,
  );
  if (action?.target.type !== 'review_reply') throw new Error('the draft made no action');
  t.send('a');
  await t.waitForText(`Approve review reply ${action.id}? y/n`);
  await t.waitForText(/▼ \d+ · j\/k scroll/);
  const lastWords = action.target.reply.split(' ').slice(-2).join(' ');
  for (let press = 0; press < 60 && /▼ \d+/.test(t.screenText()); press++) {
    t.send('j');
    await t.settle();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await t.waitForText(lastWords);
  expect(t.screenText()).not.toMatch(/▼ \d+/);
  expect(t.screenText()).toMatch(/▲ \d+ · j\/k scroll/);
  expect(t.overflows()).toEqual([]);
  expect(t.screenText()).toContain(`Approve review reply ${action.id}? y/n`);
  t.send('n');
  await t.waitForText(`Not approved: review reply ${action.id}`);
  expect(action.status).toBe('pending_approval');
});
