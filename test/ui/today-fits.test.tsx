/**
 * Today on a short terminal: the account's lines that the header shows already, then the links `y` and `Y`
 * copy, give way so that the activity feed keeps rows (at 80×24 it had one); on a tall one every line is there.
 */
import { describe, expect, it } from 'vitest';
import { fittedAccountLines } from '../../src/panes/today.js';
import { startTui } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';
import { firstLoad, lines, plain } from './nav-pane-helpers.js';

const LABELS = [
  'Account',
  'Billing',
  'Texting',
  'Inbox',
  'Reviews',
  'Credits',
  'Pending',
  'Dashboard',
  'Inbox at',
  'API',
  'Gaps',
];

/** The lines at 80×24: what the header shows already (pending, reviews, the inbox's counts) gave way. */
const AT_80_BY_24 = LABELS.filter((label) => !['Pending', 'Reviews', 'Inbox'].includes(label));

/** The labels of the account lines on screen, and the activity rows under "Activity" (with the ▼ mark's row). */
function todayOf(frame: string) {
  const all = lines(plain(frame)).map((line) => line.replace(/^[│║] ?/, '').replace(/ *[│║]$/, ''));
  const top = all.findIndex((line) => line.startsWith('Today and account'));
  const activity = all.indexOf('Activity');
  const bottom = all.findIndex((line, index) => index > activity && /^[└╚]/.test(line));
  const account = all
    .slice(top + 1, activity)
    .map((line) => LABELS.find((label) => line.startsWith(`${label.padEnd(10)}`)))
    .filter((label) => label !== undefined);
  return {
    account,
    activityRows: bottom - activity - 1,
    widest: Math.max(...all.map((line) => line.length)),
  };
}

describe('Today and account', () => {
  it('at 80×24 keeps account, billing, texting and credits, and five rows of activity', async () => {
    const tui = await startTui({ columns: 80, rows: 24 });
    await firstLoad(tui, startupLoaded);
    await tui.press('6');
    const frame = await tui.waitFor((f) => /^│ +\d+[mhd] /m.test(plain(f)) && plain(f).includes('Gaps'));
    const today = todayOf(frame);
    expect(today.account).toEqual(AT_80_BY_24);
    expect(today.activityRows).toBe(5);
    for (const line of lines(plain(frame))) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('on a tall terminal shows every line, in order', async () => {
    const tui = await startTui({ columns: 100, rows: 40 });
    await firstLoad(tui, startupLoaded);
    await tui.press('6');
    const frame = await tui.waitFor((f) => plain(f).includes('Gaps') && /API\s+.+paths\)/.test(plain(f)));
    const today = todayOf(frame);
    expect(today.account).toEqual(LABELS);
    expect(today.activityRows).toBeGreaterThanOrEqual(5);
  });

  it('gives way in its order, and never below the four lines that stay', () => {
    const all = LABELS.map((label) => ({ label }));
    const fitted = (rows: number) => fittedAccountLines(all, rows).map((line) => line.label);
    expect(fitted(11)).toEqual(LABELS);
    expect(fitted(10)).toEqual(LABELS.filter((label) => label !== 'Pending'));
    expect(fitted(8)).toEqual(AT_80_BY_24);
    expect(fitted(5)).toEqual(['Account', 'Billing', 'Texting', 'Credits', 'Gaps']);
    expect(fitted(0)).toEqual(['Account', 'Billing', 'Texting', 'Credits']);
    // Before /me is read: three lines and the API's, which fit.
    const loading = ['Account', 'Billing', 'Texting', 'API'].map((label) => ({ label }));
    expect(fittedAccountLines(loading, 4).map((line) => line.label)).toEqual([
      'Account',
      'Billing',
      'Texting',
      'API',
    ]);
  });
});
