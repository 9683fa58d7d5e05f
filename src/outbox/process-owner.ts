/**
 * Which process wrote an outbox entry, and whether it still runs: a process
 * takes over only texts whose writer is gone, so two live terminals never both
 * retry one text.
 *
 * A pid alone can be reused after a crash, so on Linux the process's start
 * time (from /proc) is recorded too and must match. A writer on another host
 * (a home directory shared over NFS) cannot be checked from here: its texts
 * count as orphaned, since a text retried twice is harmless (the shared
 * Idempotency-Key) and a text never retried is not.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessOwner {
  pid: number;
  host: string;
  /** Start time in clock ticks since boot (Linux), when known. */
  start?: string;
}

/** Field 22 of /proc/PID/stat, or undefined where there is no /proc. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

let self: ProcessOwner | undefined;

export function thisProcess(): ProcessOwner {
  if (!self) {
    const start = startTimeOf(process.pid);
    self = { pid: process.pid, host: hostname(), ...(start ? { start } : {}) };
  }
  return self;
}

export function isThisProcess(owner: ProcessOwner): boolean {
  const me = thisProcess();
  return owner.pid === me.pid && owner.host === me.host && owner.start === me.start;
}

/** True when the owner surely still runs: same host, pid alive, same start time when both are known. */
export function isAlive(owner: ProcessOwner): boolean {
  if (owner.host !== thisProcess().host) return false;
  try {
    process.kill(owner.pid, 0);
  } catch {
    // ESRCH: no such process. EPERM: the pid now belongs to another user, and
    // the outbox directory is this user's, so its writer is gone.
    return false;
  }
  if (owner.start === undefined) return true;
  const start = startTimeOf(owner.pid);
  return start === undefined || start === owner.start;
}
