/**
 * The built CLI in a real pseudo-terminal, pointed at a shop API whose inbox
 * answer never ends: the inbox stays responsive, its memory stays bounded, it
 * recovers by itself once the answers are normal again, and q quits at once
 * even with a read trickling in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const NODE = process.execPath;
/** Printed by the shell after the CLI: its exit status, then the terminal's settings. */
const DONE = '[shell: done]';
const THEN_REPORT = `echo "exit=$?"; stty -a; echo '${DONE}'; read -r _`;
const MiB = 1024 * 1024;

let home: string;
let bundle: BuiltCli;
let cliPath: string;
const terminals: PtyTerminal[] = [];
const servers: HostileServer[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-bundle-');
  cliPath = bundle.cliPath;
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-hostile-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(home, { recursive: true, force: true });
});

/** The inbox run by bash (which then reports), in a clean environment: its own HOME and XDG dirs. */
function openInbox(env: NodeJS.ProcessEnv): PtyTerminal {
  const command = [NODE, cliPath].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const terminal = spawnInTerminal('bash', ['-c', `${command}; ${THEN_REPORT}`], {
    cols: 120,
    rows: 40,
    env: terminalEnv(home, env),
  });
  terminals.push(terminal);
  return terminal;
}

/** The node process bash runs (its only child). */
function cliPid(terminal: PtyTerminal): number {
  const pid = Number(
    execFileSync('pgrep', ['-P', String(terminal.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')[0],
  );
  expect(pid).toBeGreaterThan(0);
  return pid;
}

/** Resident memory of a process, from /proc/PID/status, in MiB. */
async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kB = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
  expect(kB).toBeGreaterThan(0);
  return kB / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rows of the inbox list (a name, then a phone number). */
const leadRows = (terminal: PtyTerminal) => terminal.lines().filter((line) => /^│ .+ \+\d{11} /.test(line));

describe('the inbox against a hostile API, in a real terminal', () => {
  it('an inbox answer that never ends: responsive, bounded memory, recovers by itself; q quits with a read in flight', async () => {
    const sim = await startSim();
    const hostile = await startHostileServer({ upstream: sim.baseUrl });
    servers.push(hostile);
    hostile.behave({ kind: 'endless' }, 'getInbox');
    const business = sim.sim.shops.main.identity.businessName;

    const t = openInbox({ SHOP_API_BASE_URL: hostile.baseUrl, SHOP_API_KEY: sim.sim.tokens.write });
    const started = Date.now();
    // Everything else is read and shown; the inbox says what went wrong with its read.
    await t.waitForText(business, 15_000);
    await t.waitForText("the shop's answer was too large", 5_000);
    const pid = cliPid(t);

    // Keys keep working while the endless answers come (the poller reads the inbox every 10 s).
    let rounds = 0;
    while (Date.now() - started < 15_000) {
      const sent = Date.now();
      t.send('3');
      await t.waitForText(/│ Reviews \(/, 1_000);
      t.send('1');
      await t.waitForText(/│ Inbox — open leads/, 1_000);
      expect(Date.now() - sent).toBeLessThan(2_000);
      rounds += 1;
      await sleep(500);
    }
    expect(rounds).toBeGreaterThan(5);
    const endless = hostile.requests.filter((request) => request.behaviour === 'endless');
    expect(endless.length).toBeGreaterThanOrEqual(2);
    // Each endless answer was dropped by the client a little past the cap, its connection closed.
    for (const request of endless) {
      expect(request.closedEarly).toBe(true);
      expect(request.bytesSent).toBeLessThan(64 * MiB);
    }
    // About 120 MiB is what the inbox holds polling a normal shop (docs/performance.md).
    expect(await residentMiB(pid)).toBeLessThan(300);
    expect(leadRows(t)).toEqual([]);

    // Normal answers again: the next read of the inbox (due within 10 s) fills it, with no key pressed.
    hostile.reset('getInbox');
    await t.waitFor(() => leadRows(t).length > 0, 'the leads to appear', 15_000);
    expect(t.screenText()).not.toContain('too large');
    expect(t.lines()[0]).toContain(business);

    // A read that trickles in forever is in flight: q still quits at once.
    hostile.behave({ kind: 'trickle', part: 'body', endless: true, delayMs: 20 }, 'getInbox');
    t.send('r');
    const trickling = () => hostile.requests.find((request) => request.behaviour === 'trickle');
    await t.waitFor(() => (trickling()?.bytesSent ?? 0) > 0, 'a trickling read to start', 5_000);
    const quitAt = Date.now();
    t.send('q');
    await t.waitFor(() => t.output().includes(DONE), 'the CLI to exit', 3_000);
    expect(Date.now() - quitAt).toBeLessThan(1_500);
    const report = t.output().slice(t.output().lastIndexOf('exit='));
    expect(report).toMatch(/^exit=0\b/);
    // The terminal is given back as the shell needs it.
    expect(report).toMatch(/(^|\s)icanon(\s|$)/);
    expect(report).toMatch(/(^|\s)echo(\s|$)/);
    expect(t.isAlternateScreen()).toBe(false);
    expect(t.isCursorHidden()).toBe(false);
    expect(t.isBracketedPaste()).toBe(false);
    t.send('\n');
    await t.exited;
  }, 60_000);
});
