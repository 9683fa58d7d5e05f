/**
 * Every cell Ink draws, and every cell the line diff compares, is an object
 * from @alcalzone/ansi-tokenize's styledCharsFromTokens. As shipped it is made
 * with a spread, and once V8 optimizes that function each cell gets a hidden
 * class of its own (a map, a descriptor array and a property array beside a
 * 48-byte object): a heap snapshot of the live inbox held one map per cell.
 * The tokenizer is patched to write the object out (patches/, applied at install). This
 * bundles the tokenizer as the CLI does, optimizes the function for certain
 * (V8's own test hooks, not a number of calls that may or may not be enough)
 * and asks V8 whether the cells share one hidden class.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { INK_BUNDLE } from '../../scripts/bundle-options.mjs';

const PROGRAM = `
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
// V8's test hooks, parsed only with --allow-natives-syntax (a Function body, which esbuild does not read).
const prepare = new Function('f', '%PrepareFunctionForOptimization(f)');
const optimizeNext = new Function('f', '%OptimizeFunctionOnNextCall(f)');
// Bit 4 of the status: optimized code runs (TurboFan's, in Node 20).
const optimized = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const cells = (text) => styledCharsFromTokens(tokenize(text));
prepare(styledCharsFromTokens);
cells('\\u001b[1mwarm\\u001b[22m up');
cells('plain');
optimizeNext(styledCharsFromTokens);
const line = cells('\\u001b[1mRivera Plumbing\\u001b[22m \\u001b[36m+15035550170\\u001b[39m 💧');
const another = cells('Any update?');
const first = line[0];
process.stdout.write(JSON.stringify({
  optimized: optimized(styledCharsFromTokens),
  cells: line.length,
  sharing: line.filter((cell) => sameMap(cell, first)).length,
  acrossLines: sameMap(another[0], first),
}));
`;

let dir = '';
let program = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shop-inbox-styled-chars-'));
  const entry = join(dir, 'entry.mjs');
  await writeFile(entry, PROGRAM);
  program = join(dir, 'program.mjs');
  await build({
    ...INK_BUNDLE,
    entryPoints: [entry],
    outfile: program,
    nodePaths: [join(process.cwd(), 'node_modules')],
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("the CLI's bundle makes every cell of every line with one hidden class, also once V8 has optimized the tokenizer", () => {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', program], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as {
    optimized: boolean;
    cells: number;
    sharing: number;
    acrossLines: boolean;
  };
  expect(result.optimized).toBe(true);
  expect(result.cells).toBeGreaterThan(20);
  expect(result.sharing).toBe(result.cells);
  expect(result.acrossLines).toBe(true);
});
