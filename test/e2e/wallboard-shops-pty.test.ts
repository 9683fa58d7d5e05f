/**
 * The wallboard of several shops (--wallboard --shop north,south, --all), from the built CLI in a real
 * pseudo-terminal against two simulators: each column's counts are its own shop's API's, at 80×24 and at
 * 200×60, "OFFLINE since" is said for the shop that is down while the other stays fresh, and q quits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { shopKeyFilePath } from '../../src/config/shops.js';
import { runCli } from '../support/run-cli.js';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-wallboard-shops-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-wallboard-shops-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

/** North: one simulator's main shop; south: another simulator's other shop, each with its own key file. */
async function twoShops(): Promise<{ north: TestSim; south: TestSim; env: NodeJS.ProcessEnv }> {
  const north = await startSim();
  const south = await startSim({ seed: 5 });
  const env = terminalEnv(home);
  await writeKeyFile(shopKeyFilePath(env, 'north'), north.sim.tokens.read);
  await writeKeyFile(shopKeyFilePath(env, 'south'), south.sim.tokens.other_shop);
  await writeConfig(env, {
    shops: {
      north: { base_url: north.baseUrl, key_file: shopKeyFilePath(env, 'north') },
      south: { base_url: south.baseUrl, key_file: shopKeyFilePath(env, 'south') },
    },
    default_shop: 'north',
  });
  return { north, south, env };
}

/** The four captions a column shows, from that shop's API. */
async function captionsOf(t: TestSim, token: 'read' | 'other_shop'): Promise<string[]> {
  const client = t.client(token);
  const me = await client.getMe();
  const open = await client.getInbox({ filter: 'open', limit: 50 });
  return [
    `${me.inbox_pulse.needs_callback} with no reply`,
    `${open.open_leads.filter((lead) => lead.urgency === 'same_day').length} open, same day`,
    `${me.reviews_pulse.unreplied} unreplied`,
    `${me.pending_actions} to approve`,
  ];
}

/** The text of each column (the screen cut in halves), so that each shop's counts are found in its own. */
function columnsOf(terminal: PtyTerminal, cols: number): [string, string] {
  const half = Math.floor(cols / 2);
  const lines = terminal.lines();
  return [
    lines.map((line) => line.slice(0, half)).join('\n'),
    lines.map((line) => line.slice(half)).join('\n'),
  ];
}

function open(args: string[], env: NodeJS.ProcessEnv, size: { cols: number; rows: number }) {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, ...args], { ...size, env });
  terminals.push(terminal);
  return terminal;
}

describe('the wallboard of several shops', () => {
  for (const size of [
    { cols: 80, rows: 24 },
    { cols: 200, rows: 60 },
  ])
    it(`--shop north,south at ${size.cols}×${size.rows}: each column its shop's counts, from its own API`, async () => {
      const { north, south, env } = await twoShops();
      const want = [await captionsOf(north, 'read'), await captionsOf(south, 'other_shop')];
      expect(want[0]).not.toEqual(want[1]);
      const terminal = open(['--wallboard', '--shop', 'north,south'], env, size);
      await terminal.waitFor(
        () => {
          const [left, right] = columnsOf(terminal, size.cols);
          return (
            (want[0] ?? []).every((text) => left.includes(text)) &&
            (want[1] ?? []).every((text) => right.includes(text))
          );
        },
        "each shop's four counts in its column",
        20_000,
      );
      const [left, right] = columnsOf(terminal, size.cols);
      expect(left).toContain('north · Rivera Plumbing & Heating');
      expect(right).toContain('south · North Sound Heating & Air');
      expect(terminal.overflows()).toEqual([]);
      // Each shop read with its own key only (the API's description needs none), and only read.
      expect(
        (await north.requests()).filter(
          (r) => r.method !== 'GET' || (r.token !== 'read' && r.token !== null),
        ),
      ).toEqual([]);
      expect(
        (await south.requests()).filter(
          (r) => r.method !== 'GET' || (r.token !== 'other_shop' && r.token !== null),
        ),
      ).toEqual([]);
      terminal.send('q');
      expect((await terminal.exited).exitCode).toBe(0);
      expect(terminal.isAlternateScreen()).toBe(false);
    });

  it('--all: OFFLINE since … for the shop that is down, while the other stays fresh', async () => {
    const { north, south, env } = await twoShops();
    const terminal = open(['--wallboard', '--all'], env, { cols: 100, rows: 30 });
    const northCaptions = await captionsOf(north, 'read');
    await terminal.waitFor(
      () => (terminal.screenText().match(/updated \d+ s ago/g) ?? []).length === 2,
      'both shops fresh',
      20_000,
    );
    south.sim.faults.setRates({ resetRate: 1 });
    await terminal.waitFor(
      () => [...terminal.inverseText().values()].some((text) => /^OFFLINE since \d\d:\d\d$/.test(text)),
      'OFFLINE since … in inverse',
      40_000,
    );
    const [left, right] = columnsOf(terminal, 100);
    expect(right).toContain('OFFLINE since');
    expect(left).not.toContain('OFFLINE');
    expect(left).toMatch(/updated \d+ s ago/);
    for (const text of northCaptions) expect(left).toContain(text);
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
  }, 90_000);

  it('refuses several shops without --wallboard, --all with --shop, and a shop config.json does not name', async () => {
    const { env } = await twoShops();
    const noWallboard = await runCli(['--shop', 'north,south'], env);
    expect(noWallboard.status).toBe(2);
    expect(noWallboard.stderr).toContain(
      'several shops (--shop a,b or --all) are shown only on the wallboard',
    );
    const both = await runCli(['--wallboard', '--all', '--shop', 'north'], env);
    expect(both.status).toBe(2);
    const unknown = await runCli(['--wallboard', '--shop', 'north,east'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('config.json names no shop "east"; its shops: north, south');
  });
});
