/**
 * The built CLI as the pty tests run it: from a private copy of dist/ (another
 * run of the suite may rebuild dist/ meanwhile, and a program started from a
 * half-written file fails), in the clean environment of a user's terminal.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BuiltCli {
  /** The private directory: the bundle, and room for what a test keeps beside it. */
  dir: string;
  /** Its cli.js (the chunks it loads sit beside it, in chunks/). */
  cliPath: string;
  remove(): Promise<void>;
}

export async function copyBuiltCli(prefix: string): Promise<BuiltCli> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await cp('dist', dir, { recursive: true });
  return { dir, cliPath: join(dir, 'cli.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Removes the hub sockets (and their locks) that built inboxes left in the real runtime directory: a
 * killed inbox leaves them. Empties the list.
 */
export async function removeHubSockets(sockets: string[]): Promise<void> {
  await Promise.all(
    sockets
      .splice(0)
      .flatMap((socket) => [
        rm(socket, { force: true }),
        rm(`${socket}.lock`, { recursive: true, force: true }),
      ]),
  );
}

/**
 * A terminal's environment with nothing of the test run's: its own HOME and XDG config and state
 * directories. The machine's time zone (TZ, when set) is kept, as a user's terminal has it: CI runs
 * the suite in several zones, the built CLI included.
 */
export function terminalEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    ...extra,
  };
}
