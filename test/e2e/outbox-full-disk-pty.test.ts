/**
 * The built inbox in a real pseudo-terminal with its state directory on a
 * really full disk (a 4 KiB tmpfs, filled, mounted in a private mount
 * namespace with `unshare`, so nothing outside the test sees it) and the
 * shop's API refusing every send: y sends nothing, says why in plain words,
 * and puts the text back in the composer. Then kill -9 and a start on a disk
 * with room: no text is sent or promised, ever (counted at the simulator).
 *
 * Before, the text was sent anyway, its failure promised a retry ("trying
 * again with the same key"), and after kill -9 the restart had nothing to
 * retry: the text was lost while staff were told it would be sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { storedEntries } from '../outbox/support/stored-entries.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { COMPOSER_READY, KEYS, type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

/** A private mount namespace (as root, or as any user where user namespaces are allowed). */
function canMountPrivately(): boolean {
  try {
    execFileSync('unshare', ['-r', '-m', 'sh', '-c', 'mount -t tmpfs -o size=4k tmpfs /tmp'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}
const mountable = canMountPrivately();

let bundle: BuiltCli;
let home = '';
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-full-disk-');
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-full-disk-home-'));
});
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill();
});
afterAll(async () => {
  await bundle.remove();
  await rm(home, { recursive: true, force: true });
});

it.skipIf(!mountable)(
  'a full disk: y sends nothing and says why, the text is back in the composer; after kill -9 nothing is sent or promised',
  async () => {
    const test = await startSim();
    // The API cannot be reached for a send: every POST has its connection reset.
    const draw = test.sim.faults.draw.bind(test.sim.faults);
    test.sim.faults.draw = () =>
      test.sim.requests.list().at(-1)?.method === 'POST' ? { kind: 'reset' } : draw();
    const env = terminalEnv(home, {
      SHOP_API_KEY: test.sim.tokens.write,
      SHOP_API_BASE_URL: test.baseUrl,
      // The hub's socket lives elsewhere: only the outbox's directory is full.
      XDG_RUNTIME_DIR: join(home, 'run'),
    });
    const stateDir = join(env.XDG_STATE_HOME ?? '', 'shop-inbox');
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    await mkdir(join(home, 'run'), { recursive: true, mode: 0o700 });
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    // Mounted, then filled to the last byte (head fails with ENOSPC, as it should), then the inbox.
    const onFullDisk = [
      `mount -t tmpfs -o size=4k,mode=0700 tmpfs ${quote(stateDir)} || exit 97`,
      `head -c 65536 /dev/zero > ${quote(join(stateDir, 'filler'))} 2>/dev/null`,
      `exec ${quote(process.execPath)} ${quote(bundle.cliPath)}`,
    ].join('; ');
    // Wide enough for the whole notice on the status line.
    const first = spawnInTerminal('unshare', ['-r', '-m', 'sh', '-c', onFullDisk], {
      cols: 200,
      rows: 40,
      env,
    });
    terminals.push(first);
    await first.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    await first.waitForText(/│ Thread — /);
    first.send('c');
    await first.waitForText(/To .*\(\+1/);
    await first.waitForText(COMPOSER_READY);
    first.send('Running 10 min late');
    first.send(KEYS.enter);
    // The seed's first lead may have no consent given: then the question wants "send" typed, not y.
    await first.waitForText(/Send to .*\? (y\/n|Type send)/);
    if (/Send to .*\? Type send/.test(first.screenText())) {
      first.send('send');
      first.send(KEYS.enter);
    } else {
      first.send('y');
    }
    await first.waitForText('Not sent to ', 10_000);
    await first.waitForText(/the disk holding .*shop-inbox is full/);
    // The composer is open again with the text.
    await first.waitForText(/To .*\(\+1/);
    expect(first.screenText()).toContain('Running 10 min late');
    expect(first.screenText()).toContain('NOT SENT');
    // The message log has it too: esc closes the composer (its text is kept), L opens the log.
    first.send(KEYS.escape);
    await first.waitFor(() => !first.screenText().includes('esc close (text kept)'), 'the composer to close');
    first.send('L');
    // Among the log's messages, not always the newest: the read marks' save fails on that disk a moment later.
    await first.waitForText(/Message log — [\s\S]*Not sent to .* the disk holding .*shop-inbox is full/);
    // Nothing was sent, and nothing was promised.
    expect(
      test.sim.requests.list().filter((r) => r.method === 'POST' && !r.path.includes(PROBE_ID_PREFIX)),
    ).toEqual([]);
    expect(first.output()).not.toMatch(/[Tt]rying again|Not confirmed yet|will be tried again/);

    process.kill(first.pid, 'SIGKILL');
    await first.exited;

    // A start on a disk with room (the tmpfs went with its namespace): nothing to resume, nothing sent.
    const second = spawnInTerminal(process.execPath, [bundle.cliPath], { cols: 120, rows: 40, env });
    terminals.push(second);
    await second.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    const outbox = OutboxFile.forKey(env, test.baseUrl, test.sim.tokens.write);
    expect(await storedEntries(outbox.path)).toEqual([]);
    // It took over the outbox when it started; a full refresh later, it has surely said whatever it would.
    const meReads = () => test.sim.requests.list().filter((r) => r.path.endsWith('/me')).length;
    const before = meReads();
    second.send('R');
    await second.waitFor(() => meReads() > before, 'the second inbox to read the shop again', 10_000);
    expect(second.output()).not.toMatch(/Resuming|unconfirmed/);
    expect(
      test.sim.requests.list().filter((r) => r.method === 'POST' && !r.path.includes(PROBE_ID_PREFIX)),
    ).toEqual([]);
    const sent = test.sim.shops.main.leads
      .flatMap((lead) => lead.messages)
      .filter((m) => m.direction === 'outbound' && m.body === 'Running 10 min late');
    expect(sent).toEqual([]);
  },
  60_000,
);
