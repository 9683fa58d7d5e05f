// `npm run bench`: bundles bench/figures.ts (it starts the simulator and drives the
// built CLI in a pseudo-terminal) and runs it with the GC exposed. `--quick` for a short run;
// `--soak-only [--soak-minutes N] [--soak-warm-up-minutes N] [--soak-shared-hub] [--soak-cli PATH]` for the
// live soak alone; `--start [--before PATH] [--cli PATH] [--shop-latency MS] [--snapshot-blob PATH]` for the
// start-up alone (bench/figures.ts).
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_ALIASES } from './bundle-options.mjs';

// Inside node_modules, so that node-pty and esbuild resolve from the bundle as from the project.
const dir = join('node_modules', '.cache', 'shop-inbox-bench');
await mkdir(dir, { recursive: true });
const outfile = join(dir, 'figures.mjs');
try {
  await build({
    entryPoints: ['bench/figures.ts'],
    outfile,
    bundle: true,
    alias: BUNDLE_ALIASES,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['node-pty', 'esbuild'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, ['--expose-gc', outfile, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
