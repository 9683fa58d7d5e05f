// The loopback owner check's cost (bench/loopback-check.ts), run by hand: `node scripts/loopback-bench.mjs`.
// Bundles it and runs it with the GC exposed; the figures go to BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_ALIASES } from './bundle-options.mjs';

const dir = join('node_modules', '.cache', `shop-inbox-loopback-bench-${process.pid}`);
await mkdir(dir, { recursive: true });
const outfile = join(dir, 'loopback-check.mjs');
try {
  await build({
    entryPoints: ['bench/loopback-check.ts'],
    outfile,
    bundle: true,
    alias: BUNDLE_ALIASES,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['esbuild'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, ['--expose-gc', outfile, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
