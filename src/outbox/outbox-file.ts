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
 *
 * Torn writes: every write replaces the whole file (it is small, and each
 * process rewrites its own entries among the others'), so the new content is
 * written to a temporary file, synced, renamed over the old one, and the
 * directory synced: after a crash or a power cut the file is the old one or
 * the new one, whole, and a write that resolved is on the disk. An append-only
 * journal would need compaction under the same lock for no gain here. Damage
 * that happens anyway (a disk error, a copy cut short, an edit by hand) costs
 * only the entries it touched: each entry has a checksum (outbox-format.ts),
 * every intact one is read and kept, and the damaged file is kept aside,
 * whole, as `….unreadable-<ms>` and reported. Nothing is dropped in silence.
 *
 * A lock holder that is frozen (SIGSTOP, a stalled terminal) stops refreshing
 * its lock, and after the stale time another process takes it. So the file is
 * read again right before every rename: if anyone wrote since this process
 * read it, the change is computed again from what is there now, and nothing
 * another process added is written over. (What is left is the instant between
 * that check and the rename.)
 */
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { keyFingerprint } from '../config/key-fingerprint.js';
import { stateDir } from '../config/paths.js';
import {
  ensurePrivateDir,
  nodeFileSystem,
  type PrivateFileSystem,
  preparePrivateFile,
  writePrivateFile,
} from '../config/private-file.js';
import type { OutgoingText } from '../store/app-store.js';
import { explainOutboxError, OutboxError, OutboxLockedError } from './outbox-error.js';
import { type OutboxDamage, type ParsedOutbox, parseOutbox, serializeOutbox } from './outbox-format.js';
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

/** A damaged outbox file that was read: what was kept of it, and where the file as it was is kept. */
export interface OutboxDamageReport extends OutboxDamage {
  /** Entries read whole from it (texts of every key and process): they stay in the outbox. */
  recovered: number;
  /** Texts of this key among them. */
  recoveredForKey: number;
  /** The damaged file, byte for byte (mode 0600). */
  keptAt: string;
}

export interface OutboxPersistence {
  /** Takes over the texts of this key whose writer no longer runs, and returns them. */
  load(): Promise<OutgoingText[]>;
  /** Replaces this process's entries with `pending` (texts still sending or waiting); on disk once resolved. */
  save(pending: readonly OutgoingText[]): Promise<void>;
  /** Gives this process's entries up, so that any later process of the same key takes them over. */
  release?(): Promise<void>;
  /** How many texts confirmed with other keys of the same API wait in their own files, and in which folder. */
  keptForOtherKeys?(): Promise<{ count: number; where: string }>;
  /** `report` is called whenever a damaged file was read, its intact entries kept, and the file set aside. */
  onDamage?(report: (damage: OutboxDamageReport) => void): void;
}

export interface OutboxFileOptions {
  /**
   * A lock not refreshed for this long is taken as left by a dead process.
   * Default 5 s (proper-lockfile's floor is 2 s); every process of a file must use the same.
   */
  staleLockMs?: number;
  /** The file system (tests give one that fails as a full or read-only disk does). */
  fs?: PrivateFileSystem;
  /** Names the copies of damaged files. */
  now?: () => number;
}

const DEFAULT_STALE_LOCK_MS = 5_000;
/** Rounds of read, change, check: each lost only to a process that wrote meanwhile. */
const MAX_WRITE_ROUNDS = 20;

/** The hash naming one API in file names. */
function apiId(baseUrl: string): string {
  return createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
}

const localIdOf = (entry: unknown): unknown =>
  typeof entry === 'object' && entry !== null ? (entry as { localId?: unknown }).localId : undefined;

/** What a task under the lock decided: its result, what to write (if anything), what to do once written. */
interface Step<T> {
  result: T;
  write?: unknown[];
  /** Runs once the write is on disk (or at once when there is nothing to write). */
  commit?: () => void;
}

export class OutboxFile implements OutboxPersistence {
  /** Entries this process created or took over: the only ones it rewrites. */
  private readonly owned = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly staleLockMs: number;
  private readonly fs: PrivateFileSystem;
  private readonly now: () => number;
  private readonly damageListeners: Array<(damage: OutboxDamageReport) => void> = [];

  constructor(
    readonly path: string,
    /** Fingerprint of the key this process sends with. */
    private readonly keyId: string,
    options: OutboxFileOptions = {},
  ) {
    this.staleLockMs = Math.max(2_000, options.staleLockMs ?? DEFAULT_STALE_LOCK_MS);
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
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
    return this.take(() => true);
  }

  /**
   * Takes over only the texts of this key that `match` picks among those whose writer no longer runs (a
   * command sending one text resumes that text, and leaves the others to the inbox). Returns them.
   */
  take(match: (text: OutgoingText) => boolean): Promise<OutgoingText[]> {
    return this.exclusive((entries) => {
      const taken: OutgoingText[] = [];
      const next = entries.map((entry) => {
        const parsed = StoredText.safeParse(entry);
        if (!parsed.success || parsed.data.keyId !== this.keyId) return entry;
        if (this.owned.has(parsed.data.localId)) return entry;
        const { owner } = parsed.data;
        if (owner && !isThisProcess(owner) && isAlive(owner)) return entry;
        const text = toOutgoing(parsed.data);
        if (!match(text)) return entry;
        taken.push(text);
        return { ...(entry as object), owner: thisProcess() };
      });
      return {
        result: taken,
        ...(taken.length > 0 ? { write: next } : {}),
        commit: () => {
          for (const text of taken) this.owned.add(text.localId);
        },
      };
    });
  }

  save(pending: readonly OutgoingText[]): Promise<void> {
    for (const text of pending) this.owned.add(text.localId);
    // Writes happen one after another, each with the state of its moment.
    return this.exclusive((entries) => {
      const others = entries.filter((entry) => {
        const localId = localIdOf(entry);
        return typeof localId !== 'string' || !this.owned.has(localId);
      });
      return { result: undefined, write: [...others, ...pending.map((text) => this.stored(text))] };
    });
  }

  release(): Promise<void> {
    if (this.owned.size === 0) return Promise.resolve();
    return this.exclusive((entries) => {
      const next = entries.map((entry) => {
        const localId = localIdOf(entry);
        if (typeof localId !== 'string' || !this.owned.has(localId)) return entry;
        const { owner: _owner, ...rest } = entry as Record<string, unknown>;
        return rest;
      });
      return { result: undefined, write: next, commit: () => this.owned.clear() };
    });
  }

  onDamage(report: (damage: OutboxDamageReport) => void): void {
    this.damageListeners.push(report);
  }

  async keptForOtherKeys(): Promise<{ count: number; where: string }> {
    const dir = dirname(this.path);
    const api = basename(this.path).split('-')[1];
    // This API's files of other keys, and its single file from before outboxes were kept per key.
    const sibling = new RegExp(`^outbox-${api}(-[0-9a-f]{16})?\\.json$`);
    let names: string[];
    try {
      names = await this.fs.readdir(dir);
    } catch {
      return { count: 0, where: dir };
    }
    let count = 0;
    for (const name of names) {
      if (!sibling.test(name) || name === basename(this.path)) continue;
      const bytes = await this.readBytes(join(dir, name)).catch(() => undefined);
      if (bytes) count += parseOutbox(bytes).entries.length;
    }
    return { count, where: dir };
  }

  /** What the file holds now, read without the lock and without changing anything (`shop-inbox status`). */
  async inspect(): Promise<OutboxInspection> {
    const dir = dirname(this.path);
    const bytes = await this.readBytes(this.path);
    const parsed: ParsedOutbox = bytes ? parseOutbox(bytes) : { entries: [] };
    const forKey = parsed.entries.filter((entry) => StoredText.safeParse(entry).data?.keyId === this.keyId);
    const names = await this.fs.readdir(dir).catch(() => [] as string[]);
    const prefix = `${basename(this.path)}.unreadable-`;
    const keptAside: OutboxInspection['keptAside'] = [];
    for (const name of names.filter((candidate) => candidate.startsWith(prefix)).sort()) {
      const kept = await this.readBytes(join(dir, name)).catch(() => undefined);
      if (!kept) continue;
      const { entries, damage } = parseOutbox(kept);
      keptAside.push({
        path: join(dir, name),
        bytes: kept.byteLength,
        recovered: entries.length,
        unreadableBytes: damage?.unreadableBytes ?? 0,
      });
    }
    return {
      path: this.path,
      waiting: forKey.length,
      others: parsed.entries.length - forKey.length,
      ...(parsed.damage ? { damage: parsed.damage } : {}),
      keptAside,
    };
  }

  private stored(text: OutgoingText): Record<string, unknown> {
    const { reason: _reason, retryAt: _retryAt, finishedAt: _finished, state: _state, ...kept } = text;
    return { ...kept, keyId: this.keyId, owner: thisProcess() };
  }

  /**
   * Runs `task` on the file's entries while holding the lock across
   * processes, and writes what it returns; one task at a time in this process.
   * Rejects with an OutboxError that says in plain words what went wrong.
   */
  private exclusive<T>(task: (entries: unknown[]) => Step<T>): Promise<T> {
    const run = this.queue.then(async () => {
      try {
        const release = await this.lock();
        try {
          return await this.readChangeWrite(task);
        } finally {
          await release().catch(() => {});
        }
      } catch (error) {
        throw new OutboxError(explainOutboxError(error, this.path), error);
      }
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async readChangeWrite<T>(task: (entries: unknown[]) => Step<T>): Promise<T> {
    let keptAt: string | undefined;
    let kept: Buffer | undefined;
    for (let round = 1; ; round += 1) {
      const before = await this.readBytes(this.path);
      const parsed: ParsedOutbox = before ? parseOutbox(before) : { entries: [] };
      const { result, write, commit } = task(parsed.entries);
      if (!write && !parsed.damage) {
        commit?.();
        return result;
      }
      if (parsed.damage && before && !kept?.equals(before)) {
        // Kept whole before anything is written over it: what could not be read may still matter to someone.
        keptAt = `${this.path}.unreadable-${this.now()}`;
        await writePrivateFile(keptAt, before, this.fs);
        kept = before;
      }
      const prepared = await preparePrivateFile(this.path, serializeOutbox(write ?? parsed.entries), this.fs);
      // Checked after the slow part (the sync), right before the rename.
      if (!(await this.unchangedSince(before))) {
        await prepared.discard();
        if (round >= MAX_WRITE_ROUNDS) throw new Error('the outbox file kept changing while it was written');
        continue;
      }
      await prepared.publish();
      commit?.();
      if (parsed.damage && keptAt) this.reportDamage(parsed, keptAt);
      return result;
    }
  }

  private reportDamage(parsed: ParsedOutbox, keptAt: string): void {
    const report: OutboxDamageReport = {
      ...(parsed.damage as OutboxDamage),
      recovered: parsed.entries.length,
      recoveredForKey: parsed.entries.filter(
        (entry) => StoredText.safeParse(entry).data?.keyId === this.keyId,
      ).length,
      keptAt,
    };
    for (const listener of this.damageListeners) listener(report);
  }

  /** True when the file holds what was read (or still does not exist). */
  private async unchangedSince(before: Buffer | undefined): Promise<boolean> {
    const now = await this.readBytes(this.path);
    return now === undefined || before === undefined ? now === before : now.equals(before);
  }

  /** The lock across processes; waits out a holder for about the stale time, and only a holder. */
  private async lock(): Promise<() => Promise<void>> {
    await ensurePrivateDir(dirname(this.path), this.fs);
    // Loaded on first use: the commands that never touch the outbox do not pay for it.
    // A CommonJS module: its exports are the default export, in Node and in the bundle alike.
    const { default: lockfile } = await import('proper-lockfile');
    // Long enough to see a lock left by a killed process go stale (staleLockMs), then give up.
    const retries = Math.ceil((this.staleLockMs * 1.5) / 250) + 6;
    const started = performance.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await lockfile.lock(this.path, {
          // The file may not exist yet: lock its name, not its resolved path.
          realpath: false,
          stale: this.staleLockMs,
          update: 1_000,
          // Retried here, and only while another process holds it: a full or read-only disk is said at once.
          retries: 0,
          // Held for milliseconds; a lock taken over meanwhile is caught by the check before the rename.
          onCompromised: () => {},
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
        if (attempt >= retries) throw new OutboxLockedError(performance.now() - started);
        const wait = Math.min(250, 25 * 1.5 ** attempt) * (1 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** The file's bytes, undefined when there is none. */
  private async readBytes(path: string): Promise<Buffer | undefined> {
    try {
      return await this.fs.readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

/** The outbox as `shop-inbox status` reports it. */
export interface OutboxInspection {
  path: string;
  /** Texts of this key waiting to be sent. */
  waiting: number;
  /** Entries of other keys, or that this version cannot read, kept in the file. */
  others: number;
  /** The file is damaged: the next inbox of this key keeps what it can read and sets the file aside. */
  damage?: OutboxDamage;
  /** Damaged files set aside earlier, oldest first. */
  keptAside: Array<{ path: string; bytes: number; recovered: number; unreadableBytes: number }>;
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
