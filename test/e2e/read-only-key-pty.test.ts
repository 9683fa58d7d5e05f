/**
 * The built CLI in a real terminal, with a key whose mode was learned before
 * (issue 18): [READ-ONLY] is on the very first frame, from the remembered
 * answer alone (the fresh probe is held at the simulator, unanswered), and
 * that fresh probe then confirms or corrects it. `shop-inbox login` with a
 * read key leaves exactly that for the inbox.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import { KeyModeFile } from '../../src/config/key-mode-file.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import { startSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { recordWire } from '../support/write-flows.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-read-only-key-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-read-only-key-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true, maxRetries: 5 });
});

const isProbe = (request: Pick<LoggedRequest, 'method' | 'path'>) =>
  request.method === 'POST' && request.path.startsWith(`/v1/reviews/${PROBE_ID_PREFIX}`);

function openInbox(env: NodeJS.ProcessEnv): PtyTerminal {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], { cols: 120, rows: 30, env });
  terminals.push(terminal);
  return terminal;
}

/** The first frame Ink drew: everything written up to the end of its bottom line (the key hints). */
function firstFrame(raw: string): string {
  const end = raw.indexOf('? help');
  if (end < 0) throw new Error('no frame drawn yet');
  return raw.slice(0, end);
}

describe('a key remembered read-only', () => {
  it('[READ-ONLY] on the first frame, before the shop answers; the fresh answer (write mode since) lifts it', async () => {
    const sim = await startSim();
    const env = terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.write });
    await KeyModeFile.forKey(env, sim.baseUrl, sim.sim.tokens.write).remember({
      mode: 'read',
      how: 'probe',
      at: 1,
    });
    const wire = recordWire(sim.sim);
    wire.hold(isProbe);
    const terminal = openInbox(env);
    await terminal.waitForText('? help', 15_000);
    expect(firstFrame(terminal.output())).toContain('[READ-ONLY]');
    await terminal.waitForText('Rivera Plumbing & Heating');
    // The probe is sent once the first reads have their places in the budget, so it may reach the
    // simulator after the shop's name is drawn: wait for it to be held there, unanswered.
    await until(() => (wire.held > 0 ? true : undefined));
    expect(wire.held).toBe(1);
    expect(terminal.lines()[0]).toContain('[READ-ONLY]');
    // c says why rather than opening a composer.
    terminal.send('c');
    await terminal.waitForText("This API key is read-only; turn on write mode in the shop's API settings.");

    wire.release();
    await terminal.waitForText('Write mode is on for this API key');
    expect(terminal.lines()[0]).not.toContain('[READ-ONLY]');
    terminal.send('q');
    await terminal.exited;
  });

  it('after `shop-inbox login` with a read key, the inbox shows [READ-ONLY] on its first frame and keeps it', async () => {
    const sim = await startSim();
    const env = terminalEnv(home);
    // Not a synchronous child: the simulator answers from this process.
    const login = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [bundle.cliPath, 'login', '--base-url', sim.baseUrl], { env });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('close', () => resolve(out));
      child.stdin.end(`${sim.sim.tokens.read}\n`);
    });
    expect(login).toContain('Key mode: read-only');
    const wire = recordWire(sim.sim);
    wire.hold(isProbe);
    const terminal = openInbox(env);
    await terminal.waitForText('? help', 15_000);
    expect(firstFrame(terminal.output())).toContain('[READ-ONLY]');
    wire.release();
    await terminal.waitFor(
      () =>
        sim.sim.requests
          .list()
          .filter(isProbe)
          .some((request) => request.status === 403),
      'the fresh probe',
    );
    await terminal.waitForText('Read-only: the shop says this API key cannot write.');
    expect(terminal.lines()[0]).toContain('[READ-ONLY]');
    terminal.send('q');
    await terminal.exited;
  });
});
