import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pty from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLoginCommand } from '../src/cli/login-command.js';
import { UsageError } from '../src/cli/usage-error.js';
import { readConfig, writeConfig } from '../src/config/config-file.js';
import { writeKeyFile } from '../src/config/key-file.js';
import { KeyModeFile } from '../src/config/key-mode-file.js';
import { configDir, configFilePath, keyFilePath } from '../src/config/paths.js';
import { resolveSettings } from '../src/config/settings.js';
import { startHostileServer } from './support/hostile-server.js';
import { closedPort, startSim } from './support/sim.js';

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-login-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: join(home, 'state') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Runs login in this process with `input` piped to it, as `printf … | shop-inbox login` would. */
async function login(args: string[], input: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  stdin.end(input);
  const status = await runLoginCommand(args, { ...env, ...extraEnv }, { stdin, stdout, stderr });
  return { status, stdout: out, stderr: err };
}

async function mode(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

async function expectNothingSaved() {
  await expect(stat(keyFilePath(env))).rejects.toThrow(/ENOENT/);
  await expect(stat(configFilePath(env))).rejects.toThrow(/ENOENT/);
}

describe('shop-inbox login, key piped in', () => {
  it('checks the key with GET /me, then saves it privately', async () => {
    const s = await startSim();
    const key = s.sim.tokens.write;
    const result = await login(['--base-url', s.baseUrl], `${key}\n`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Logged in to ${s.sim.shops.main.identity.businessName}.`);
    expect(result.stdout).toContain(keyFilePath(env));
    expect(result.stdout).not.toContain(key);
    expect(await mode(configDir(env))).toBe(0o700);
    expect(await mode(keyFilePath(env))).toBe(0o600);
    expect(await readFile(keyFilePath(env), 'utf8')).toBe(`${key}\n`);
    expect(await readConfig(env)).toEqual({ base_url: s.baseUrl });
    expect(await readFile(configFilePath(env), 'utf8')).not.toContain(key);
    // GET /me, then the key's mode: a draft for a review that cannot exist (404 for a write key).
    expect((await s.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/me 200',
      expect.stringMatching(/^POST \/v1\/reviews\/shop-inbox-mode-probe-[0-9a-f]{16}\/draft 404$/),
    ]);
    expect(result.stdout).toContain('Key mode: write: texts, reply drafts and approvals can be sent.\n');
    // Remembered, so that the inbox's first frame knows it.
    expect(KeyModeFile.forKey(env, s.baseUrl, key).recall()).toMatchObject({ mode: 'write', how: 'probe' });
    // What later runs will use.
    expect(await resolveSettings({}, env)).toEqual({
      baseUrl: s.baseUrl,
      apiKey: key,
      readOnly: false,
      mouse: true,
      keySource: 'config',
    });
  });

  it('says when the key is read-only, and how to change that; the inbox will know it from its first frame', async () => {
    const s = await startSim();
    const key = s.sim.tokens.read;
    const result = await login(['--base-url', s.baseUrl], `${key}\n`);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "Key mode: read-only: turn on write mode in the shop's API settings to text, draft and approve.\n",
    );
    expect(KeyModeFile.forKey(env, s.baseUrl, key).recall()).toMatchObject({ mode: 'read', how: 'probe' });
    expect((await s.requests()).filter((r) => r.method !== 'GET').map((r) => r.status)).toEqual([403]);
  });

  it('an answer that says nothing about the mode: unknown, and why; the key is saved all the same', async () => {
    const s = await startSim();
    const server = await startHostileServer({ upstream: s.baseUrl });
    try {
      server.behave({ kind: 'html', status: 404 }, 'draftReply');
      const result = await login(['--base-url', server.baseUrl], `${s.sim.tokens.write}\n`);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(
        "Key mode: unknown: the shop's API answered HTTP 404 without its error body (a proxy, or an API without this endpoint).\n",
      );
      expect(KeyModeFile.forKey(env, server.baseUrl, s.sim.tokens.write).recall()).toBeUndefined();
      expect(await readFile(keyFilePath(env), 'utf8')).toBe(`${s.sim.tokens.write}\n`);
    } finally {
      await server.close();
    }
  });

  it('refuses a rotated key and saves nothing', async () => {
    const s = await startSim();
    const oldKey = s.sim.tokens.write;
    s.sim.rotateToken('write');
    const result = await login(['--base-url', s.baseUrl], oldKey);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/refused the key: it is missing, truncated, or was rotated/);
    expect(result.stderr).toMatch(/Nothing was saved\./);
    expect(result.stdout + result.stderr).not.toContain(oldKey);
    await expectNothingSaved();
  });

  it('explains a shop without an API plan and saves nothing', async () => {
    const s = await startSim();
    const result = await login(['--base-url', s.baseUrl], s.sim.tokens.no_subscription);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/plan cannot use the API.*Nothing was saved\./);
    await expectNothingSaved();
  });

  it('saves nothing when the shop cannot be reached, and suggests --no-verify', async () => {
    const port = await closedPort();
    const result = await login(['--base-url', `http://127.0.0.1:${port}/v1`], 'shk_some_key');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/ECONNREFUSED.*Nothing was saved\..*--no-verify/);
    await expectNothingSaved();
  });

  it('with --no-verify saves without a single request', async () => {
    const s = await startSim();
    const result = await login(['--no-verify'], s.sim.tokens.read, { SHOP_API_BASE_URL: s.baseUrl });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/without checking the key/);
    expect(result.stdout).toContain('Key mode: unknown: not asked (--no-verify).\n');
    expect(await s.requests()).toEqual([]);
    expect(await readFile(keyFilePath(env), 'utf8')).toBe(`${s.sim.tokens.read}\n`);
    expect(await mode(keyFilePath(env))).toBe(0o600);
  });

  it('saves --read-only, and later logins keep the saved base URL and read-only choice', async () => {
    const s = await startSim();
    const readOnly = await login(['--base-url', s.baseUrl, '--read-only'], s.sim.tokens.read);
    expect(readOnly.status).toBe(0);
    expect(await readConfig(env)).toEqual({ base_url: s.baseUrl, read_only: true });
    // A read-only login sends nothing but reads: the key's mode is not asked.
    expect(readOnly.stdout).toContain(
      "Key mode: read-only: this login is read-only (the key's own mode is not asked",
    );
    expect((await s.requests()).map((r) => r.method)).toEqual(['GET']);
    const again = await login([], s.sim.tokens.write);
    expect(again.status).toBe(0);
    expect(await readConfig(env)).toEqual({ base_url: s.baseUrl, read_only: true });
    expect(await resolveSettings({}, env)).toMatchObject({ apiKey: s.sim.tokens.write, readOnly: true });
  });

  it('drops a key_file saved before, so the new key is the one used', async () => {
    const s = await startSim();
    const oldKeyPath = join(home, 'old-key');
    await writeKeyFile(oldKeyPath, 'old_key');
    await writeConfig(env, { base_url: s.baseUrl, key_file: oldKeyPath });
    expect((await login([], s.sim.tokens.write)).status).toBe(0);
    expect(await readConfig(env)).toEqual({ base_url: s.baseUrl });
    expect((await resolveSettings({}, env)).apiKey).toBe(s.sim.tokens.write);
  });

  it('refuses empty input and a key with white space inside, saving nothing', async () => {
    const s = await startSim();
    const empty = await login(['--base-url', s.baseUrl], '\n');
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/no key on standard input/);
    const two = await login(['--base-url', s.baseUrl], `${s.sim.tokens.write} ${s.sim.tokens.read}`);
    expect(two.status).toBe(1);
    expect(two.stderr).toMatch(/white space inside the key/);
    expect(two.stderr).not.toContain(s.sim.tokens.write);
    expect(await s.requests()).toEqual([]);
    await expectNothingSaved();
  });

  it('is a usage error without a base URL, before reading any key', async () => {
    await expect(login([], 'k')).rejects.toThrow(UsageError);
    await expect(login([], 'k')).rejects.toThrow(/no base URL: pass --base-url/);
    await expect(login(['--base-url', 'http://shop.example.com/v1'], 'k')).rejects.toThrow(/plain http/);
  });

  it('warns that SHOP_API_KEY would shadow the saved key', async () => {
    const s = await startSim();
    const result = await login(['--base-url', s.baseUrl], s.sim.tokens.write, { SHOP_API_KEY: 'other' });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/SHOP_API_KEY is set here and takes precedence/);
  });
});

/** A stdin that passes for a terminal, recording every raw-mode switch. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    rawModes: [] as boolean[],
    setRawMode(mode: boolean) {
      stdin.isRaw = mode;
      stdin.rawModes.push(mode);
      return stdin;
    },
  });
  return stdin;
}

describe('shop-inbox login, key typed (in process)', () => {
  async function typeKey(args: string[], keystrokes: string[]) {
    const stdin = fakeTerminal();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let shown = '';
    stdout.on('data', (chunk) => {
      shown += chunk;
    });
    stderr.on('data', (chunk) => {
      shown += chunk;
    });
    const running = runLoginCommand(args, env, { stdin, stdout, stderr });
    for (const keys of keystrokes) {
      await new Promise((resolve) => setImmediate(resolve));
      stdin.write(keys);
    }
    const status = await running;
    return { status, shown, stdin };
  }

  it('reads the key without echo, with backspace and ctrl-u, then leaves raw mode', async () => {
    const s = await startSim();
    const key = s.sim.tokens.write;
    const result = await typeKey(
      ['--base-url', s.baseUrl],
      ['wrong\u0015', `${key}x`, '\u007f', '\u001b[D', '\r'],
    );
    expect(result.status).toBe(0);
    expect(result.stdin.rawModes).toEqual([true, false]);
    expect(result.shown).toMatch(/^API key \(input hidden\): \nLogged in to /);
    expect(result.shown).not.toContain(key);
    expect(await readFile(keyFilePath(env), 'utf8')).toBe(`${key}\n`);
  });

  it.each([
    ['ctrl-c', '\u0003', 130],
    ['ctrl-d', '\u0004', 1],
  ])('%s cancels, leaves raw mode and saves nothing', async (_name, keystroke, status) => {
    const s = await startSim();
    const result = await typeKey(['--base-url', s.baseUrl], ['secr', keystroke]);
    expect(result.status).toBe(status);
    expect(result.stdin.rawModes).toEqual([true, false]);
    expect(result.shown).toBe('API key (input hidden): \n');
    expect(await s.requests()).toEqual([]);
    await expectNothingSaved();
  });
});

describe('shop-inbox login in a terminal', () => {
  /** Runs the built CLI in a real pseudo-terminal, then prints the terminal's settings. */
  function spawnInPty(baseUrl: string) {
    const term = pty.spawn(
      'bash',
      // The shell waits for a line at the end: a pty may drop the last output of a process that has exited.
      [
        '-c',
        `"${process.execPath}" dist/cli.js login --base-url ${baseUrl}; echo "exit=$?"; stty -a; echo '[shell: done]'; read -r _`,
      ],
      {
        cols: 200,
        rows: 40,
        cwd: process.cwd(),
        env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: env.XDG_CONFIG_HOME ?? '' },
      },
    );
    let output = '';
    const waiters: Array<() => void> = [];
    term.onData((data) => {
      output += data;
      for (const wake of waiters.splice(0)) wake();
    });
    let done = false;
    const exited = new Promise<void>((resolve) =>
      term.onExit(() => {
        done = true;
        resolve();
      }),
    );
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 10_000;
      while (!pattern.test(output)) {
        if (done || Date.now() > deadline)
          throw new Error(`timed out waiting for ${pattern}; got ${JSON.stringify(output)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    };
    return { term, exited, waitFor, output: () => output };
  }

  it('asks without echo, handles backspace, and gives the terminal back as it was', async () => {
    const s = await startSim();
    const key = s.sim.tokens.write;
    const t = spawnInPty(s.baseUrl);
    try {
      await t.waitFor(/API key \(input hidden\): $/);
      // A typo fixed with backspace, then the key in two bursts, as typing and pasting deliver it.
      t.term.write('x\u007f');
      t.term.write(key.slice(0, 10));
      t.term.write(key.slice(10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(t.output()).not.toContain(key.slice(0, 10));
      t.term.write('\r');
      await t.waitFor(/exit=\d+[\s\S]*icanon[\s\S]*\[shell: done\]/);
      t.term.write('\r');
      await t.exited;
    } finally {
      t.term.kill();
    }
    const output = t.output();
    expect(output).toContain(`Logged in to ${s.sim.shops.main.identity.businessName}.`);
    expect(output).toContain('exit=0');
    expect(output).not.toContain(key);
    expect(output).not.toContain(key.slice(0, 10));
    expect(output).not.toContain(key.slice(-10));
    // The terminal echoes and edits lines again once login is done (Node also resets it at exit;
    // the in-process tests above check that login itself leaves raw mode).
    const settings = output.slice(output.indexOf('exit=0'));
    expect(settings).toMatch(/(^|\s)echo(\s|$)/);
    expect(settings).toMatch(/(^|\s)icanon(\s|$)/);
    expect(settings).not.toMatch(/-echo(\s|$)/);
    expect(settings).not.toMatch(/-icanon(\s|$)/);
    expect(await readFile(keyFilePath(env), 'utf8')).toBe(`${key}\n`);
    expect(await mode(keyFilePath(env))).toBe(0o600);
  });

  it('ctrl-c cancels with status 130, saves nothing and restores the terminal', async () => {
    const s = await startSim();
    const t = spawnInPty(s.baseUrl);
    try {
      await t.waitFor(/API key \(input hidden\): $/);
      t.term.write('partial\u0003');
      await t.waitFor(/exit=\d+[\s\S]*icanon[\s\S]*\[shell: done\]/);
      t.term.write('\r');
      await t.exited;
    } finally {
      t.term.kill();
    }
    const output = t.output();
    expect(output).toContain('exit=130');
    expect(output).not.toContain('partial');
    const settings = output.slice(output.indexOf('exit=130'));
    expect(settings).not.toMatch(/-echo(\s|$)/);
    expect(settings).not.toMatch(/-icanon(\s|$)/);
    expect(await s.requests()).toEqual([]);
    await expectNothingSaved();
  });
});
