/**
 * The command line helps with a mistake, through the built CLI: a config.json
 * that is not JSON is named with the line and column of the mistake; an
 * unknown option names the closest one and points to --help (exit 2).
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';

const homes: CliHome[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await home.remove();
});

async function homeWithConfig(text: string): Promise<CliHome> {
  const home = await cliHome();
  homes.push(home);
  const dir = join(home.dir, 'config', 'shop-inbox');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(join(home.dir, 'config'), 0o700);
  await writeFile(join(dir, 'config.json'), text, { mode: 0o600 });
  return home;
}

describe('a config.json that is not JSON', () => {
  it('names the line and the column of the mistake', async () => {
    const home = await homeWithConfig('{\n  "base_url": "http://127.0.0.1:9/v1"\n  "read_only": true\n}\n');
    const result = await runCli(['status'], home.env({ SHOP_API_KEY: 'shk_test' }));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'config.json is not valid JSON at line 3, column 3: a comma was expected',
    );
  });

  it('a trailing comma: where the next name was expected', async () => {
    const home = await homeWithConfig('{\n  "read_only": true,\n}');
    const result = await runCli(['status'], home.env({ SHOP_API_KEY: 'shk_test' }));
    expect(result.stderr).toContain('not valid JSON at line 3, column 1: a property name was expected');
  });
});

describe('an unknown option', () => {
  it('names the closest option and points to --help', async () => {
    const home = await cliHome();
    homes.push(home);
    const result = await runCli(['status', '--jsn'], home.env());
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'shop-inbox status: unknown option "--jsn"; did you mean --json? (see shop-inbox status --help)',
    );
    const approve = await runCli(['approve', 'act_1', '--yse'], home.env());
    expect(approve.status).toBe(2);
    expect(approve.stderr).toContain('did you mean --yes? (see shop-inbox approve --help)');
  });

  it('suggests nothing when nothing is close, and never a one-letter option', async () => {
    const home = await cliHome();
    homes.push(home);
    const far = await runCli(['status', '--zzzzzzzz'], home.env());
    expect(far.status).toBe(2);
    expect(far.stderr).toContain('unknown option "--zzzzzzzz" (see shop-inbox status --help)');
    expect(far.stderr).not.toContain('did you mean');
    const short = await runCli(['status', '-q'], home.env());
    expect(short.stderr).toContain('unknown option "-q" (see shop-inbox status --help)');
  });
});
