/**
 * The real inbox in a real pseudo-terminal (the built dist/cli.js --demo):
 * how long until the shop is on screen, how many bytes a key press and an
 * idle minute cost (what a slow SSH link carries), and the process's memory
 * after polling a live shop for a while. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import pty from 'node-pty';
import stripAnsi from 'strip-ansi';
import { bench, describe } from 'vitest';

interface Running {
  term: pty.IPty;
  bytes(): number;
  screen(): string;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function start(columns: number, rows: number): Running {
  const term = pty.spawn(process.execPath, ['dist/cli.js', '--demo'], {
    cols: columns,
    rows,
    cwd: process.cwd(),
    env: { ...process.env, TERM: 'xterm-256color' },
  });
  let output = '';
  let bytes = 0;
  term.onData((data) => {
    bytes += Buffer.byteLength(data);
    output = (output + data).slice(-200_000);
  });
  const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
  return {
    term,
    bytes: () => bytes,
    screen: () => stripAnsi(output),
    async waitFor(text, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!stripAnsi(output).includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" on screen`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      term.write('q');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      term.kill();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const rssMiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

describe('the inbox in a terminal', () => {
  bench(
    'start until the demo shop is on screen (80×24)',
    async () => {
      const app = start(80, 24);
      await app.waitFor('open leads');
      await app.stop();
    },
    { iterations: 5, time: 0, warmupIterations: 1 },
  );

  bench(
    'bytes per key press and per idle second; memory after 40 s of polling (printed)',
    async () => {
      const perKey: number[] = [];
      for (const [columns, rows] of [
        [80, 24],
        [120, 40],
      ] as const) {
        const app = start(columns, rows);
        await app.waitFor('updated');
        await sleep(1_500);
        const before = app.bytes();
        for (let i = 0; i < 20; i += 1) {
          app.term.write('j');
          await sleep(120);
        }
        perKey.push((app.bytes() - before) / 20);
        const idleStart = app.bytes();
        await sleep(5_000);
        const idlePerSecond = (app.bytes() - idleStart) / 5;
        console.log(
          `${columns}×${rows}: ${Math.round(perKey.at(-1) ?? 0)} bytes per j on average, ${Math.round(idlePerSecond)} bytes/s over 5 idle seconds`,
        );
        if (columns === 120) {
          const pid = app.term.pid;
          const early = rssMiB(pid);
          await sleep(30_000);
          console.log(
            `rss of the inbox process: ${early.toFixed(0)} MiB at ~10 s, ${rssMiB(pid).toFixed(0)} MiB at ~40 s`,
          );
        }
        await app.stop();
      }
      console.log(`median bytes per key press: ${Math.round(median(perKey))}`);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
