/**
 * Every cell Ink draws, and every cell the line diff compares, is an object
 * from @alcalzone/ansi-tokenize's styledCharsFromTokens. As shipped it is made
 * with a spread, and once V8 (Node 20's) optimizes that function each cell gets a
 * hidden class of its own (a map, a descriptor array and a property array beside
 * a 48-byte object): a heap snapshot of the live inbox held one map per cell.
 * The tokenizer is patched to write the object out, and to make each cell once
 * per style and grapheme (patches/, applied at install). This bundles the
 * tokenizer as the CLI does, warms it on lines like the inbox's, optimizes it for
 * certain (V8's own test hooks, not a number of calls that may or may not be
 * enough) and asks V8 whether cells it had never made before share one hidden class.
 *
 * Optimized code may give up at once where its feedback was thin (Node 22 and 24
 * gather feedback lazily: "insufficient type feedback" at the cell table's first
 * `new Map`). V8 then gathers more and optimizes again; so does this, a few times,
 * before it reads the cells.
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
// Bit 4 of the status: optimized code runs (TurboFan's).
const optimized = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const cells = (text) => styledCharsFromTokens(tokenize(text));
const ESC = '\\u001b';
// Styles as Ink writes them: each opened and closed around a piece of text, now and then a reset.
const STYLES = [
  ['', ''],
  [ESC + '[1m', ESC + '[22m'],
  [ESC + '[36m', ESC + '[39m'],
  [ESC + '[7m', ESC + '[27m'],
  [ESC + '[2m', ESC + '[22m'],
  [ESC + '[3m', ESC + '[23m'],
  [ESC + '[1m' + ESC + '[36m', ESC + '[39m' + ESC + '[22m'],
  [ESC + '[38;5;208m', ESC + '[0m'],
];
const WORDS = ['Rivera', 'Plumbing', '+15035550170', 'Any update?', '💧', 'new', '~', '│', 'Åkesson'];
let seed = 7;
const pick = (list) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return list[seed % list.length];
};
const inboxLine = (word) => {
  let text = '';
  for (let i = 0; i < 8; i += 1) {
    const [open, close] = pick(STYLES);
    text += open + word() + close + ' ';
  }
  return text;
};
// Letters never drawn before (Cyrillic, in turn), so that the optimized code makes their cells.
let unseen = 0x410;
const freshWord = () => {
  let word = '';
  for (let i = 0; i < 4; i += 1) word += String.fromCodePoint(unseen++);
  return word;
};
for (let i = 0; i < 500; i += 1) cells(inboxLine(() => pick(WORDS)));
let attempts = 0;
let line = [];
while (attempts < 10) {
  attempts += 1;
  prepare(styledCharsFromTokens);
  cells(inboxLine(() => pick(WORDS)));
  optimizeNext(styledCharsFromTokens);
  line = cells(inboxLine(freshWord));
  if (optimized(styledCharsFromTokens)) break;
}
const another = cells(inboxLine(freshWord));
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
