/**
 * Rows keep their borders whatever the customer writes: names and texts with
 * emoji skin tones (👍🏽 pushed a border onto the next line in tmux 3.3a), ZWJ
 * sequences, flags, keycaps, CJK, combining marks, Devanagari and RTL text.
 * The built inbox runs in a real pseudo-terminal read back by xterm.js with
 * Unicode 11 widths, and in tmux itself, at 80 and 120 columns.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

/** What customers write, as names: each one a case some terminal or Ink measured differently. */
const WIDE_NAMES = [
  'Dee 👍🏽 Okafor',
  'The 👨‍👩‍👧 Parks',
  'Flag 🇺🇸🇲🇽 Fan',
  'Keycap 1️⃣ Kim',
  '李小龍 Lee',
  'Zoë Ñúñez-Ängström',
  'שרה כהן',
  'नमस्ते Nair',
  'Heart ❤️ Ha',
  'Rainbow 🏳️‍🌈 Ray',
];
const BODY = 'Thanks 👍🏽👍🏿 see you 👨‍👩‍👧 at 3 ❤️ — 李小龍 שלום नमस्ते 🇺🇸 1️⃣';

let bundle: BuiltCli;
let cliPath: string;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-widths-');
  cliPath = bundle.cliPath;
  home = join(bundle.dir, 'home');
});
afterAll(async () => {
  await bundle.remove();
});
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill();
});

/** The demo shop, its newest open leads renamed as customers from everywhere, with a text to match. */
async function worldlyShop(): Promise<TestSim> {
  const s = await startSim({ seed: 3 });
  const shop = s.sim.shops.main;
  const leads = [...shop.leads]
    .filter((lead) => ['new', 'contacted', 'scheduled'].includes(lead.status))
    .sort((a, b) => b.createdAt - a.createdAt);
  WIDE_NAMES.forEach((name, index) => {
    const lead = leads[index];
    const contact = shop.contacts.find((each) => each.id === lead?.contactId);
    if (!lead || !contact) throw new Error('too few open leads');
    contact.name = name;
    lead.messages.push({
      id: `msg_wide${index}`,
      direction: 'inbound',
      body: BODY,
      occurredAt: lead.createdAt + 1,
    });
  });
  return s;
}

function env(s: TestSim): NodeJS.ProcessEnv {
  return terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write });
}

/** Every row of a pane frame ends with its border (a row that overflowed would leave it on a line of its own). */
function expectBorders(lines: string[]) {
  const rows = lines.filter((line) => line.startsWith('│') || line.startsWith('┌') || line.startsWith('└'));
  expect(rows.length).toBeGreaterThan(10);
  for (const line of rows) {
    expect(line.endsWith('│') || line.endsWith('┐') || line.endsWith('┘'), line).toBe(true);
  }
}

describe('wide and joined characters, in a real terminal', () => {
  it.each([
    [80, 24],
    [120, 40],
  ])('%i×%i: no row overflows or falls short, in xterm with Unicode 11 widths', async (cols, rows) => {
    const s = await worldlyShop();
    const t = spawnInTerminal(process.execPath, [cliPath], { cols, rows, env: env(s), unicode11: true });
    terminals.push(t);
    await t.waitForText('Dee 👍 Okafor', 10_000);
    // The thread of a lead with every kind of character in its text, read whole (nothing wrapped out of sight).
    t.send('\r');
    // The thread has the focus (from 120 columns its title was already on screen beside the inbox: wait for
    // the hints, or an esc sent now could arrive with the q after it, as alt-q).
    await t.waitForText('esc back');
    await t.waitForText('Thread — Dee 👍 Okafor');
    // The thread wraps texts at spaces itself, by the widths terminals use: the words after 李小龍 are on the next
    // line. That next line is waited for: the first is also in the Inbox's latest texts, drawn beside the thread
    // from 120 columns before the thread is read (under load, the wait ended on it while the thread was loading).
    await t.waitForText(/שלום नमसते 🇺🇸 1/);
    expect(t.unwrappedText()).toMatch(/Thanks 👍👍 see you 👨👩👧 at 3 ❤ — 李小龍/);
    // The whole text is there, nothing cut off at the end of its line.
    expect(t.unwrappedText()).toContain('नमसते 🇺🇸 1');
    expectBorders(t.lines());
    t.send('\u001B');
    // Back in the inbox (its hints again; from 120 columns the thread stays beside it).
    await t.waitForText('enter open');
    await t.waitForText(/│ Inbox — open leads \(\d+\)/);
    expect(t.overflows(), t.screenText()).toEqual([]);
    expect(t.wrappedRows(), t.screenText()).toEqual([]);
    expectBorders(t.lines());
    t.send('q');
    expect(await t.exited).toMatchObject({ exitCode: 0 });
  });

  const tmuxVersion = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  it.runIf(tmuxVersion.status === 0)(
    `in tmux (${tmuxVersion.stdout?.trim() ?? 'absent'}): the rows of 80 and 120 columns keep their borders`,
    async () => {
      const s = await worldlyShop();
      const socket = `shop-inbox-widths-${process.pid}`;
      const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
      const vars = Object.entries(env(s)).map(([name, value]) => `${name}='${value}'`);
      try {
        tmux(
          '-f',
          '/dev/null',
          'new-session',
          '-d',
          '-s',
          'w',
          '-x',
          '80',
          '-y',
          '24',
          // env -i: the tmux server carries the environment of the test run (CI=true among it), the pane none of it.
          `env -i ${vars.join(' ')} '${process.execPath}' '${cliPath}'`,
        );
        for (const [cols, rows] of [
          [80, 24],
          [120, 40],
        ] as const) {
          tmux('resize-window', '-t', 'w', '-x', String(cols), '-y', String(rows));
          const deadline = Date.now() + 15_000;
          let screen = '';
          for (;;) {
            screen = tmux('capture-pane', '-p', '-t', 'w');
            if (
              screen.includes('Dee 👍 Okafor') &&
              screen.includes('Rainbow') &&
              /Inbox — open leads \(\d+\)/.test(screen)
            ) {
              // Let the frame after the resize settle.
              await new Promise((resolve) => setTimeout(resolve, 300));
              screen = tmux('capture-pane', '-p', '-t', 'w');
              break;
            }
            if (Date.now() > deadline) throw new Error(`the inbox did not show in tmux:\n${screen}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          // A row wider than tmux's line wraps: its border lands on a line of its own.
          expectBorders(screen.split('\n').filter((line) => line.length > 0));
        }
      } finally {
        spawnSync('tmux', ['-L', socket, 'kill-server']);
      }
    },
    40_000,
  );
});
