import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { closedPort, startSim } from './support/sim.js';

/** Runs the built CLI without blocking this process, whose simulator must keep answering. */
function runCli(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], {
      env: { PATH: process.env.PATH, ...env },
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
  });
}

describe('shop-inbox status', () => {
  it("prints the shop's state using only reads", async () => {
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
    expect(result.stdout).not.toContain(t.sim.tokens.read);
    const requests = await t.requests();
    expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /v1/billing',
      'GET /v1/me',
      'GET /v1/texting',
    ]);
  });

  it('takes the base URL from --base-url too', async () => {
    const t = await startSim();
    const result = await runCli(['status', '--base-url', t.baseUrl], { SHOP_API_KEY: t.sim.tokens.write });
    expect(result.status).toBe(0);
  });

  it('explains a refused key in plain words, exit 1', async () => {
    const t = await startSim();
    const result = await runCli(['status'], {
      SHOP_API_BASE_URL: t.baseUrl,
      SHOP_API_KEY: 'shk_rotated_long_ago',
    });
    expect(result.status).toBe(1);
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
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/plan cannot use the API/);
  });

  it('says how to provide what is missing, exit 2, without waiting for input', async () => {
    const noKey = await runCli(['status'], { SHOP_API_BASE_URL: 'https://shop.example.com/v1' });
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toMatch(/set SHOP_API_KEY/);
    const noUrl = await runCli(['status'], { SHOP_API_KEY: 'k' });
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toMatch(/SHOP_API_BASE_URL/);
    const plainHttp = await runCli(['status'], {
      SHOP_API_BASE_URL: 'http://shop.example.com/v1',
      SHOP_API_KEY: 'k',
    });
    expect(plainHttp.status).toBe(2);
    expect(plainHttp.stderr).toMatch(/refusing plain http/);
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
});
