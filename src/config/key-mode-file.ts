/**
 * What the shop last said a key may do (write, or read only), remembered per
 * shop API and key in the user's state directory, so that the next start
 * shows [READ-ONLY] on its first frame, and the other terminals of the same
 * key learn what one of them learned.
 *
 * One small file per API and key, named like the outbox by a hash of the
 * base URL and the key's one-way fingerprint; it holds the fingerprint (checked
 * on every read), never the key. Written atomically, 0600 in a 0700 directory.
 * A file this user does not own, that others could change, or that does not
 * parse is not believed: the mode is then simply not known yet.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, type Stats, unwatchFile, watchFile } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { keyFingerprint } from './key-fingerprint.js';
import { stateDir } from './paths.js';
import { writePrivateFile } from './private-file.js';

export const KNOWN_KEY_MODES = ['read', 'write'] as const;

/** An answer of the shop about a key: its mode, how it was learned, and when (ms, this machine's clock). */
export interface RememberedKeyMode {
  mode: (typeof KNOWN_KEY_MODES)[number];
  /** The probe (a write that changes nothing), a real write refused with read_only, or one accepted. */
  how: 'probe' | 'refused' | 'accepted';
  at: number;
}

export interface KeyModeMemory {
  /** What is remembered for this key, read at once (the first frame shows it); undefined when nothing is. */
  recall(): RememberedKeyMode | undefined;
  /** Keeps an answer for later starts and the other terminals of this key; a newer one already kept stays. */
  remember(answer: RememberedKeyMode): Promise<void>;
  /** Calls back with what another process (or this one) remembers from now on; returns how to stop. */
  watch(onChange: (answer: RememberedKeyMode) => void): () => void;
}

const Stored = z.object({
  version: z.literal(1),
  keyId: z.string(),
  mode: z.enum(KNOWN_KEY_MODES),
  how: z.enum(['probe', 'refused', 'accepted']),
  at: z.number().finite().nonnegative(),
});

/** Far more than the file ever holds. */
const MAX_FILE_BYTES = 4_096;
/** How often the file is looked at for another terminal's answer (a stat; read only when it changed). */
const DEFAULT_WATCH_MS = 1_000;

export interface KeyModeFileOptions {
  /** How often the file is checked for changes. Default 1 s. */
  watchMs?: number;
}

/** Whether the file can be believed: this user's own regular file that nobody else can change. */
function trusted(info: Stats): boolean {
  const uid = process.getuid?.();
  return (
    info.isFile() &&
    info.size <= MAX_FILE_BYTES &&
    (uid === undefined || info.uid === uid) &&
    (info.mode & 0o022) === 0
  );
}

export class KeyModeFile implements KeyModeMemory {
  private readonly watchMs: number;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    /** Fingerprint of the key: the file says nothing about any other. */
    private readonly keyId: string,
    options: KeyModeFileOptions = {},
  ) {
    this.watchMs = options.watchMs ?? DEFAULT_WATCH_MS;
  }

  /** The file of one shop API and key, in the user's state directory. */
  static forKey(
    env: NodeJS.ProcessEnv,
    baseUrl: string,
    apiKey: string,
    options: KeyModeFileOptions = {},
  ): KeyModeFile {
    const keyId = keyFingerprint(apiKey);
    const api = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
    return new KeyModeFile(join(stateDir(env), `key-mode-${api}-${keyId.slice(0, 16)}.json`), keyId, options);
  }

  recall(): RememberedKeyMode | undefined {
    try {
      if (!trusted(lstatSync(this.path))) return undefined;
      return this.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return undefined;
    }
  }

  remember(answer: RememberedKeyMode): Promise<void> {
    // One at a time: two answers learned moments apart must not land in the wrong order.
    const next = this.writing.then(async () => {
      const kept = await this.read();
      if (kept && kept.at > answer.at) return;
      const stored: z.infer<typeof Stored> = { version: 1, keyId: this.keyId, ...answer };
      await writePrivateFile(this.path, `${JSON.stringify(stored)}\n`);
    });
    this.writing = next.catch(() => {});
    return next;
  }

  watch(onChange: (answer: RememberedKeyMode) => void): () => void {
    let stopped = false;
    const listener = (current: Stats, previous: Stats) => {
      if (current.mtimeMs === previous.mtimeMs && current.ino === previous.ino) return;
      void this.read().then((answer) => {
        if (answer && !stopped) onChange(answer);
      });
    };
    watchFile(this.path, { interval: this.watchMs, persistent: false }, listener);
    return () => {
      stopped = true;
      unwatchFile(this.path, listener);
    };
  }

  private async read(): Promise<RememberedKeyMode | undefined> {
    try {
      if (!trusted(await lstat(this.path))) return undefined;
      return this.parse(await readFile(this.path, 'utf8'));
    } catch {
      return undefined;
    }
  }

  private parse(text: string): RememberedKeyMode | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = Stored.safeParse(json);
    if (!parsed.success || parsed.data.keyId !== this.keyId) return undefined;
    const { mode, how, at } = parsed.data;
    return { mode, how, at };
  }
}
