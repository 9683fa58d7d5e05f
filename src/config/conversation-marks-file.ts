/**
 * Read and done (src/store/conversation-marks.ts), kept per shop API and key
 * in the user's state directory so that they survive restarts: one small
 * file, named like the key-mode file by a hash of the base URL and the key's
 * one-way fingerprint, holding the fingerprint (checked on every read), never
 * the key. Written atomically, 0600 in a 0700 directory, merged with what the
 * file holds first (another terminal of this user may have written it). At
 * most MARKS_LIMIT leads. A file that cannot be read is a problem in words,
 * never a reason not to start.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import {
  type ConversationMarks,
  ConversationMarksSchema,
  marksFrom,
  mergeMarks,
} from '../store/conversation-marks.js';
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';
import { currentUid, octalMode } from './file-permissions.js';
import { keyFingerprint } from './key-fingerprint.js';
import { stateDir } from './paths.js';
import { writePrivateFile } from './private-file.js';

/** 2,000 leads of two times each fit in well under this. */
const MAX_FILE_BYTES = 512 * 1024;

const Stored = z.object({ version: z.literal(1), keyId: z.string(), marks: ConversationMarksSchema });

/** What the inbox keeps of read and done, wherever it keeps it. */
export interface ConversationMarksMemory {
  /** The marks kept, or why they cannot be read (the inbox then starts without them). */
  load(): Promise<{ marks: ConversationMarks } | { problem: string }>;
  /** Keeps these marks (merged with those kept already). */
  save(marks: ConversationMarks): Promise<void>;
}

export class ConversationMarksFile implements ConversationMarksMemory {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly keyId: string,
  ) {}

  static forKey(env: NodeJS.ProcessEnv, baseUrl: string, apiKey: string): ConversationMarksFile {
    const keyId = keyFingerprint(apiKey);
    const api = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
    return new ConversationMarksFile(
      join(stateDir(env), `conversations-${api}-${keyId.slice(0, 16)}.json`),
      keyId,
    );
  }

  async load(): Promise<{ marks: ConversationMarks } | { problem: string }> {
    try {
      const bytes = await this.read();
      return { marks: bytes ?? { leads: {} } };
    } catch (error) {
      return {
        problem: `read and done marks were not read from ${this.path} (${(error as Error).message}): starting without them`,
      };
    }
  }

  save(marks: ConversationMarks): Promise<void> {
    // One at a time, each merged with the file as it is then: marks only grow, whoever wrote last.
    const next = this.writing.then(async () => {
      let kept: ConversationMarks = { leads: {} };
      try {
        kept = (await this.read()) ?? kept;
      } catch {
        // A damaged or foreign file is replaced by this terminal's marks.
      }
      const merged = mergeMarks(kept, marks);
      const stored: z.infer<typeof Stored> = { version: 1, keyId: this.keyId, marks: merged };
      await writePrivateFile(this.path, `${JSON.stringify(stored)}\n`);
    });
    this.writing = next.catch(() => {});
    return next;
  }

  /** The marks in the file; undefined when there is none; throws a ConfigError saying why it is not used. */
  private async read(): Promise<ConversationMarks | undefined> {
    const uid = currentUid();
    const bytes = await readBoundedFile(this.path, {
      maxBytes: MAX_FILE_BYTES,
      name: 'the file',
      check: (info) => {
        if (uid !== undefined && info.uid !== uid) return `it belongs to another user (uid ${info.uid})`;
        if ((info.mode & 0o022) !== 0) return `others can change it (mode ${octalMode(info)})`;
        return undefined;
      },
      fail: (message) => new ConfigError(message),
    });
    if (bytes === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new ConfigError('it is not valid JSON');
    }
    const parsed = Stored.safeParse(json);
    if (!parsed.success) throw new ConfigError('it is not a file of read and done marks this inbox wrote');
    if (parsed.data.keyId !== this.keyId) throw new ConfigError("it is another key's");
    return marksFrom(parsed.data.marks);
  }
}
