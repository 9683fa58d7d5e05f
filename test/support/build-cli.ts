/** Vitest global setup: bundles dist/cli.js once, so CLI tests never run a stale build. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
