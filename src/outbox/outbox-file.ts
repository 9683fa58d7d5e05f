/**
 * The outbox on disk: texts staff confirmed that are not yet known to be
 * sent, each with its Idempotency-Key and exact body, so that a restart or a
 * crash resumes them with the same key (the service then sends nothing
 * twice) instead of losing them. One file per shop API, mode 0600 in a
 * 0700 directory: it holds customer names, numbers and texts.
 *
 * Several processes of one user may share the file: each rewrites only its
 * own entries and keeps the others'.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { stateDir } from '../config/paths.js';
import { writePrivateFile } from '../config/private-file.js';
import type { OutgoingText } from '../store/app-store.js';

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
});
const StoredOutbox = z.looseObject({ version: z.literal(1), texts: z.array(z.unknown()) });

export interface OutboxPersistence {
  load(): Promise<OutgoingText[]>;
  /** Replaces this process's entries with `pending` (texts still sending or waiting). */
  save(pending: readonly OutgoingText[]): Promise<void>;
}

export class OutboxFile implements OutboxPersistence {
  /** Entries this process created or took over: the only ones it rewrites. */
  private readonly owned = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /**
   * The file of one shop's API. Named by its base URL, not its key: after the
   * key is rotated (a 401), the texts still waiting resume with the new one.
   */
  static forShop(env: NodeJS.ProcessEnv, baseUrl: string): OutboxFile {
    const id = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
    return new OutboxFile(join(stateDir(env), `outbox-${id}.json`));
  }

  async load(): Promise<OutgoingText[]> {
    const texts = await this.read();
    for (const text of texts) this.owned.add(text.localId);
    return texts;
  }

  save(pending: readonly OutgoingText[]): Promise<void> {
    for (const text of pending) this.owned.add(text.localId);
    // Writes happen one after another, each with the state of its moment.
    const next = this.queue.then(async () => {
      const others = (await this.read()).filter((text) => !this.owned.has(text.localId));
      const texts = [...others, ...pending].map(
        ({ reason: _reason, retryAt: _retryAt, finishedAt: _f, ...text }) => text,
      );
      await writePrivateFile(this.path, `${JSON.stringify({ version: 1, texts }, null, 1)}\n`);
    });
    this.queue = next.catch(() => {});
    return next;
  }

  private async read(): Promise<OutgoingText[]> {
    let raw: string;
    try {
      raw = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return [];
    }
    const parsed = StoredOutbox.safeParse(json);
    if (!parsed.success) return [];
    return parsed.data.texts.flatMap((entry) => {
      const text = StoredText.safeParse(entry);
      return text.success ? [{ ...text.data, state: 'waiting' as const }] : [];
    });
  }
}
