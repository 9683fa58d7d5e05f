/**
 * The start trace `npm run bench` reads (src/ui-kit/start-trace.ts): with SHOP_INBOX_TRACE_START the built
 * inbox writes each phase of its start once, in order, up to the first frame with the shop's data; without
 * it, nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

/** The inbox started against the simulator, to its first screen of data, then quit. */
async function startAndQuit(extra: NodeJS.ProcessEnv): Promise<void> {
  const { sim, baseUrl } = await startSim();
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
    cols: 120,
    rows: 40,
    env: terminalEnv(home, { SHOP_API_BASE_URL: baseUrl, SHOP_API_KEY: sim.tokens.write, ...extra }),
  });
  terminals.push(terminal);
  await terminal.waitForText(/Rivera Plumbing[\s\S]*Inbox — open leads \(\d+\)[\s\S]*\+1\d{10}/);
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
