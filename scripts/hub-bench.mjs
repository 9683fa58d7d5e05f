// The hub bench (bench/hub.ts), run by hand: `node scripts/hub-bench.mjs share|kill|hubs [options]`.
// Bundles it (and the headless terminal it starts) and runs it; the figures go to BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_ALIASES } from './bundle-options.mjs';

const dir = join('node_modules', '.cache', `shop-inbox-hub-bench-${process.pid}`);
await mkdir(dir, { recursive: true });
const outfile = join(dir, 'hub.mjs');
try {
  await build({
    entryPoints: ['bench/hub.ts'],
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
  const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
