/**
 * Where the hub of one user, shop API and key listens: a Unix socket in the
 * user's runtime directory (`$XDG_RUNTIME_DIR/shop-inbox/`), or in a 0700
 * `run/` directory under the state directory when there is none.
 *
 * Node has no SO_PEERCRED (and no native addon is wanted for it), so the
 * peer's uid cannot be asked for. The guard is the file system: the
 * directory must belong to this user and let nobody else in (0700, checked
 * before every use, as the outbox and the compile cache check theirs), and
 * the socket is 0600, so only this user's processes (and root) can connect.
 * A directory that fails the check is never used: the inbox then polls on
 * its own and says why.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { keyFingerprint } from '../config/key-fingerprint.js';
import { stateDir } from '../config/paths.js';

/** Unix socket paths longer than this cannot be bound (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

export function hubDir(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) return join(runtime, 'shop-inbox');
  return join(stateDir(env), 'run');
}

/** The socket of one shop API and key: named by a hash of the base URL and the key's fingerprint, never the key. */
export function hubSocketPath(env: NodeJS.ProcessEnv, baseUrl: string, apiKey: string): string {
  const api = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return join(hubDir(env), `hub-${api}-${keyFingerprint(apiKey).slice(0, 16)}.sock`);
}

export class HubDirError extends Error {}

/** Makes the directory (0700) if needed; refuses one that is not this user's alone. */
export async function checkHubDir(dir: string, socketPath: string): Promise<void> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new HubDirError(`the socket path ${socketPath} is too long for a Unix socket`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new HubDirError(`${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw new HubDirError(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) {
    throw new HubDirError(`${dir} can be entered by other users (mode ${(info.mode & 0o777).toString(8)})`);
  }
}
