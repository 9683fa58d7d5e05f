/**
 * Who may change this user's settings, checked as ssh checks its own files:
 * the key file must be private to its owner, and a file that decides what
 * shop-inbox does with the key (config.json: where it is sent) or what staff
 * send (templates.json) must be changeable by nobody but this user or root,
 * and so must the directory that holds it (whoever can write a directory can
 * replace the files in it). Each refusal says how to fix it.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, dirname } from 'node:path';

/** The path as it can be pasted into a shell. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/** "0644". */
export function octalMode(info: Pick<Stats, 'mode'>): string {
  return (info.mode & 0o777).toString(8).padStart(4, '0');
}

/** This process's user, as `chown` takes it: the name when the system has one, else the uid. */
function chownUser(): string {
  try {
    return userInfo().username || String(currentUid());
  } catch {
    return String(currentUid());
  }
}

/** The user a check is made for: this process's (effective) uid; undefined where there are no uids (Windows). */
export function currentUid(): number | undefined {
  return process.geteuid?.();
}

/** Why a key file must not be used, or undefined: readable or writable by anyone else, or another user's. */
export function privateFileProblem(info: Stats, path: string, uid = currentUid()): string | undefined {
  if ((info.mode & 0o077) !== 0) {
    return `the key file ${path} has mode ${octalMode(info)}: other users of this machine can read or change it, so it is not used. Make it private with: chmod 600 ${shellWord(path)}`;
  }
  if (uid !== undefined && info.uid !== uid) {
    return `the key file ${path} belongs to another user (uid ${info.uid}); use a key file of your own`;
  }
  return undefined;
}

/** What the file decides, and what happens when it cannot be trusted. */
export interface TrustedFileRole {
  /** "decides where your API key is sent". */
  power: string;
  /** "it is not used", "no templates are offered". */
  outcome: string;
}

/** "its group", "others", "its group and others": who besides the owner may write, by the mode. */
function otherWriters(mode: number): string | undefined {
  const group = (mode & 0o020) !== 0;
  const others = (mode & 0o002) !== 0;
  if (group && others) return 'its group and others';
  if (group) return 'its group';
  if (others) return 'others';
  return undefined;
}

/** Whether the owner may be trusted: this user, or root (who could change anything anyway). */
function trustedOwner(owner: number, uid: number | undefined): boolean {
  return uid === undefined || owner === uid || owner === 0;
}

/**
 * Why a file that decides what shop-inbox does must not be used, or undefined:
 * writable by its group or others, or owned by someone but this user or root.
 */
export function othersCanChangeProblem(
  info: Stats,
  path: string,
  role: TrustedFileRole,
  uid = currentUid(),
): string | undefined {
  const writers = otherWriters(info.mode);
  if (writers) {
    return `${path} is writable by ${writers} (mode ${octalMode(info)}): whoever can change it ${role.power}, so ${role.outcome}. Fix it with: chmod go-w ${shellWord(path)}`;
  }
  if (!trustedOwner(info.uid, uid)) {
    return `${path} belongs to another user (uid ${info.uid}): whoever owns it ${role.power}, so ${role.outcome}. Remove it, or make it yours (as root: chown ${chownUser()} ${shellWord(path)})`;
  }
  return undefined;
}

/**
 * Why the directory holding `fileName` lets others replace it, or undefined.
 * A directory that cannot be looked at is left to the read of the file to report.
 */
export async function directoryProblem(
  dir: string,
  fileName: string,
  role: TrustedFileRole,
  uid = currentUid(),
): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await stat(dir);
  } catch {
    return undefined;
  }
  const writers = otherWriters(info.mode);
  if (writers) {
    return `the directory ${dir} is writable by ${writers} (mode ${octalMode(info)}): they can replace ${fileName}, which ${role.power}, so ${role.outcome}. Fix it with: chmod go-w ${shellWord(dir)}`;
  }
  if (!trustedOwner(info.uid, uid)) {
    return `the directory ${dir} belongs to another user (uid ${info.uid}): they can replace ${fileName}, which ${role.power}, so ${role.outcome}. Use a directory of your own, or make it yours (as root: chown ${chownUser()} ${shellWord(dir)})`;
  }
  return undefined;
}

/**
 * Why others could replace the file at `path` through a directory that holds
 * it, or undefined: the directory its name is in and, when it is a symlink,
 * the one its target is in.
 */
export async function holdingDirectoryProblem(
  path: string,
  role: TrustedFileRole,
  uid = currentUid(),
): Promise<string | undefined> {
  const real = await realpath(path).catch(() => path);
  const holders = [{ dir: dirname(path), name: basename(path) }];
  if (dirname(real) !== dirname(path)) holders.push({ dir: dirname(real), name: basename(real) });
  for (const { dir, name } of holders) {
    const problem = await directoryProblem(dir, name, role, uid);
    if (problem) return problem;
  }
  return undefined;
}
