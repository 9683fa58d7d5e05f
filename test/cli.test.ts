import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

const CLI = 'dist/cli.js';
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 10_000 });
}

/** Starts `sim` and resolves with its first stdout line, parsed. */
async function startSimProcess(...args: string[]) {
  const child = spawn(process.execPath, [CLI, 'sim', ...args]);
  children.push(child);
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    info: JSON.parse(firstLine) as { base_url: string; tokens: Record<string, string> },
    exited,
  };
}

describe('shop-inbox command', () => {
  it('prints its version and help', () => {
    expect(run('--version')).toMatchObject({ status: 0, stdout: `${pkg.version}\n` });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/shop-inbox sim/);
    expect(help.stdout).toMatch(/SHOP_API_KEY/);
  });

  it('refuses a key passed as a flag, saying why', () => {
    for (const flag of ['--api-key=shk_secret', '--token', '--key']) {
      const result = run(flag, 'shk_secret');
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/visible to every user/);
      expect(result.stdout + result.stderr).not.toContain('shk_secret');
    }
  });

  it('exits 2 on an unknown command or a bad flag value', () => {
    expect(run('frobnicate').status).toBe(2);
    const bad = run('sim', '--error-rate', '3');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--error-rate must be a number from 0 to 1/);
    expect(run('sim', '--no-such-flag').status).toBe(2);
  });
});

describe('shop-inbox sim', () => {
  it('prints one JSON line with the base URL and every token, then serves until SIGTERM', async () => {
    const { child, info, exited } = await startSimProcess('--port', '0', '--seed', '7');
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(Object.keys(info.tokens).sort()).toEqual(
      ['no_number', 'no_subscription', 'other_shop', 'read', 'texting_inactive', 'write'].sort(),
    );
    const me = await fetch(`${info.base_url}/me`, {
      headers: { authorization: `Bearer ${info.tokens.write}` },
    });
    expect(me.status).toBe(200);
    const other = await fetch(`${info.base_url}/me`, {
      headers: { authorization: `Bearer ${info.tokens.other_shop}` },
    });
    expect(
      ((await other.json()) as { data: { identity: { business_name: string } } }).data.identity.business_name,
    ).not.toBe(
      ((await me.json()) as { data: { identity: { business_name: string } } }).data.identity.business_name,
    );
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('stops cleanly on SIGINT', async () => {
    const { child, exited } = await startSimProcess();
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('applies fault flags: a 429 burst with its Retry-After', async () => {
    const { info } = await startSimProcess('--burst-429', '1', '--burst-retry-after', '3');
    const headers = { authorization: `Bearer ${info.tokens.read}` };
    const first = await fetch(`${info.base_url}/inbox`, { headers });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await fetch(`${info.base_url}/inbox`, { headers })).status).toBe(200);
  });

  it('with --live, new records keep arriving', async () => {
    const { info } = await startSimProcess('--live', '--live-interval', '100');
    const headers = { authorization: `Bearer ${info.tokens.write}` };
    const activityCount = async () =>
      (
        (await (await fetch(`${info.base_url}/today?limit=100`, { headers })).json()) as {
          data: { activity: unknown[] };
        }
      ).data.activity.length;
    const before = await activityCount();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await activityCount()).toBeGreaterThan(before);
  });
});
