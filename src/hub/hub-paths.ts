/**
 * Where the hub of one user, shop API and key listens: a Unix socket in
 * `/tmp/shop-inbox-<uid>/`, one directory per user and machine whatever the
 * terminal's environment says. `XDG_RUNTIME_DIR` is set in some sessions of a
 * user and not in others (an SSH login through pam_systemd, su, a cron job, a
 * tmux server started from another session), and `TMPDIR` varies the same way:
 * a place taken from either would split one user's terminals into several
 * hubs. The uid does not vary. (Without uids, on Windows, the state directory
 * is used.)
 *
 * Node has no SO_PEERCRED (and no native addon is wanted for it), so the
 * peer's uid cannot be asked for. The guard is the file system: the
 * directory must belong to this user and let nobody else in (0700, checked
 * with lstat before every use, so a symlink or a directory another user made
 * there first is refused), and the socket is 0600, so only this user's
 * processes (and root) can connect. /tmp is sticky: once the directory is
 * this user's, nobody else can rename or remove it. A directory that fails
 * the check is never used, nor loosened or repaired: the inbox then polls on
 * its own and says why.
 */
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { keyFingerprint } from '../config/key-fingerprint.js';
import { stateDir } from '../config/paths.js';

/** Unix socket paths longer than this cannot be bound (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;
/** Not TMPDIR, which varies between the sessions of one user as XDG_RUNTIME_DIR does. */
const SHARED_TMP = '/tmp';
/** The longest pid a hub's own socket name may carry (Linux allows up to 2^22). */
const LONGEST_PID = 4_194_304;

/**
 * The directory of every hub of this user on this machine. `root` replaces
 * /tmp in tests (a directory another user made first, a symlink…).
 */
export function hubDir(env: NodeJS.ProcessEnv, root = SHARED_TMP): string {
  const uid = process.getuid?.();
  if (uid === undefined) return join(stateDir(env), 'run');
  return join(root, `shop-inbox-${uid}`);
}

/** The socket of one shop API and key: named by a hash of the base URL and the key's fingerprint, never the key. */
export function hubSocketPath(
  env: NodeJS.ProcessEnv,
  baseUrl: string,
  apiKey: string,
  root?: string,
): string {
  const api = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return join(hubDir(env, root), `hub-${api}-${keyFingerprint(apiKey).slice(0, 16)}.sock`);
}

/**
 * Where a hub binds its socket before renaming it onto the shared name: its
 * own name (by pid), so that closing it never removes another hub's socket
 * (closing a Unix socket server removes the path it was bound to).
 */
export function hubListenPath(socketPath: string, pid: number = process.pid): string {
  return socketPath.replace(/\.sock$/, `.${pid}.sock`);
}

export class HubDirError extends Error {}

/** mkdir, never following a name that is there already; whether this call made it. */
async function makeDir(dir: string, parentMade = false): Promise<boolean> {
  try {
    await mkdir(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // The state directory's fallback (no uid), or a test's root, may not exist yet; /tmp always does.
    if (code === 'ENOENT' && !parentMade) {
      await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
      return makeDir(dir, true);
    }
    throw new HubDirError(`cannot make ${dir} (${code ?? (error as Error).message})`);
  }
}

/**
 * Makes the directory (0700) if needed; refuses one that is not this user's
 * alone. Made by mkdir without following anything: a name another user put
 * there first (a directory, a symlink, a file) makes mkdir fail, and lstat
 * then says whose it is.
 */
export async function checkHubDir(dir: string, socketPath: string): Promise<void> {
  if (Buffer.byteLength(hubListenPath(socketPath, LONGEST_PID)) > MAX_SOCKET_PATH) {
    throw new HubDirError(`the socket path ${socketPath} is too long for a Unix socket`);
  }
  const made = await makeDir(dir);
  const info = await lstat(dir);
  if (info.isSymbolicLink()) throw new HubDirError(`${dir} is a symbolic link, not a directory`);
  if (!info.isDirectory()) throw new HubDirError(`${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw new HubDirError(`${dir} belongs to another user`);
  // Made just now by this process: a umask that took this user's own bits is undone (nobody else's are given).
  if (made && (info.mode & 0o777) !== 0o700) {
    await chmod(dir, 0o700);
    return;
  }
  if ((info.mode & 0o077) !== 0) {
    throw new HubDirError(`${dir} can be entered by other users (mode ${(info.mode & 0o777).toString(8)})`);
  }
}
