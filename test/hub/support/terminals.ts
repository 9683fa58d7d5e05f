/** Starts headless inbox terminals (support/hub-terminal.ts, bundled) as real processes, and reads what they say. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_ALIASES } from '../../../scripts/bundle-options.mjs';
import type { TestSim } from '../../support/sim.js';
import type { TerminalConfig } from './hub-terminal.js';

export interface TerminalEvent {
  e: string;
  t: number;
  role?: string;
  why?: string;
  body?: string;
  bodies?: string[];
  others?: number;
  composingElsewhere?: string[];
  /** A text's outcome: sent, or replayed (the shop had it already under its key). */
  state?: string;
  /** A notice's text (the status line's). */
  text?: string;
  /** The latest inbound texts shown, each with its lead's id, or why it names none ('not-matched-yet', 'no-open-lead'). */
  named?: Array<{ at: string; body: string; lead: string }>;
  /** The waiting list's leads, oldest waiting first. */
  waiting?: string[];
  /** How many open conversations' threads are read, of how many. */
  read?: number;
  of?: number;
}

export interface Terminal {
  process: ChildProcess;
  events: TerminalEvent[];
  readonly stderr: string;
  exited: Promise<void>;
  send(command: Record<string, unknown>): void;
  /** The first event (already seen or to come) that matches, or an error with the stderr after the timeout. */
  next(match: (event: TerminalEvent) => boolean, what: string, timeoutMs?: number): Promise<TerminalEvent>;
  /** The latest sharing role it reported. */
  role(): string | undefined;
}

export async function bundleTerminal(
  dir: string,
  entry = fileURLToPath(new URL('./hub-terminal.ts', import.meta.url)),
): Promise<string> {
  const outfile = join(dir, 'hub-terminal.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    alias: BUNDLE_ALIASES,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

export const spawned = new Set<ChildProcess>();

export function startTerminal(
  script: string,
  config: TerminalConfig,
  apiKey: string,
  env: NodeJS.ProcessEnv,
): Terminal {
  const child = spawn(process.execPath, [script], {
    env: {
      PATH: process.env.PATH,
      ...env,
      SHOP_API_KEY: apiKey,
      HUB_TERMINAL_CONFIG: JSON.stringify(config),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  const events: TerminalEvent[] = [];
  const waiters: Array<{
    match: (event: TerminalEvent) => boolean;
    resolve: (event: TerminalEvent) => void;
  }> = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const event = JSON.parse(buffered.slice(0, end)) as TerminalEvent;
      buffered = buffered.slice(end + 1);
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    events,
    get stderr() {
      return stderr;
    },
    exited,
    send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
    next: (match, what, timeoutMs = 15_000) => {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${what} within ${timeoutMs} ms; stderr:\n${stderr}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
    role: () => [...events].reverse().find((event) => event.e === 'sharing')?.role,
  };
}

/** The first role it takes: hub or client (or alone, for a reason it says). */
export const roleOf = (terminal: Terminal) =>
  terminal.next((e) => e.e === 'sharing' && e.role !== undefined && e.role !== 'alone', 'a role');

/** What its requests say they come from (the simulator logs it). */
export const userAgentOf = (terminal: Terminal) => `hub-terminal/${terminal.process.pid}`;

/** The requests the simulator logged from index `from` on that this terminal made. */
export const requestsOf = (test: TestSim, terminal: Terminal, from: number) =>
  test.sim.requests
    .list()
    .slice(from)
    .filter((r) => r.userAgent === userAgentOf(terminal));

let texts = 0;
/** A customer's text arrives at the shop now, on its first open lead; its body (one no other text has). */
export function customerTexts(test: TestSim, when: string): string {
  const lead = test.sim.shops.main.leads.find((l) => ['new', 'contacted', 'scheduled'].includes(l.status));
  if (!lead) throw new Error('no open lead');
  texts += 1;
  const body = `customer text ${texts} ${when}`;
  test.sim.receiveText(lead.id, body);
  return body;
}

/** Resolves once the terminal's inbox shows a text with this body. */
export const shows = (terminal: Terminal, body: string, timeoutMs = 10_000) =>
  terminal.next((e) => e.e === 'inbound' && (e.bodies ?? []).includes(body), `"${body}"`, timeoutMs);
