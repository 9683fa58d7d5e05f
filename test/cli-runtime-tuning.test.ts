/**
 * What the built CLI sets up for the whole process before any command runs
 * (src/cli/runtime-tuning.ts): a young generation that stays small, an old
 * generation that grows by half, and on Node 22 and later a compiled-code
 * cache that only this user can write.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUNTIME_FLAGS } from '../src/cli/runtime-tuning.js';

const CLI = 'dist/cli.js';
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Loaded before the CLI: at exit it allocates a stream of short-lived objects and prints the young generation's size. */
const YOUNG_GENERATION_PROBE = [
  'data:text/javascript,',
  "import v8 from 'node:v8';",
  "process.on('exit', () => {",
  '  let keep = [];',
  '  for (let i = 0; i < 3e6; i += 1) { keep.push({ i }); if (keep.length > 1000) keep = []; }',
  "  const space = v8.getHeapSpaceStatistics().find((each) => each.space_name === 'new_space');",
  "  process.stdout.write('new_space ' + space.space_size + '\\n');",
  '});',
].join(' ');

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'shop-inbox-tuning-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function run(args: string[], script = CLI) {
  return spawnSync(
    process.execPath,
    ['--import', YOUNG_GENERATION_PROBE, ...(script ? [script] : []), ...args],
    {
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, 'cache') },
    },
  );
}

const youngGeneration = (stdout: string) => Number(/new_space (\d+)/.exec(stdout)?.[1]);

describe('the process the CLI runs in', () => {
  it('keeps its young generation at its starting size under allocation (plain node lets it grow)', () => {
    const cli = run(['--version']);
    expect(cli.status, cli.stderr).toBe(0);
    const plain = run(['-e', '0'], '');
    expect(plain.status, plain.stderr).toBe(0);
    expect(youngGeneration(plain.stdout)).toBeGreaterThan(2 * 1024 * 1024);
    expect(youngGeneration(cli.stdout)).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it(`sets only flags Node ${process.versions.node} knows (V8 ignores one it does not, a misspelt one too)`, () => {
    // On the command line an unknown flag is refused; set from the program it would be dropped unsaid.
    for (const flag of RUNTIME_FLAGS) {
      const known = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
      expect(known.status, `${flag}: ${known.stderr}`).toBe(0);
    }
    const misspelt = spawnSync(process.execPath, ['--heap-growing-percentage=50', '-e', '0'], {
      encoding: 'utf8',
    });
    expect(misspelt.status).not.toBe(0);
  });

  it.runIf(NODE_MAJOR >= 22)(
    `Node ${process.versions.node}: compiled code is cached in the user's own 0700 directory, and used from there`,
    () => {
      const dir = join(home, 'cache', 'shop-inbox', 'compiled');
      expect(run(['--version']).status).toBe(0);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(home, 'cache', 'shop-inbox')).mode & 0o777).toBe(0o700);
      expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0);
    },
  );

  it.runIf(NODE_MAJOR >= 22)('a cache directory others can write to is never used', () => {
    const dir = join(home, 'cache', 'shop-inbox', 'compiled');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o777);
    expect(run(['--version']).status).toBe(0);
    expect(readdirSync(dir)).toEqual([]);

    // The same for a directory above it that others could swap.
    rmSync(join(home, 'cache'), { recursive: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(join(home, 'cache', 'shop-inbox'), 0o775);
    expect(run(['--version']).status).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(NODE_MAJOR < 22)(
    `Node ${process.versions.node} has no compile cache: no directory is made`,
    () => {
      expect(run(['--version']).status).toBe(0);
      expect(() => statSync(join(home, 'cache'))).toThrow();
    },
  );
});
