/**
 * The key trace `npm run bench` reads (src/ui-kit/key-trace.ts): with SHOP_INBOX_TRACE_KEYS the built
 * inbox writes one line per key it read, once the frame after it is written, on the clock of the process
 * that pressed the key; without it, nothing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KeyTraceLine } from '../../src/ui-kit/key-trace.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];
const epochNow = () => performance.timeOrigin + performance.now();

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-key-trace-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-key-trace-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

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
    for (const key of ['j', 'k', 'j']) {
      const before = terminal.output().length;
      const count = lines().length;
      const pressedAt = epochNow();
      terminal.send(key);
      await terminal.waitFor(() => terminal.output().length > before, `the frame after ${key}`);
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
        expect(line.onCpuMs).toBeGreaterThan(0);
        expect(line.waitingMs).toBeGreaterThanOrEqual(0);
        // Read a few microseconds apart from the wall clock: within a small slack of the time between.
        expect((line.onCpuMs ?? 0) + (line.waitingMs ?? 0)).toBeLessThanOrEqual(
          line.writtenAt - line.readAt + 0.5,
        );
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
