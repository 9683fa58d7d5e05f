/**
 * The wallboard of the built CLI in a real pseudo-terminal, against the
 * simulator on a real socket: its counts are the API's, drawn in block
 * digits at 80×24 and larger at 200×60, the oldest missed call and the
 * newest text are the API's, it only ever reads (even with a write key),
 * and q gives the terminal back.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/config/key-fingerprint.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { bigText } from '../../src/wallboard/big-digits.js';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-wallboard-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-wallboard-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

function openWallboard(sim: TestSim, size: { cols: number; rows: number }) {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, '--wallboard'], {
    ...size,
    env: terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.write }),
  });
  terminals.push(terminal);
  return terminal;
}

/** What the API says the wallboard should show. */
async function expected(sim: TestSim) {
  const client = sim.client('read');
  const me = await client.getMe();
  const open = await client.getInbox({ filter: 'open', limit: 50 });
  const callbacks = await client.getInbox({ filter: 'callbacks', limit: 50 });
  const today = await client.getToday({ limit: 50 });
  const oldest = [...callbacks.open_leads].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at),
  )[0];
  const newestText = today.activity
    .filter((item) => item.kind === 'sms_inbound')
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  return {
    counts: {
      missed: String(me.inbox_pulse.needs_callback),
      sameDay: String(open.open_leads.filter((lead) => lead.urgency === 'same_day').length),
      reviews: String(me.reviews_pulse.unreplied),
      approvals: String(me.pending_actions),
    },
    oldest,
    newestText,
  };
}

/** The big digits of `value` at `scale` are on screen, each row of them in one column, one under the other. */
function hasBigNumber(terminal: PtyTerminal, value: string, scale: number): boolean {
  const rows = bigText(value, scale);
  const lines = terminal.lines();
  for (let y = 0; y + rows.length <= lines.length; y += 1) {
    const first = lines[y] ?? '';
    for (
      let column = first.indexOf(rows[0] ?? '');
      column >= 0;
      column = first.indexOf(rows[0] ?? '', column + 1)
    ) {
      // The glyph block starts at a tile's left edge: the cell before it is blank.
      const fits = rows.every((row, index) => {
        const line = lines[y + index] ?? '';
        return line.slice(column, column + row.length) === row && (column === 0 || line[column - 1] === ' ');
      });
      if (fits) return true;
    }
  }
  return false;
}

async function expectWallboardOf(sim: TestSim, terminal: PtyTerminal, scale: number) {
  const want = await expected(sim);
  await terminal.waitForText(/updated \d+ s ago/);
  // The four reads arrive one after another (and a terminal first looks for its hub): wait for the last.
  const words = [
    `${want.counts.missed} with no reply`,
    `${want.counts.sameDay} open, same day`,
    `${want.counts.reviews} unreplied`,
    `${want.counts.approvals} to approve`,
  ];
  await terminal.waitFor(
    () =>
      words.every((text) => terminal.screenText().includes(text)) &&
      !terminal.screenText().includes('loading…'),
    'all four counts and the newest texts',
    15_000,
  );
  const screen = terminal.screenText();
  expect(screen).toContain(`${want.counts.missed} with no reply`);
  expect(screen).toContain(`${want.counts.sameDay} open, same day`);
  expect(screen).toContain(`${want.counts.reviews} unreplied`);
  expect(screen).toContain(`${want.counts.approvals} to approve`);
  for (const value of Object.values(want.counts)) {
    expect(
      hasBigNumber(terminal, value, scale),
      `${value} in block digits at scale ${scale}:\n${screen}`,
    ).toBe(true);
  }
  expect(want.oldest).toBeDefined();
  expect(screen).toContain(`${want.oldest?.contact_name} · ${want.oldest?.caller_phone}`);
  expect(screen).toMatch(/waiting \d+ (s|min|h|d)/);
  const sender = want.newestText?.summary.replace(/^New text from /, '').slice(0, 20);
  expect(screen).toContain(sender);
  // Nothing drawn past the edge.
  expect(terminal.overflows()).toEqual([]);
}

describe('the wallboard (--wallboard)', () => {
  it('shows the API counts in block digits at 80×24, the oldest missed call and the newest text, and only reads', async () => {
    const sim = await startSim();
    // A text confirmed with this key by an inbox that has stopped: a process that may write sends it at start.
    const contact = sim.sim.shops.main.contacts[0];
    const outbox = OutboxFile.forKey(terminalEnv(home), sim.baseUrl, sim.sim.tokens.write);
    await mkdir(dirname(outbox.path), { recursive: true, mode: 0o700 });
    const entry = {
      localId: 'left-1',
      contactId: contact?.id,
      contactName: contact?.name,
      phone: contact?.phone,
      body: 'Left by a stopped inbox',
      idempotencyKey: '8f1c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8e',
      confirmedAt: Date.now(),
      attempts: 1,
      keyId: keyFingerprint(sim.sim.tokens.write),
    };
    await writeFile(outbox.path, JSON.stringify({ version: 2, texts: [entry] }), { mode: 0o600 });
    const terminal = openWallboard(sim, { cols: 80, rows: 24 });
    await expectWallboardOf(sim, terminal, 1);
    // Read-only with a write key: every request the wallboard made is a GET.
    const requests = (await sim.requests()).filter((request) => request.token === 'write');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
    // The inbox's keys do nothing here; q quits and gives the terminal back.
    terminal.send('c2?:');
    await terminal.settle();
    expect(terminal.screenText()).toContain('OLDEST MISSED CALL');
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
    expect(terminal.isAlternateScreen()).toBe(false);
    expect(terminal.isCursorHidden()).toBe(false);
  });

  it('scales the digits up at 200×60', async () => {
    const sim = await startSim();
    const terminal = openWallboard(sim, { cols: 200, rows: 60 });
    await expectWallboardOf(sim, terminal, 5);
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
  });

  it('says OFFLINE since when, in inverse, through an outage, keeps the counts, and recovers alone', async () => {
    const sim = await startSim();
    const terminal = openWallboard(sim, { cols: 80, rows: 24 });
    const want = await expected(sim);
    await terminal.waitForText(`${want.counts.missed} with no reply`);
    // Every connection to the shop is reset from now on.
    sim.sim.faults.setRates({ resetRate: 1 });
    await terminal.waitFor(
      () => [...terminal.inverseText().values()].some((text) => /^OFFLINE since \d\d:\d\d$/.test(text)),
      'OFFLINE since … in inverse',
      30_000,
    );
    expect(terminal.screenText()).toMatch(/retrying in \d+ s/);
    expect(terminal.screenText()).toContain(`${want.counts.missed} with no reply`);
    // The shop answers again: the wallboard goes on by itself, no key pressed.
    sim.sim.faults.clear();
    await terminal.waitForText(/updated \d+ s ago/, 30_000);
    expect(terminal.screenText()).not.toContain('OFFLINE');
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
  }, 90_000);

  it('is what "view": "wallboard" in the config opens; --theme with an unknown theme is refused', async () => {
    const sim = await startSim();
    await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
    await writeFile(join(home, 'config', 'shop-inbox', 'config.json'), '{ "view": "wallboard" }', {
      mode: 0o600,
    });
    const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
      cols: 80,
      rows: 24,
      env: terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.write }),
    });
    terminals.push(terminal);
    await terminal.waitForText('wallboard (read-only)');
    await terminal.waitForText('OLDEST MISSED CALL');
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);

    const refused = spawnInTerminal(process.execPath, [bundle.cliPath, '--theme', 'solarized'], {
      cols: 80,
      rows: 24,
      env: terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.write }),
    });
    terminals.push(refused);
    expect((await refused.exited).exitCode).toBe(2);
    expect(refused.output()).toContain('--theme must be auto, dark or light');
  });
});
