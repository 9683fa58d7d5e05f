/**
 * The built inbox never loads Node's fetch (undici): it talks HTTP through `node:http`, and on Node 22 and
 * later an ES module import of `node:http` alone loads undici (its `WebSocket`, `CloseEvent` and
 * `MessageEvent` getters), 25–45 ms and 8–13 MiB of every start. The bundle loads `node:http` with
 * `require` (scripts/bundle-options.mjs). Node 20's `node:http` has no such getters: there the check
 * cannot fail, and is skipped.
 *
 * The CLI runs on this test run's Node, or on `SHOP_INBOX_TEST_NODE` (a path to another Node's binary:
 * the pty runs in this process, so a Node 20 run can check the bundle on Node 22 or 24).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const NODE = process.env.SHOP_INBOX_TEST_NODE || process.execPath;
const NODE_VERSION = spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
const NODE_MAJOR = Number(/^v(\d+)/.exec(NODE_VERSION)?.[1]);

/** Loaded before the program: as it exits, it writes the undici modules Node has loaded to a file. */
const UNDICI_PROBE = [
  'data:text/javascript,',
  "import { writeFileSync } from 'node:fs';",
  "process.on('exit', () => writeFileSync(process.env.UNDICI_PROBE_FILE,",
  ' JSON.stringify(process.moduleLoadList.filter((name) => name.includes("undici")))));',
].join(' ');

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-undici-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-undici-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

/** Runs `node --import PROBE args` in a terminal; `until` drives it to its end. The undici modules it loaded. */
async function undiciLoadedBy(
  args: string[],
  env: NodeJS.ProcessEnv,
  until: (terminal: PtyTerminal) => Promise<void>,
): Promise<string[]> {
  const probeFile = join(home, 'undici.json');
  const terminal = spawnInTerminal(NODE, ['--import', UNDICI_PROBE, ...args], {
    cols: 120,
    rows: 40,
    env: terminalEnv(home, { ...env, UNDICI_PROBE_FILE: probeFile }),
  });
  terminals.push(terminal);
  await until(terminal);
  const exit = await terminal.exited;
  expect(exit.exitCode, terminal.screenText()).toBe(0);
  return JSON.parse(await readFile(probeFile, 'utf8')) as string[];
}

describe.skipIf(!(NODE_MAJOR >= 22))(
  `Node's fetch (undici) on Node ${NODE_VERSION} (Node 20's node:http does not load it)`,
  () => {
    it('is loaded by a plain ES module import of node:http (what the probe below must see)', async () => {
      const script = "import { request } from 'node:http'; console.log(typeof request);";
      const loaded = await undiciLoadedBy(['--input-type=module', '-e', script], {}, async (terminal) => {
        await terminal.waitForText('function');
      });
      expect(loaded.length).toBeGreaterThan(0);
    });

    it('is never loaded by the inbox from start to its first screen of data and out', async () => {
      const { sim, baseUrl } = await startSim();
      const loaded = await undiciLoadedBy(
        [bundle.cliPath],
        { SHOP_API_BASE_URL: baseUrl, SHOP_API_KEY: sim.tokens.write },
        async (terminal) => {
          await terminal.waitForText(/Inbox — open leads \(\d+\)[\s\S]*\+1\d{10}/);
          // The first lead's thread, read beside the list: every read of the start has been made.
          await terminal.waitForText(/Thread — /);
          terminal.send('q');
        },
      );
      expect(loaded).toEqual([]);
    });
  },
);
