/**
 * The outbox on disk: texts staff confirmed that are not yet known to be
 * sent, each with its Idempotency-Key and exact body, so that a restart or a
 * crash resumes them with the same key (the service then sends nothing
 * twice) instead of losing them. Mode 0600 in a 0700 directory: it holds
 * customer names, numbers and texts.
 *
 * One file per shop API and key: a text belongs to the shop and the key that
 * confirmed it, and only that key ever sends it. The file is named by a hash
 * of the base URL and a fingerprint of the key (never the key), and every
 * entry carries the fingerprint too, checked again on load.
 *
 * Several processes of one user may share the file. Every read-modify-write,
 * and the read that takes texts over, holds a lock across processes
 * (proper-lockfile: a lock directory next to the file, given up as stale when
 * its holder stopped refreshing it, e.g. after kill -9). Each process
 * rewrites only its own entries and keeps the others' as they are, unknown
 * ones included. Each entry names the process that wrote it: a process takes
 * over only texts whose writer no longer runs (or itself), so two live
 * terminals never both retry one text.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { keyFingerprint } from '../config/key-fingerprint.js';
import { stateDir } from '../config/paths.js';
import { ensurePrivateDir, writePrivateFile } from '../config/private-file.js';
import type { OutgoingText } from '../store/app-store.js';
import { isAlive, isThisProcess, thisProcess } from './process-owner.js';

const StoredOwner = z.looseObject({ pid: z.int(), host: z.string(), start: z.string().optional() });

const StoredText = z.looseObject({
  localId: z.string(),
  contactId: z.string(),
  contactName: z.string(),
  phone: z.string(),
  leadId: z.string().optional(),
  body: z.string(),
  idempotencyKey: z.string(),
  confirmedAt: z.number(),
  attempts: z.number(),
  /** Fingerprint of the key that confirmed the text: the only key that may send it. */
  keyId: z.string(),
  /** The process that wrote it last; none when it was given up for any process of the key to take. */
  owner: StoredOwner.optional(),
});
type StoredText = z.infer<typeof StoredText>;

const StoredOutbox = z.looseObject({ version: z.number(), texts: z.array(z.unknown()) });
const FORMAT_VERSION = 2;

export interface OutboxPersistence {
  /** Takes over the texts of this key whose writer no longer runs, and returns them. */
  load(): Promise<OutgoingText[]>;
  /** Replaces this process's entries with `pending` (texts still sending or waiting). */
  save(pending: readonly OutgoingText[]): Promise<void>;
  /** Gives this process's entries up, so that any later process of the same key takes them over. */
  release?(): Promise<void>;
  /** How many texts confirmed with other keys of the same API wait in their own files, and in which folder. */
  keptForOtherKeys?(): Promise<{ count: number; where: string }>;
}

export interface OutboxFileOptions {
  /**
   * A lock not refreshed for this long is taken as left by a dead process.
   * Default 5 s (proper-lockfile's floor is 2 s); every process of a file must use the same.
   */
  staleLockMs?: number;
}

const DEFAULT_STALE_LOCK_MS = 5_000;

/** The hash naming one API in file names. */
function apiId(baseUrl: string): string {
  return createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
}

const localIdOf = (entry: unknown): unknown =>
  typeof entry === 'object' && entry !== null ? (entry as { localId?: unknown }).localId : undefined;

export class OutboxFile implements OutboxPersistence {
  /** Entries this process created or took over: the only ones it rewrites. */
  private readonly owned = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly staleLockMs: number;

  constructor(
    readonly path: string,
    /** Fingerprint of the key this process sends with. */
    private readonly keyId: string,
    options: OutboxFileOptions = {},
  ) {
    this.staleLockMs = Math.max(2_000, options.staleLockMs ?? DEFAULT_STALE_LOCK_MS);
  }

  /** The file of one shop API and one key, in the user's state directory. */
  static forKey(
    env: NodeJS.ProcessEnv,
    baseUrl: string,
    apiKey: string,
    options: OutboxFileOptions = {},
  ): OutboxFile {
    const keyId = keyFingerprint(apiKey);
    const name = `outbox-${apiId(baseUrl)}-${keyId.slice(0, 16)}.json`;
    return new OutboxFile(join(stateDir(env), name), keyId, options);
  }

  load(): Promise<OutgoingText[]> {
    return this.exclusive(async (entries) => {
      const taken: OutgoingText[] = [];
      const next = entries.map((entry) => {
        const parsed = StoredText.safeParse(entry);
        // Another key's text, or one this version cannot read: never taken, kept as it is.
        if (!parsed.success || parsed.data.keyId !== this.keyId) return entry;
        if (this.owned.has(parsed.data.localId)) return entry;
        const { owner } = parsed.data;
        if (owner && !isThisProcess(owner) && isAlive(owner)) return entry;
        taken.push(toOutgoing(parsed.data));
        return { ...(entry as object), owner: thisProcess() };
      });
      for (const text of taken) this.owned.add(text.localId);
      return { result: taken, write: taken.length > 0 ? next : undefined };
    });
  }

  save(pending: readonly OutgoingText[]): Promise<void> {
    for (const text of pending) this.owned.add(text.localId);
    // Writes happen one after another, each with the state of its moment.
    return this.exclusive(async (entries) => {
      const others = entries.filter((entry) => {
        const localId = localIdOf(entry);
        return typeof localId !== 'string' || !this.owned.has(localId);
      });
      return { result: undefined, write: [...others, ...pending.map((text) => this.stored(text))] };
    });
  }

  release(): Promise<void> {
    if (this.owned.size === 0) return Promise.resolve();
    return this.exclusive(async (entries) => {
      const next = entries.map((entry) => {
        const localId = localIdOf(entry);
        if (typeof localId !== 'string' || !this.owned.has(localId)) return entry;
        const { owner: _owner, ...rest } = entry as Record<string, unknown>;
        return rest;
      });
      this.owned.clear();
      return { result: undefined, write: next };
    });
  }

  async keptForOtherKeys(): Promise<{ count: number; where: string }> {
    const dir = dirname(this.path);
    const api = basename(this.path).split('-')[1];
    // This API's files of other keys, and its single file from before outboxes were kept per key.
    const sibling = new RegExp(`^outbox-${api}(-[0-9a-f]{16})?\\.json$`);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return { count: 0, where: dir };
    }
    let count = 0;
    for (const name of names) {
      if (!sibling.test(name) || name === basename(this.path)) continue;
      const parsed = StoredOutbox.safeParse(await readJson(join(dir, name)));
      if (parsed.success) count += parsed.data.texts.length;
    }
    return { count, where: dir };
  }

  private stored(text: OutgoingText): Record<string, unknown> {
    const { reason: _reason, retryAt: _retryAt, finishedAt: _finished, state: _state, ...kept } = text;
    return { ...kept, keyId: this.keyId, owner: thisProcess() };
  }

  /**
   * Runs `task` on the file's entries while holding the lock across
   * processes, and writes what it returns; one task at a time in this process.
   */
  private exclusive<T>(task: (entries: unknown[]) => Promise<{ result: T; write?: unknown[] }>): Promise<T> {
    const run = this.queue.then(async () => {
      const release = await this.lock();
      try {
        const { result, write } = await task(await this.readEntries());
        if (write) {
          await writePrivateFile(
            this.path,
            `${JSON.stringify({ version: FORMAT_VERSION, texts: write }, null, 1)}\n`,
          );
        }
        return result;
      } finally {
        await release().catch(() => {});
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async lock(): Promise<() => Promise<void>> {
    await ensurePrivateDir(dirname(this.path));
    // Loaded on first use: the commands that never touch the outbox do not pay for it.
    // A CommonJS module: its exports are the default export, in Node and in the bundle alike.
    const { default: lockfile } = await import('proper-lockfile');
    // Waits out a lock left by a killed process (stale after staleLockMs), then gives up.
    const retries = Math.ceil((this.staleLockMs * 1.5) / 250) + 6;
    try {
      return await lockfile.lock(this.path, {
        // The file may not exist yet: lock its name, not its resolved path.
        realpath: false,
        stale: this.staleLockMs,
        update: 1_000,
        retries: { retries, factor: 1.5, minTimeout: 25, maxTimeout: 250, randomize: true },
        // Held for milliseconds; a lock that went stale meanwhile (the machine slept) is no reason to crash.
        onCompromised: () => {},
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
        throw new Error(`the outbox file ${this.path} stayed locked by another shop-inbox`);
      }
      throw error;
    }
  }

  /** The entries as stored, unparsed; a file that is not an outbox is set aside (never overwritten). */
  private async readEntries(): Promise<unknown[]> {
    const json = await readJson(this.path);
    if (json === undefined) return [];
    const parsed = StoredOutbox.safeParse(json);
    if (parsed.success) return parsed.data.texts;
    await rename(this.path, `${this.path}.unreadable-${Date.now()}`);
    return [];
  }
}

/** The file's JSON, undefined when there is no file, null when it is not JSON. */
async function readJson(path: string): Promise<unknown> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function toOutgoing(text: StoredText): OutgoingText {
  return {
    localId: text.localId,
    contactId: text.contactId,
    contactName: text.contactName,
    phone: text.phone,
    ...(text.leadId !== undefined ? { leadId: text.leadId } : {}),
    body: text.body,
    idempotencyKey: text.idempotencyKey,
    confirmedAt: text.confirmedAt,
    attempts: text.attempts,
    state: 'waiting',
  };
}
