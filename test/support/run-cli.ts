/**
 * Runs the built CLI (dist/cli.js) as a script would: pipes for its streams,
 * a home of the test's own, and nothing of the test run's environment. Never
 * blocks this process, whose simulator must keep answering.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliHome {
  dir: string;
  /** The environment of a user whose config and state live in `dir`. */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

export async function cliHome(prefix = 'shop-inbox-cli-'): Promise<CliHome> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    dir,
    env: (extra = {}) => ({
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_STATE_HOME: join(dir, 'state'),
      ...extra,
    }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['dist/cli.js', ...args], { env });
}

export function collect(child: ChildProcessWithoutNullStreams, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  return collect(spawnCli(args, env), input);
}
