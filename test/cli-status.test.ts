import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../src/config/config-file.js';
import { writeKeyFile } from '../src/config/key-file.js';
import { KeyModeFile } from '../src/config/key-mode-file.js';
import { OutboxFile } from '../src/outbox/outbox-file.js';
import type { OutgoingText } from '../src/store/app-store.js';
import { startHostileServer } from './support/hostile-server.js';
import { closedPort, startSim } from './support/sim.js';

/** A home of the test's own: no saved login but the one a test makes. */
let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-status-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Runs the built CLI without blocking this process, whose simulator must keep answering. */
function runCli(args: string[], env: Record<string, string | undefined>, input?: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], {
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('shop-inbox status', () => {
  it("prints the shop's state with reads, and the key's mode with one write that changes nothing", async () => {
    const t = await startSim();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.read,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(t.sim.shops.main.identity.businessName);
    expect(result.stdout).toMatch(/Texting +active, \+1\d{10}, campaign approved/);
    expect(result.stdout).toMatch(/Inbox +\d+ open leads, \d+ missed calls with no reply/);
    expect(result.stdout).toContain(
      "  Mode     read-only: turn on write mode in the shop's API settings to text, draft and approve\n",
    );
    expect(result.stdout).not.toContain(t.sim.tokens.read);
    const before = JSON.stringify([...t.sim.world.shops.values()]);
    const requests = await t.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual([
      'GET /v1/billing 200',
      'GET /v1/me 200',
      'GET /v1/texting 200',
      expect.stringMatching(/^POST \/v1\/reviews\/shop-inbox-mode-probe-[0-9a-f]{16}\/draft 403$/),
    ]);
    expect(JSON.stringify([...t.sim.world.shops.values()])).toBe(before);
    // Remembered for the inbox's next start.
    expect(KeyModeFile.forKey({ HOME: home }, t.baseUrl, t.sim.tokens.read).recall()).toMatchObject({
      mode: 'read',
      how: 'probe',
    });
  });

  it('says write for a write key', async () => {
    const t = await startSim();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.write,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('  Mode     write: texts, reply drafts and approvals can be sent\n');
  });

  it('says unknown, and why, when the answer says nothing about the mode; exit 0 all the same', async () => {
    const t = await startSim();
    const server = await startHostileServer({ upstream: t.baseUrl });
    try {
      server.behave(
        {
          kind: 'status',
          status: 422,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error: '\u001b]0;pwned\u0007bad id', code: 'invalid' }),
        },
        'draftReply',
      );
      const result = await runCli(['status'], {
        SHOP_API_BASE_URL: server.baseUrl,
        SHOP_API_KEY: t.sim.tokens.write,
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(
        "  Mode     unknown: the shop's API answered HTTP 422 invalid: bad id\n",
      );
      for (const control of ['\u001b', '\u0007']) expect(result.stdout).not.toContain(control);
      expect(KeyModeFile.forKey({ HOME: home }, server.baseUrl, t.sim.tokens.write).recall()).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('with read_only in the config it sends nothing but reads, and says so', async () => {
    const t = await startSim();
    await writeConfig({ XDG_CONFIG_HOME: join(home, 'xdg') }, { base_url: t.baseUrl, read_only: true });
    const result = await runCli(['status'], { SHOP_API_KEY: t.sim.tokens.write });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('  Mode     read-only: read_only is set in config.json');
    expect((await t.requests()).map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('takes the base URL from --base-url too', async () => {
    const t = await startSim();
    const result = await runCli(['status', '--base-url', t.baseUrl], { SHOP_API_KEY: t.sim.tokens.write });
    expect(result.status).toBe(0);
  });

  it('explains a refused key in plain words, exit 4 (not allowed)', async () => {
    const t = await startSim();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: 'shk_rotated_long_ago',
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toMatch(/refused the key: it is missing, truncated, or was rotated/);
    expect(result.stderr).toMatch(/assistant connection/);
    expect(result.stderr).not.toContain('shk_rotated_long_ago');
  });

  it('explains a shop without an API plan', async () => {
    const t = await startSim();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.no_subscription,
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toMatch(/plan cannot use the API/);
  });

  it('says how to give what is missing as the inbox does, exit 1, without waiting for input', async () => {
    const noKey = await runCli(['status'], { SHOP_API_BASE_URL: 'https://shop.example.com/v1' });
    expect(noKey.status).toBe(1);
    expect(noKey.stderr).toMatch(/no API key\. Give one in any of these ways/);
    expect(noKey.stderr).toMatch(/shop-inbox login/);
    expect(noKey.stderr).toMatch(/--key-file PATH/);
    const noUrl = await runCli(['status'], { SHOP_API_KEY: 'k' });
    expect(noUrl.status).toBe(1);
    expect(noUrl.stderr).toMatch(/no base URL.*\n.*shop-inbox login --base-url URL/);
    const plainHttp = await runCli(['status'], {
      SHOP_API_BASE_URL: 'http://shop.example.com/v1',
      SHOP_API_KEY: 'k',
    });
    expect(plainHttp.status).toBe(1);
    expect(plainHttp.stderr).toMatch(/refusing plain http.*\(from SHOP_API_BASE_URL\)/);
    // The same words as the inbox, for the same settings.
    for (const env of [{ SHOP_API_BASE_URL: 'https://shop.example.com/v1' }, { SHOP_API_KEY: 'k' }]) {
      const inbox = await runCli([], env);
      const status = await runCli(['status'], env);
      expect(status.stderr).toBe(inbox.stderr);
      expect(status.status).toBe(inbox.status);
    }
  });

  it('is a usage error (exit 2) only for the command line itself', async () => {
    const result = await runCli(['status', '--no-such-flag'], { SHOP_API_KEY: 'k' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no-such-flag/);
    const keyFlag = await runCli(['status', '--key', 'shk_flag_secret'], {});
    expect(keyFlag.status).toBe(2);
    expect(keyFlag.stderr).not.toContain('shk_flag_secret');
  });

  it('says the shop cannot be reached, exit 1', async () => {
    const port = await closedPort();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: `http://127.0.0.1:${port}/v1`,
      SHOP_API_KEY: 'k',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/could not reach the shop's API \(ECONNREFUSED\)/);
  });

  it('shows hostile text from the API defanged', async () => {
    const t = await startSim();
    t.sim.shops.main.identity.businessName = 'Evil\u001b]0;pwned\u0007 Co\u202e\r';
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.write,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Evil Co\uFFFD\u240d');
    for (const control of ['\u001b', '\u0007', '\u202e', '\r']) expect(result.stdout).not.toContain(control);
  });

  it('after `shop-inbox login`, works with no environment at all', async () => {
    const t = await startSim();
    const key = t.sim.tokens.write;
    const login = await runCli(['login', '--base-url', t.baseUrl], {}, `${key}\n`);
    expect(login.stderr).toBe('');
    expect(login.status).toBe(0);
    const result = await runCli(['status'], {});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(t.sim.shops.main.identity.businessName);
    expect(result.stdout).toContain(`API      ${t.baseUrl} (key from the saved login, accepted)`);
    for (const output of [login.stdout, login.stderr, result.stdout]) expect(output).not.toContain(key);
    // SHOP_API_KEY still wins over the saved login, as in the inbox.
    const other = await runCli(['status'], { SHOP_API_KEY: t.sim.tokens.other_shop });
    expect(other.status).toBe(0);
    expect(other.stdout).toContain('key from SHOP_API_KEY');
    expect(other.stdout).not.toContain(t.sim.shops.main.identity.businessName);
  });

  it('reads the key from --key-file, and refuses a key file others can read', async () => {
    const t = await startSim();
    const key = t.sim.tokens.read;
    const keyFile = join(home, 'shop.key');
    await writeKeyFile(keyFile, key);
    const result = await runCli(['status', '--key-file', keyFile, '--base-url', t.baseUrl], {
      // --key-file wins over SHOP_API_KEY.
      SHOP_API_KEY: 'shk_not_this_one',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('key from --key-file, accepted');
    expect(result.stdout).not.toContain(key);
    expect((await t.requests()).every((request) => request.token === 'read')).toBe(true);

    await chmod(keyFile, 0o644);
    const open = await runCli(['status', '--key-file', keyFile, '--base-url', t.baseUrl], {});
    expect(open.status).toBe(1);
    expect(open.stderr).toMatch(/has mode 0644: other users of this machine can read or change it/);
    expect(open.stdout + open.stderr).not.toContain(key);
  });
});

describe('shop-inbox status and the outbox', () => {
  const waitingText = (n: number): OutgoingText => ({
    localId: `waiting-${n}`,
    contactId: `ct_${n}`,
    contactName: `Customer ${n}`,
    phone: '+19715550110',
    body: `Waiting text number ${n}`,
    idempotencyKey: `8f1c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8${n}`,
    confirmedAt: Date.parse('2026-11-21T12:00:00Z'),
    state: 'waiting',
    attempts: 1,
  });

  it('says how many texts wait, what of the file cannot be read, and where damaged files were kept; it changes nothing', async () => {
    const t = await startSim();
    const env = { SHOP_API_BASE_URL: t.baseUrl, SHOP_API_KEY: t.sim.tokens.write };
    const outbox = OutboxFile.forKey({ HOME: home }, t.baseUrl, t.sim.tokens.write, {
      now: () => 1_763_726_400_000,
    });

    expect((await runCli(['status'], env)).stdout).toMatch(/\n {2}Outbox +no text waiting\n$/);

    await outbox.save([waitingText(1), waitingText(2)]);
    expect((await runCli(['status'], env)).stdout).toMatch(
      /\n {2}Outbox +2 texts confirmed and not yet known sent \(the inbox with this key sends them\)\n$/,
    );

    // Cut short inside the second text: status says so, and leaves the file as it is.
    const whole = await readFile(outbox.path);
    await truncate(outbox.path, whole.indexOf('Waiting text number 2'));
    const damaged = await readFile(outbox.path);
    const unreadable = damaged.byteLength - (damaged.lastIndexOf(0x0a) + 1);
    const report = await runCli(['status'], env);
    expect(report.status).toBe(0);
    expect(report.stdout.split('\n').slice(-3)).toEqual([
      '  Outbox   1 text confirmed and not yet known sent (the inbox with this key sends it)',
      `           damaged: ${unreadable} bytes cannot be read, it was cut short; the next inbox with this key keeps what it can read and sets the file aside (${outbox.path})`,
      '',
    ]);
    expect(await readFile(outbox.path)).toEqual(damaged);

    // An inbox read it: the damaged file is kept aside, and status says where, every time, until it is removed.
    await outbox.load();
    const after = await runCli(['status'], env);
    expect(after.stdout.split('\n').slice(-3)).toEqual([
      '  Outbox   1 text confirmed and not yet known sent (the inbox with this key sends it)',
      `           kept aside: ${outbox.path}.unreadable-1763726400000 (${unreadable} bytes that could not be read; 1 entry recovered from it)`,
      '',
    ]);
    expect(await readFile(`${outbox.path}.unreadable-1763726400000`)).toEqual(damaged);
  });

  it('says it also when the shop cannot be reached', async () => {
    const t = await startSim();
    const outbox = OutboxFile.forKey({ HOME: home }, t.baseUrl, t.sim.tokens.write);
    await outbox.save([waitingText(1)]);
    await t.sim.close();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.write,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/could not reach the shop's API/);
    expect(result.stdout).toBe(
      '  Outbox   1 text confirmed and not yet known sent (the inbox with this key sends it)\n',
    );
  });

  it('says why the outbox cannot be read', async () => {
    const t = await startSim();
    const outbox = OutboxFile.forKey({ HOME: home }, t.baseUrl, t.sim.tokens.write);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(outbox.path, { recursive: true });
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: t.sim.tokens.write,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`  Outbox   cannot be read: ${outbox.path} is a directory, not a file\n`);
  });
});
