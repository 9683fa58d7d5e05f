/**
 * The traces `npm run bench` reads. The start trace (src/ui-kit/start-trace.ts): with SHOP_INBOX_TRACE_START
 * the built inbox writes each phase of its start once, in order, up to the first frame with the shop's data.
 * The key trace (src/ui-kit/key-trace.ts): with SHOP_INBOX_TRACE_KEYS it writes one line per key it read,
 * once the frame after it is written, on the clock of the process that pressed the key. Without them, nothing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KeyTraceLine } from '../../src/ui-kit/key-trace.js';
import { startHostileServer } from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-trace-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-trace-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

const epochNow = () => performance.timeOrigin + performance.now();

/** The inbox started against the simulator, to its first screen of data. */
async function inboxOnSim(extra: NodeJS.ProcessEnv): Promise<PtyTerminal> {
  const { sim, baseUrl } = await startSim();
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
    cols: 120,
    rows: 40,
    env: terminalEnv(home, { SHOP_API_BASE_URL: baseUrl, SHOP_API_KEY: sim.tokens.write, ...extra }),
  });
  terminals.push(terminal);
  await terminal.waitForText(/Rivera Plumbing[\s\S]*Inbox — open leads \(\d+\)[\s\S]*\+1\d{10}/);
  return terminal;
}

/** The inbox started against the simulator, to its first screen of data, then quit. */
async function startAndQuit(extra: NodeJS.ProcessEnv): Promise<void> {
  const terminal = await inboxOnSim(extra);
  terminal.send('q');
  expect((await terminal.exited).exitCode).toBe(0);
}

describe('the start trace', () => {
  it('has each phase once, in order, the last one the first frame with data', async () => {
    const file = join(home, 'trace.jsonl');
    await startAndQuit({ SHOP_INBOX_TRACE_START: file });
    const marks = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { phase: string; ms: number; cpuMs: number });
    expect(marks.map((mark) => mark.phase)).toEqual([
      'code',
      'command',
      'store',
      'reads',
      'ui',
      'first-frame',
      'data-frame',
    ]);
    for (const [index, mark] of marks.entries()) {
      expect(mark.ms).toBeGreaterThan(0);
      expect(mark.cpuMs).toBeGreaterThan(0);
      if (index > 0) expect(mark.ms).toBeGreaterThanOrEqual(marks[index - 1]?.ms ?? 0);
    }
  });

  it('marks no frame with data while the inbox has not been read', async () => {
    const { sim, baseUrl } = await startSim();
    const hostile = await startHostileServer({ upstream: baseUrl });
    hostile.behave({ kind: 'hang' }, 'getInbox');
    const file = join(home, 'trace.jsonl');
    const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
      cols: 120,
      rows: 40,
      env: terminalEnv(home, {
        SHOP_API_BASE_URL: hostile.baseUrl,
        SHOP_API_KEY: sim.tokens.write,
        SHOP_INBOX_TRACE_START: file,
      }),
    });
    terminals.push(terminal);
    try {
      // The shop (GET /me) is in and drawn; the inbox is not.
      await terminal.waitForText('Rivera Plumbing');
      const phases = () =>
        (existsSync(file) ? readFileSync(file, 'utf8') : '')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { phase: string }).phase);
      await until(() => (phases().includes('first-frame') ? true : undefined));
      terminal.send('q');
      await terminal.exited;
      expect(phases()).toEqual(['code', 'command', 'store', 'reads', 'ui', 'first-frame']);
    } finally {
      await hostile.close();
    }
  });

  it('is not written without SHOP_INBOX_TRACE_START', async () => {
    const before = await readdir(home, { recursive: true });
    await startAndQuit({});
    const after = await readdir(home, { recursive: true });
    expect(after.filter((name) => !before.includes(name) && /trace/i.test(name))).toEqual([]);
  });
});

describe('the key trace', () => {
  it('has a line for each key, read after it was pressed and written before its first byte was seen', async () => {
    const file = join(home, 'keys.jsonl');
    const terminal = await inboxOnSim({ SHOP_INBOX_TRACE_KEYS: file });
    const lines = () =>
      (existsSync(file) ? readFileSync(file, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as KeyTraceLine);
    const presses: Array<{ pressedAt: number; seenAt: number }> = [];
    // The highlighted lead: the frame that moved it is the key's own (a poll's frame may come first).
    const highlighted = () => [...terminal.inverseText().entries()].find(([row]) => row > 2)?.[1] ?? '';
    for (const key of ['j', 'k', 'j']) {
      const before = highlighted();
      const count = lines().length;
      const pressedAt = epochNow();
      terminal.send(key);
      await terminal.waitFor(() => highlighted() !== before, `the highlight moved by ${key}`);
      presses.push({ pressedAt, seenAt: epochNow() });
      await terminal.waitFor(() => lines().length > count, `the trace line of ${key}`);
    }
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);

    const traced = lines();
    // One per key; the q's line, if its frame (the way back) was written before the trace stopped.
    expect(traced.length).toBeGreaterThanOrEqual(3);
    expect(traced.length).toBeLessThanOrEqual(4);
    for (const [index, press] of presses.entries()) {
      const line = traced[index];
      if (!line) throw new Error(`no line for key ${index + 1}`);
      // Two processes' clocks on the epoch's scale: the key is read after it was pressed (within a
      // millisecond's skew), its frame written before the test saw it.
      expect(line.readAt).toBeGreaterThanOrEqual(press.pressedAt - 1);
      expect(line.writtenAt).toBeGreaterThanOrEqual(line.readAt);
      expect(line.writtenAt).toBeLessThanOrEqual(press.seenAt + 1);
      if (process.platform === 'linux') {
        expect(line.waitingMs).toBeGreaterThanOrEqual(0);
        // Read a few microseconds apart from the wall clock: within a small slack of the time between.
        expect(line.waitingMs).toBeLessThanOrEqual(line.writtenAt - line.readAt + 0.5);
      }
    }
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('is not written without SHOP_INBOX_TRACE_KEYS', async () => {
    const before = await readdir(home, { recursive: true });
    const terminal = await inboxOnSim({});
    const output = terminal.output().length;
    terminal.send('j');
    await terminal.waitFor(() => terminal.output().length > output, 'the frame after j');
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
    const after = await readdir(home, { recursive: true });
    expect(after.filter((name) => !before.includes(name) && /trace|keys\.jsonl/i.test(name))).toEqual([]);
  });
});
