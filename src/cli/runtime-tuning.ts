/**
 * Process-wide settings, made first thing, before the code that needs them
 * loads. Staff run several copies of the inbox on one shared box (and a
 * wallboard), and start it over SSH: what one copy holds and how soon it
 * starts matter.
 */
import { mkdirSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { cacheDir } from '../config/paths.js';

/**
 * V8's flags for this process, both read by V8 as it runs (the sizes fixed when the heap is made are not):
 *
 * - The young generation kept at its starting size (2 × 1 MiB). V8 lets it grow under allocation (to
 *   2 × 16 MiB on Node 20 and 22, 2 × 64 MiB on Node 24), and a terminal UI allocates on every key press and
 *   frame: after a few keys it sits at its maximum for good, most of it resident. A key press costs a few
 *   more minor collections, well under a millisecond each on heaps this small (see BENCHMARKS.md).
 * - The old generation allowed to grow by half of what a full collection left before the next one. V8 picks
 *   the factor from its own speed, up to 4 × on small heaps: 200 keys left 104–115 MiB resident, where the
 *   inbox uses 25 MiB of heap, until V8 gave it back seconds or minutes later. With 1.5 ×, 89–91 MiB, for a
 *   few more full collections (see BENCHMARKS.md).
 */
export const RUNTIME_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=50'] as const;

export function tuneRuntime(env: NodeJS.ProcessEnv): void {
  setFlagsFromString(RUNTIME_FLAGS.join(' '));
  enableCompileCache(env);
}

/**
 * Node 22.1 and later keep the machine code of the modules they compile in a
 * directory, so the next start skips compiling them. The directory is this
 * user's own (0700, under XDG_CACHE_HOME), never the shared /tmp default: a
 * cache another user could write to would be code this process runs. Node 20
 * has no such cache; nothing is done there.
 */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof enable !== 'function') return;
  const dir = join(cacheDir(env), 'compiled');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Someone else's directory, or one others can write to (or swap for their own): start without the cache.
    if (![dirname(dir), dir].every(isPrivateDir)) return;
    enable(dir);
  } catch {
    // A read-only home or a full disk: start without the cache.
  }
}

function isPrivateDir(path: string): boolean {
  const info = statSync(path);
  const mine = typeof process.getuid !== 'function' || info.uid === process.getuid();
  return info.isDirectory() && mine && (info.mode & 0o022) === 0;
}
