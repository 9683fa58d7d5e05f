/**
 * Watching where the key comes from, so that a running inbox whose key was
 * refused picks up the one `shop-inbox login` (or an editor) saves next.
 *
 * Key files are replaced by an atomic rename (see private-file.ts), so the
 * directory is watched, not the file. fs.watch is not reliable everywhere
 * (network file systems send no events, inotify watches can run out), so the
 * files are also read again every few seconds. Every read applies the rules
 * of a start-up: a key file others could read or change is refused, and so
 * is a broken config.json.
 */
import { type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config-error.js';
import { readConfig } from './config-file.js';
import { readKeyFileIfPresent } from './key-file.js';
import { configDir, keyFilePath } from './paths.js';
import { readSavedKey } from './settings.js';
import { shopKeyFilePath } from './shops.js';

/** Where a running inbox's key came from. */
export type KeySource =
  /** SHOP_API_KEY: it cannot change while the process runs. */
  | { kind: 'env' }
  /** --key-file PATH. */
  | { kind: 'key-file'; path: string }
  /** The saved login: config.json and the key file it names (or the default one); `shop`: that shop's. */
  | { kind: 'config'; env: NodeJS.ProcessEnv; shop?: string };

export type WatchableKeySource = Exclude<KeySource, { kind: 'env' }>;

export interface KeyWatchOptions {
  source: WatchableKeySource;
  /** Each key read after a change (or on a poll); the caller decides whether it is new. */
  onKey(key: string): void;
  /** Why the key's files cannot be used right now (never containing the key), or undefined. */
  onProblem(problem: string | undefined): void;
  /** Reads again this often even without an event. Default 2 s. */
  pollMs?: number;
  /** Events within this time are one change. Default 150 ms. */
  debounceMs?: number;
}

export interface KeyWatch {
  stop(): void;
}

/** Where staff put a new key for this source, for the screen (`shop-inbox login` saves it there too). */
export function keyLocation(source: WatchableKeySource): string {
  if (source.kind === 'key-file') return source.path;
  return source.shop === undefined ? keyFilePath(source.env) : shopKeyFilePath(source.env, source.shop);
}

async function readKey(source: WatchableKeySource): Promise<{ key: string | undefined; dirs: string[] }> {
  if (source.kind === 'key-file') {
    return { key: await readKeyFileIfPresent(source.path), dirs: [dirname(source.path)] };
  }
  const dirs = [configDir(source.env)];
  const config = await readConfig(source.env);
  const keyFile = source.shop === undefined ? config?.key_file : config?.shops?.[source.shop]?.key_file;
  if (keyFile) dirs.push(dirname(keyFile));
  return { key: await readSavedKey(source.env, config, source.shop), dirs };
}

export function watchKeySource(options: KeyWatchOptions): KeyWatch {
  const pollMs = options.pollMs ?? 2_000;
  const debounceMs = options.debounceMs ?? 150;
  const watchers = new Map<string, FSWatcher>();
  let stopped = false;
  let checking = false;
  let again = false;
  let debounce: NodeJS.Timeout | undefined;

  /** Watches each directory once; one that cannot be watched is left to the polling. */
  const arm = (dirs: string[]) => {
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, () => soon());
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // Missing directory, no inotify watches left, unsupported file system: the poll covers it.
      }
    }
  };

  const check = async () => {
    if (stopped) return;
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      const { key, dirs } = await readKey(options.source).catch(async (error: unknown) => {
        if (!(error instanceof ConfigError)) throw error;
        options.onProblem(error.message);
        return { key: undefined, dirs: [] as string[] };
      });
      if (stopped) return;
      // A broken config.json names no directory: the config directory still shows its repair.
      arm(dirs.length > 0 ? dirs : [dirname(keyLocation(options.source))]);
      if (key !== undefined) {
        options.onProblem(undefined);
        options.onKey(key);
      }
    } catch (error) {
      if (!stopped) options.onProblem(`cannot read the key: ${(error as Error).message}`);
    } finally {
      checking = false;
      if (again && !stopped) {
        again = false;
        soon();
      }
    }
  };

  const soon = () => {
    if (stopped) return;
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => void check(), debounceMs);
    debounce.unref?.();
  };

  const poll = setInterval(() => void check(), pollMs);
  poll.unref?.();
  void check();

  return {
    stop() {
      stopped = true;
      clearInterval(poll);
      if (debounce) clearTimeout(debounce);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
