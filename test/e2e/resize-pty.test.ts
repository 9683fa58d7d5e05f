/**
 * Resizes and ctrl-l on the built CLI in a real pseudo-terminal, read back
 * through a headless xterm resized alike. A burst of resizes (50 in a
 * quarter of a second, as dragging a window's corner makes) left rows of
 * the last frame where the terminal had moved them, and the renderer,
 * which rewrites only the cells that changed, wrote around them: customers'
 * names beside other customers' phone numbers, for good. After a burst the
 * screen must be what a frame drawn from scratch shows; ctrl-l draws one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';
import {
  brokenBoxRows,
  listRowCount,
  mismatchedListRows,
  untilQuiet,
  untilSteady,
  withoutAges,
} from './screen-checks.js';

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-resize-pty-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-resize-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CTRL_L = '\u000C';
const BURSTS = 20;
const RESIZES_PER_BURST = 50;
const BURST_MS = 250;

/** The same sizes on every run: a small linear congruential generator. */
function sizes(seed: number) {
  let state = seed;
  const next = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
  // From the inbox's smallest (60×16) to wider than the side-by-side layout needs (120).
  return () => ({ cols: 60 + next(111), rows: 16 + next(35) });
}

function resize(terminal: PtyTerminal, size: { cols: number; rows: number }) {
  terminal.pty.resize(size.cols, size.rows);
  terminal.term.resize(size.cols, size.rows);
}

/** How many open leads the inbox's title says there are, once the header (read apart) says the same. */
function leadCount(terminal: PtyTerminal): number {
  const screen = terminal.screenText();
  const listed = /open leads \((\d+)\)/.exec(screen)?.[1];
  const counted = /(\d+) open leads/.exec(screen)?.[1];
  return listed === counted ? Number(listed) : Number.NaN;
}

/** The screen drawn again from scratch (ctrl-l), with what the clock changed in between blanked. */
async function redrawn(terminal: PtyTerminal): Promise<string> {
  terminal.send(CTRL_L);
  await sleep(100);
  await untilQuiet(terminal, 250);
  return withoutAges(terminal.lines());
}

/**
 * The screen as it is equals the screen drawn again from scratch (ctrl-l). The shop's data may move
 * between the two (a thread read that matches an inbound text to its sender lands): when the simulator
 * answered a read in between, the two screens show different data, and the comparison is made again.
 * "In between" starts before a quiet spell, not at the screen's reading: a read answered just before
 * it is drawn some milliseconds later (more on a loaded machine), after the screen was read.
 */
async function expectSameAsRedrawn(
  terminal: PtyTerminal,
  test: Awaited<ReturnType<typeof startSim>>,
  what: string,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const answered = (await test.requests()).length;
    await untilQuiet(terminal, 300);
    const shown = withoutAges(terminal.lines());
    const again = await redrawn(terminal);
    const moved = (await test.requests()).length !== answered;
    if (shown === again || !moved || attempt === 3) {
      expect(shown, what).toBe(again);
      return;
    }
    await untilQuiet(terminal, 250);
  }
}

describe('resizes and ctrl-l in a real terminal', () => {
  it(`after each of ${BURSTS} bursts of ${RESIZES_PER_BURST} resizes in ${BURST_MS} ms, the screen is whole and correct at the final size`, async () => {
    const test = await startSim();
    // All of the key's requests, so that R reads everything at once each time it is pressed.
    const t = spawnInTerminal(process.execPath, [bundle.cliPath, '--max-rpm', '120'], {
      cols: 120,
      rows: 40,
      // Emoji two columns wide, as every current terminal draws them and Ink counts them.
      unicode11: true,
      env: terminalEnv(home, { SHOP_API_KEY: test.sim.tokens.write, SHOP_API_BASE_URL: test.baseUrl }),
    });
    terminals.push(t);
    await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    const business = test.sim.shops.main.identity.businessName;
    // The header (the shop, the counts) and the thread come with reads of their own, after the lists.
    await untilSteady(t);
    const next = sizes(19);
    for (let burst = 0; burst < BURSTS; burst += 1) {
      // The shop moves between bursts: a new lead, read at once (R), on screen before the burst, so
      // that nothing else changes under the comparisons below.
      if (burst % 6 === 0) {
        await t.waitFor(
          () => !Number.isNaN(leadCount(t)),
          'the title and the header to count the same leads',
        );
        const before = leadCount(t);
        test.sim.inject('missed_call');
        t.send('R');
        await t.waitFor(() => leadCount(t) > before, 'the new lead');
        await untilQuiet(t, 1_000);
      }
      for (let i = 0; i < RESIZES_PER_BURST; i += 1) {
        resize(t, next());
        await sleep(BURST_MS / RESIZES_PER_BURST);
      }
      // On a loaded machine the frame for the final size can come after a quiet while: the screen is
      // given until it is whole, then read. A screen the renderer left corrupted stays corrupted.
      const problems = () => {
        const lines = t.lines();
        return [
          ...((lines[0] ?? '').includes(business) ? [] : ['the first row does not name the shop']),
          ...t.wrappedRows().map((row) => `row ${row} wrapped`),
          ...brokenBoxRows(t.term),
          ...mismatchedListRows(lines, test.sim.shops.main.contacts).map((row) => `mismatched: ${row}`),
          ...(listRowCount(lines) > 0 ? [] : ['no list rows']),
        ];
      };
      await untilQuiet(t, 250);
      await t.waitFor(() => problems().length === 0, 'a whole screen', 5_000).catch(() => {});
      await untilQuiet(t, 250);
      const what = `burst ${burst + 1} at ${t.term.cols}×${t.term.rows}`;
      const lines = t.lines();
      expect(problems(), `${what}:\n${lines.join('\n')}`).toEqual([]);
      await expectSameAsRedrawn(t, test, what);
    }
  }, 120_000);

  it.each([
    ['the inbox', [] as string[], /Inbox — open leads \(\d+\)/, true],
    // The wallboard redraws the rows its clock changes, but not the rest.
    ['the wallboard', ['--wallboard'], 'OLDEST MISSED CALL', false],
  ])(
    'ctrl-l repairs a screen something else wrote on (%s)',
    async (_name, args, ready, stillThere) => {
      const test = await startSim();
      const t = spawnInTerminal(process.execPath, [bundle.cliPath, ...args], {
        cols: 120,
        rows: 40,
        // Emoji two columns wide, as every current terminal draws them and Ink counts them.
        unicode11: true,
        env: terminalEnv(home, { SHOP_API_KEY: test.sim.tokens.write, SHOP_API_BASE_URL: test.baseUrl }),
      });
      terminals.push(t);
      await t.waitForText(ready, 15_000);
      // The shop's name and the thread's contact come with reads of their own, which may land later.
      const before = await untilSteady(t);
      // Another program, a `write` from a colleague, a terminal that garbled a sequence: text the inbox
      // never drew, and rows it believes blank or unchanged.
      await new Promise<void>((resolve) =>
        t.term.write(
          '\u001B[5;10HSOMEONE ELSE WROTE HERE\u001B[12;1H\u001B[2K\u001B[20;30H+15550000000 Not A Customer\u001B[40;1Hwall: system going down',
          resolve,
        ),
      );
      const garbled = withoutAges(t.lines());
      expect(garbled).not.toBe(before);
      // Frames draw only what changed: the clock's next tick leaves the rest as it is.
      await sleep(1_200);
      await untilQuiet(t);
      if (stillThere) expect(t.screenText()).toContain('SOMEONE ELSE');
      expect(t.screenText()).toContain('Not A Customer');
      expect(await redrawn(t)).toBe(before);
      expect(t.screenText()).not.toContain('SOMEONE ELSE');
      expect(t.screenText()).not.toContain('Not A Customer');
    },
    60_000,
  );
});
