/**
 * A program the bench measures, in a real pseudo-terminal seen through a
 * headless xterm of the same size: when its output arrived, when the screen
 * first showed a pattern, and the memory it reports about itself.
 */
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import pty from 'node-pty';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The environment the measured programs run in: a shop on the simulator, a home of their own. */
export function shopEnv(work: string, baseUrl: string, apiKey: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_STATE_HOME: join(work, 'state'),
    SHOP_API_BASE_URL: baseUrl,
    SHOP_API_KEY: apiKey,
  };
}

export const rssMiB = (pid: number) => {
  try {
    const status = spawnSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }).stdout;
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
};

export interface Program {
  term: pty.IPty;
  /** When each chunk of output arrived, and its size in bytes. */
  chunks: Array<{ at: number; bytes: number }>;
  /**
   * Resolves with the time from spawn until the screen (a headless xterm fed
   * every byte) first showed the pattern: the arrival of the chunk that
   * completed it, not the moment the bench got round to parsing it.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<number>;
  /**
   * The heap and RSS the program reports about itself (see the preload below); after a full garbage
   * collection when it runs with --expose-gc.
   */
  memory(): Promise<ProgramMemory>;
  /** The terminal and the xterm reading it take a new size, as a window being resized does. */
  resize(cols: number, rows: number): void;
  stop(): Promise<void>;
}

/** What a program reports of its memory: process.memoryUsage(), and the bytes each of V8's heap spaces holds in memory. */
export interface ProgramMemory extends NodeJS.MemoryUsage {
  spaces: Record<string, number>;
}

/**
 * Loaded into each program measured: on SIGUSR2 it writes its own
 * process.memoryUsage() and the resident size of each V8 heap space to a
 * file, after a full collection when the program runs with --expose-gc. It
 * does nothing else. (A data: URL: no `?` or `#` in it.)
 */
const MEMORY_PROBE =
  "data:text/javascript,import { writeFileSync } from 'node:fs'; import { getHeapSpaceStatistics } from 'node:v8'; process.on('SIGUSR2', () => { if (globalThis.gc) globalThis.gc(); const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size])); writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify({ ...process.memoryUsage(), spaces })); });";

/**
 * The Node the measured programs run on: this one, or `SHOP_INBOX_BENCH_NODE` (a path to another Node's
 * binary: CI's Node 22 and 24 beside the Node 20 the bench itself runs on).
 */
const PROGRAM_NODE = process.env.SHOP_INBOX_BENCH_NODE || process.execPath;

/** The version of the Node the measured programs run on. */
export function benchNodeVersion(): string {
  if (PROGRAM_NODE === process.execPath) return process.version;
  return spawnSync(PROGRAM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

let probeCount = 0;
export function start(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cols = 120,
  rows = 40,
  nodeArgs: string[] = [],
): Program {
  const memoryFile = join(tmpdir(), `shop-inbox-bench-memory-${process.pid}-${probeCount++}.json`);
  const started = performance.now();
  const term = pty.spawn(PROGRAM_NODE, [...nodeArgs, '--import', MEMORY_PROBE, script, ...args], {
    cols,
    rows,
    cwd: process.cwd(),
    env: { ...env, TERM: 'xterm-256color', LANG: 'C.UTF-8', BENCH_MEMORY_FILE: memoryFile },
  });
  // What a user would see: programs that send only the changed cells of a
  // frame cannot be read from their raw output.
  const screen = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true });
  const screenText = () => {
    const buffer = screen.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < screen.rows; y += 1)
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const waiters = new Set<{ pattern: RegExp; resolve: (at: number) => void }>();
  const chunks: Program['chunks'] = [];
  term.onData((data) => {
    const at = performance.now();
    chunks.push({ at, bytes: Buffer.byteLength(data) });
    screen.write(data, () => {
      if (waiters.size === 0) return;
      const text = screenText();
      for (const waiter of waiters) {
        if (!waiter.pattern.test(text)) continue;
        waiters.delete(waiter);
        waiter.resolve(at - started);
      }
    });
  });
  const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
  return {
    term,
    chunks,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: (at: number) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`never showed ${pattern}; the screen:\n${screenText()}`));
        }, timeoutMs);
        waiters.add(waiter);
        // Already on screen (a later wait for what an earlier frame drew).
        screen.write('', () => {
          if (waiters.has(waiter) && pattern.test(screenText())) {
            waiters.delete(waiter);
            waiter.resolve(performance.now() - started);
          }
        });
      });
    },
    async memory() {
      await rm(memoryFile, { force: true });
      process.kill(term.pid, 'SIGUSR2');
      for (let i = 0; i < 200; i += 1) {
        try {
          return JSON.parse(await readFile(memoryFile, 'utf8')) as ProgramMemory;
        } catch {
          await sleep(10);
        }
      }
      throw new Error('no memory report');
    },
    resize(newCols, newRows) {
      term.resize(newCols, newRows);
      screen.resize(newCols, newRows);
    },
    async stop() {
      term.write('q');
      await Promise.race([exited, sleep(3_000)]);
      term.kill();
      screen.dispose();
      await rm(memoryFile, { force: true });
    },
  };
}
