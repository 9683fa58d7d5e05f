/**
 * `shop-inbox completion bash|zsh|fish` and `__complete shops`, from the built CLI: each script is run by
 * its real shell where the machine has it (completing commands, options, values and the shops config.json
 * names now), and each is at least checked for syntax by that shell.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';

const hasShell = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

let home: CliHome;
let env: NodeJS.ProcessEnv;
let scripts: Record<string, string>;

beforeEach(async () => {
  home = await cliHome('shop-inbox-completion-');
  // `shop-inbox` on PATH, as an installed one would be: the scripts run `shop-inbox __complete shops`.
  const bin = join(home.dir, 'bin');
  await mkdir(bin);
  await writeFile(
    join(bin, 'shop-inbox'),
    `#!/bin/sh\nexec "${process.execPath}" "${resolve('dist/cli.js')}" "$@"\n`,
  );
  await chmod(join(bin, 'shop-inbox'), 0o755);
  env = home.env({ PATH: `${bin}:${process.env.PATH}` });
  await writeConfig(env, {
    shops: {
      north: { base_url: 'https://n.example.com/v1' },
      south: { base_url: 'https://s.example.com/v1' },
    },
    default_shop: 'north',
  });
  scripts = {};
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], env);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    scripts[shell] = result.stdout;
    await writeFile(join(home.dir, `completion.${shell}`), result.stdout);
  }
});
afterEach(async () => {
  await home.remove();
});

/** What bash's completion offers for the words typed (the last one being completed). */
function bashComplete(words: string[]): string[] {
  const script = join(home.dir, 'completion.bash');
  const array = words.map((word) => `'${word}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${script}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _shop_inbox; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env, encoding: 'utf8' },
  );
  return out.split('\n').filter(Boolean);
}

describe('shop-inbox completion bash (run by bash)', () => {
  it('completes the commands, not the hidden one', () => {
    expect(bashComplete(['shop-inbox', 're'])).toEqual(['reviews']);
    const all = bashComplete(['shop-inbox', '']);
    expect(all).toEqual(
      expect.arrayContaining(['status', 'inbox', 'send', 'check', 'login', 'completion', 'sim']),
    );
    expect(all).not.toContain('__complete');
  });

  it("completes each command's options, and the inbox's without a command", () => {
    expect(bashComplete(['shop-inbox', 'reviews', '--un'])).toEqual(['--unreplied']);
    expect(bashComplete(['shop-inbox', 'send', '--consent'])).toEqual(['--consent-ok']);
    expect(bashComplete(['shop-inbox', '--wall'])).toEqual(['--wallboard']);
    expect(bashComplete(['shop-inbox', '--metrics-p'])).toEqual(['--metrics-public']);
    expect(bashComplete(['shop-inbox', 'reviews', '--wall'])).toEqual([]);
  });

  it('completes the values of options that have a few, and the shops config.json names now', async () => {
    expect(bashComplete(['shop-inbox', '--theme', ''])).toEqual(['auto', 'dark', 'light']);
    expect(bashComplete(['shop-inbox', 'inbox', '--filter', 'c'])).toEqual(['callbacks']);
    expect(bashComplete(['shop-inbox', 'actions', '--status', 'p'])).toEqual([
      'pending_approval',
      'published',
    ]);
    expect(bashComplete(['shop-inbox', 'check', '--unreachable', ''])).toEqual(['critical', 'unknown']);
    expect(bashComplete(['shop-inbox', 'status', '--shop', ''])).toEqual(['north', 'south']);
    expect(bashComplete(['shop-inbox', 'login', '--shop', 's'])).toEqual(['south']);
    // A shop saved after the script was made completes too.
    await writeConfig(env, {
      shops: {
        north: { base_url: 'https://n.example.com/v1' },
        east: { base_url: 'https://e.example.com/v1' },
      },
    });
    expect(bashComplete(['shop-inbox', '--shop', ''])).toEqual(['north', 'east']);
  });

  it('completes a comma list after --wallboard --shop name after name', () => {
    expect(bashComplete(['shop-inbox', '--wallboard', '--shop', 'north,'])).toEqual(['north,south']);
    expect(bashComplete(['shop-inbox', '--wallboard', '--shop', 'north,s'])).toEqual(['north,south']);
    expect(bashComplete(['shop-inbox', '--wallboard', '--shop', 'south,'])).toEqual(['south,north']);
    expect(bashComplete(['shop-inbox', '--wallboard', '--shop', 'north,south,'])).toEqual([]);
  });
});

describe.runIf(hasShell('zsh'))('shop-inbox completion zsh (run by zsh)', () => {
  it('is valid zsh and completes shops and options through its bash layer', () => {
    const script = join(home.dir, 'completion.zsh');
    expect(spawnSync('zsh', ['-n', script]).status).toBe(0);
    const run = (words: string[]) =>
      execFileSync(
        'zsh',
        [
          '-c',
          `source '${script}' 2>/dev/null; setopt ksharrays; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _shop_inbox; print -l -- "\${COMPREPLY[@]}"`,
        ],
        { env, encoding: 'utf8' },
      )
        .split('\n')
        .filter(Boolean);
    expect(run(['shop-inbox', 'status', '--shop', ''])).toEqual(['north', 'south']);
    expect(run(['shop-inbox', '--wallboard', '--shop', 'north,'])).toEqual(['north,south']);
    // zsh's compgen offers the command's words and zsh matches them to what is typed itself.
    const offered = run(['shop-inbox', 'reviews', '--un']);
    expect(offered).toContain('--unreplied');
    expect(offered).not.toContain('--wallboard');
  });
});

describe.runIf(hasShell('fish'))('shop-inbox completion fish (run by fish)', () => {
  it('is valid fish and completes commands, options, values and shops', () => {
    const script = join(home.dir, 'completion.fish');
    expect(spawnSync('fish', ['-n', script]).status).toBe(0);
    const run = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source '${script}'; complete -C '${line}'`], {
        env,
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .map((row) => row.split('\t')[0]);
    expect(run('shop-inbox rev')).toEqual(['reviews']);
    expect(run('shop-inbox status --shop ')).toEqual(['north', 'south']);
    expect(run('shop-inbox actions --status pu')).toEqual(['published']);
    expect(run('shop-inbox reviews --unr')).toEqual(['--unreplied']);
    expect(run('shop-inbox --wallboard --shop north,')).toEqual(['north,south']);
  });
});

describe('the scripts and __complete', () => {
  it('bash -n accepts the bash script; an unknown shell is a usage error', async () => {
    expect(spawnSync('bash', ['-n', join(home.dir, 'completion.bash')]).status).toBe(0);
    const wrong = await runCli(['completion', 'tcsh'], env);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('the shell must be bash, zsh or fish (got tcsh)');
  });

  it('__complete shops lists the shops one a line, and nothing (exit 0) for a broken config', async () => {
    expect((await runCli(['__complete', 'shops'], env)).stdout).toBe('north\nsouth\n');
    expect((await runCli(['__complete', 'shops', 'south,'], env)).stdout).toBe('south,north\n');
    await writeFile(join(env.XDG_CONFIG_HOME as string, 'shop-inbox', 'config.json'), '{ not json');
    const broken = await runCli(['__complete', 'shops'], env);
    expect(broken).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  it('every option of the table is in the scripts', () => {
    for (const option of [
      '--shop',
      '--metrics',
      '--idempotency-key',
      '--critical',
      '--no-verify',
      '--live-interval',
    ])
      expect(scripts.bash).toContain(option);
    expect(scripts.fish).toContain('-l idempotency-key');
  });
});
