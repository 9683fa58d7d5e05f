/** Vitest global setup: bundles dist/cli.js once, so CLI tests never run a stale build. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  // Which Node this run is on: CI runs the suite on several (.ci/run), and every test that spawns
  // the CLI or a pty uses this same binary (process.execPath).
  process.stdout.write(`tests on Node ${process.version} (${process.execPath})\n`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
