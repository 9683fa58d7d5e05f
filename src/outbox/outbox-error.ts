/**
 * Why the outbox file could not be read or written, in plain words: staff
 * are told it when a confirmed text is not sent for that reason, and what
 * they (or whoever runs the machine) can do about it follows from the words.
 */
import { dirname } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { UnsyncedRenameError } from '../config/private-file.js';

/** The outbox could not be read or written; `message` says why in plain words, `code` is the errno's. */
export class OutboxError extends Error {
  override name = 'OutboxError';
  readonly code: string | undefined;
  /** The new content is in the file, though not known to be durable: the write is to be undone. */
  readonly written: boolean;

  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
    this.written = cause instanceof UnsyncedRenameError;
  }
}

/** Thrown when another process kept the outbox locked for longer than a lock is ever held. */
export class OutboxLockedError extends Error {
  readonly code = 'ELOCKED';

  constructor(readonly waitedMs: number) {
    super('the outbox stayed locked');
  }
}

export function explainOutboxError(error: unknown, outboxPath: string): string {
  if (error instanceof OutboxError) return error.message;
  const dir = dirname(outboxPath);
  if (error instanceof OutboxLockedError) {
    const seconds = Math.round(error.waitedMs / 1000);
    return `another shop-inbox of yours has kept the outbox ${outboxPath} locked for over ${seconds} s (a stopped or stuck process, or a slow network disk)`;
  }
  if (error instanceof ConfigError) return error.message;
  if (error instanceof UnsyncedRenameError) return explainOutboxError(error.cause, outboxPath);
  const { code, message, syscall, path } = error as NodeJS.ErrnoException;
  switch (code) {
    case 'ENOSPC':
      return `the disk holding ${dir} is full`;
    case 'EDQUOT':
      return `your disk quota on the disk holding ${dir} is used up`;
    case 'EROFS':
      return `${dir} is read-only (on a file system mounted read-only)`;
    case 'EISDIR':
      return `${outboxPath} is a directory, not a file`;
    case 'ENOTDIR':
      return `${dir}, or a folder above it, is a file, not a directory`;
    case 'EEXIST':
      if (syscall === 'mkdir') return `${path ?? dir} is a file, not a directory`;
      break;
    case 'EACCES':
    case 'EPERM':
      return `${dir} or the outbox in it cannot be written by you`;
    case 'EIO':
      return `the disk holding ${dir} reported an input/output error`;
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open on this machine';
    case 'ENAMETOOLONG':
      return `the path ${outboxPath} is too long`;
  }
  return `${code ? `${code}: ` : ''}${message ?? String(error)}`;
}
