// `npm run docs [-- --check]`: bundles scripts/docs/main.ts (it reads the command registry and the verb
// table from src/) and runs it from the project's root.
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { INK_BUNDLE } from './bundle-options.mjs';

const dir = join('node_modules', '.cache', `shop-inbox-docs-${process.pid}`);
await mkdir(dir, { recursive: true });
const outfile = join(dir, 'docs.mjs');
try {
  await build({ ...INK_BUNDLE, entryPoints: ['scripts/docs/main.ts'], outfile, logLevel: 'warning' });
  const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
