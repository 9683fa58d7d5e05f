/**
 * The built CLI in a real pseudo-terminal, on a shared box where others can
 * reach this user's files and loopback ports: a config.json that is a named
 * pipe, a symlink to /dev/zero or another user's file is refused at once with
 * exit status 1 (never a blank screen that `q` cannot leave); a templates.json
 * that is a named pipe leaves the inbox usable, saying why there are no
 * templates; and a loopback port another user took over gets no byte of the key.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ForeignListener, OTHER_UID, startForeignListener } from '../support/foreign-listener.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const DONE = '[shell: done]';
/** The shell reports the CLI's exit status and stays until read (a pty can drop a process's last output). */
const THEN_REPORT = `echo "exit=$?"; echo '${DONE}'; read -r _`;
const KEY = 'shk_live_e2e_never_leaves_9c1d';
const asRoot = process.geteuid?.() === 0;

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];
const strangers: ForeignListener[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-untrusted-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-untrusted-home-'));
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await Promise.all(strangers.splice(0).map((stranger) => stranger.stop()));
  await rm(home, { recursive: true, force: true });
});

const configDir = () => join(home, 'config', 'shop-inbox');

function quoted(args: string[]): string {
  return args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
}

/** The inbox in a terminal 30 rows high, run by a shell that reports its exit status. */
function openInbox(env: NodeJS.ProcessEnv, cols = 120): PtyTerminal {
  const terminal = spawnInTerminal(
    'bash',
    ['-c', `${quoted([process.execPath, bundle.cliPath])}; ${THEN_REPORT}`],
    {
      cols,
      rows: 30,
      env: terminalEnv(home, env),
    },
  );
  terminals.push(terminal);
  return terminal;
}

/** Waits for the CLI to end (bounded) and gives its exit status and what it left on the screen. */
async function ended(terminal: PtyTerminal, ms = 5_000): Promise<{ status: number; text: string }> {
  await terminal.waitFor(() => terminal.output().includes(DONE), 'the CLI to exit', ms);
  const output = terminal.output();
  return {
    status: Number(/exit=(\d+)/.exec(output.slice(output.lastIndexOf('exit=')))?.[1]),
    text: terminal.unwrappedText(),
  };
}

describe('config.json that must not be read', () => {
  it('a named pipe: refused at once, exit 1, and the screen never taken', async () => {
    execFileSync('mkfifo', ['-m', '600', join(configDir(), 'config.json')]);
    const t = openInbox({ SHOP_API_KEY: KEY });
    const { status, text } = await ended(t);
    expect(status).toBe(1);
    expect(text).toContain(
      `shop-inbox: ${join(configDir(), 'config.json')} is not a regular file (it is a named pipe)`,
    );
    expect(t.output()).not.toContain('\u001B[?1049h');
  });

  it('a symlink to /dev/zero: refused at once, exit 1', async () => {
    await symlink('/dev/zero', join(configDir(), 'config.json'));
    const { status, text } = await ended(openInbox({ SHOP_API_KEY: KEY }));
    expect(status).toBe(1);
    expect(text).toContain('config.json is not a regular file (it is a character device)');
  });

  it.skipIf(!asRoot)(
    "another user's config.json, which would choose where the key goes: refused, exit 1",
    async () => {
      const path = join(configDir(), 'config.json');
      await writeFile(path, JSON.stringify({ base_url: 'http://127.0.0.1:9/v1' }));
      await chown(path, OTHER_UID, OTHER_UID);
      const { status, text } = await ended(openInbox({ SHOP_API_KEY: KEY }));
      expect(status).toBe(1);
      expect(text).toContain(
        `shop-inbox: ${path} belongs to another user (uid ${OTHER_UID}): whoever owns it decides where your API key is sent, so it is not used.`,
      );
    },
  );
});

describe('templates.json that must not be read', () => {
  it('a named pipe: the inbox starts, says why there are no templates, and q quits', async () => {
    const s = await startSim();
    execFileSync('mkfifo', ['-m', '600', join(configDir(), 'templates.json')]);
    // Wide enough for the whole message on one line of the message log.
    const t = openInbox({ SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write }, 220);
    await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    // Said at start; other notices may follow it, and the message log keeps them all.
    t.send('L');
    await t.waitForText(
      /Message log[\s\S]*templates\.json is not a regular file \(it is a named pipe\), so no templates are offered/,
    );
    t.send('\u001B');
    await t.waitFor(() => !t.screenText().includes('Message log'), 'the message log to close');
    t.send('q');
    expect((await ended(t)).status).toBe(0);
  });
});

describe.skipIf(!asRoot)('a loopback port another user listens on', () => {
  it('the inbox says the key was not sent, and the stranger receives not a byte', async () => {
    const other = await startForeignListener({ host: '127.0.0.1' });
    strangers.push(other);
    const t = openInbox({ SHOP_API_BASE_URL: `http://127.0.0.1:${other.port}/v1`, SHOP_API_KEY: KEY }, 220);
    await t.waitForText(
      `the service on 127.0.0.1:${other.port} belongs to user ${OTHER_UID}, not you: the key was not sent`,
      15_000,
    );
    t.send('q');
    expect((await ended(t)).status).toBe(0);
    expect(other.connections).toBeGreaterThan(0);
    await other.closedConnections(other.connections);
    expect(other.received).toBe('');
  });

  it('`shop-inbox status` says so too, exit 1, and sends nothing', async () => {
    const other = await startForeignListener({ host: '127.0.0.1' });
    strangers.push(other);
    const child = spawn(process.execPath, [bundle.cliPath, 'status'], {
      env: terminalEnv(home, { SHOP_API_BASE_URL: `http://127.0.0.1:${other.port}/v1`, SHOP_API_KEY: KEY }),
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(1);
    expect(stderr).toContain(
      `the service on 127.0.0.1:${other.port} belongs to user ${OTHER_UID}, not you: the key was not sent`,
    );
    expect(stderr).not.toContain(KEY);
    await other.closedConnections(other.connections);
    expect(other.received).toBe('');
  });
});
