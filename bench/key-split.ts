/**
 * Where a key's milliseconds go: each key the bench pressed (when it wrote the key, when the first byte
 * came back) set beside the inbox's key trace (src/ui-kit/key-trace.ts: when it read the key, when the
 * write after it returned, and how long its main thread waited for a CPU in between). All times
 * are milliseconds since the epoch, each process's own `performance.timeOrigin + performance.now()`.
 */
import type { KeyTraceLine } from '../src/ui-kit/key-trace.js';

export interface KeyPress {
  /** When the bench wrote the key to the terminal. */
  pressedAt: number;
  /** When the bench read the first byte after it. */
  seenAt: number;
}

export interface KeyParts {
  /** The key on its way to the inbox, and the inbox busy with something else before it read it. */
  beforeRead: number;
  /** Read → the frame written. */
  inside: number;
  /** Of `inside`, the main thread ready to run, waiting for a CPU (NaN where the trace has no such time). */
  waiting: number;
  /** Of `inside`, the rest: the main thread running, or blocked (on its own helper threads, I/O) (NaN as above). */
  running: number;
  /** The frame written → its first byte read by the bench (the pseudo-terminal, the bench's own loop). */
  afterWrite: number;
  /** Key → first byte, the sum of the above. */
  total: number;
}

/**
 * Each press matched with the trace line of the key it sent: the first read at or after the press (less
 * a little, for the two processes' clocks) and before the next press, written no later than the byte was
 * seen. Presses without a line (a build without the trace, a key that drew nothing) are left out.
 */
export function splitKeys(presses: readonly KeyPress[], lines: readonly KeyTraceLine[]): KeyParts[] {
  const SKEW_MS = 0.5;
  const parts: KeyParts[] = [];
  presses.forEach((press, index) => {
    const next = presses[index + 1]?.pressedAt ?? Number.POSITIVE_INFINITY;
    const line = lines.find(
      (candidate) =>
        candidate.readAt >= press.pressedAt - SKEW_MS &&
        candidate.readAt < next &&
        candidate.writtenAt <= press.seenAt + SKEW_MS,
    );
    if (!line) return;
    const inside = Math.max(0, line.writtenAt - line.readAt);
    // The thread's count and the wall clock are read a few microseconds apart: the wait is kept inside.
    const waiting = line.waitingMs === undefined ? Number.NaN : Math.min(inside, Math.max(0, line.waitingMs));
    const beforeRead = Math.max(0, line.readAt - press.pressedAt);
    const afterWrite = Math.max(0, press.seenAt - line.writtenAt);
    parts.push({
      beforeRead,
      inside,
      waiting,
      running: inside - waiting,
      afterWrite,
      total: beforeRead + inside + afterWrite,
    });
  });
  return parts;
}

const PART_LABELS: ReadonlyArray<[keyof KeyParts, string]> = [
  ['beforeRead', 'the key on its way, and the inbox busy with something else before reading it'],
  ['inside', 'read → its frame written'],
  ['waiting', '… of which the main thread ready, waiting for a CPU (other threads, other processes)'],
  ['running', '… the rest: the main thread running (or blocked on its own helper threads, I/O)'],
  ['afterWrite', 'frame written → its first byte read by the bench (the pseudo-terminal, the bench itself)'],
  ['total', 'key → first byte'],
];

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/**
 * The table: the mean of each part over the keys around the median of key → first byte (45th–55th
 * percentile) and over the slowest 2 %, so that each column adds up to its total.
 */
export function keySplitTable(parts: readonly KeyParts[]): string | undefined {
  if (parts.length === 0) return undefined;
  const sorted = [...parts].sort((a, b) => a.total - b.total);
  // Percent in whole numbers: 100 × 0.55 is not 55 in floating point.
  const at = (percent: number, round: (value: number) => number) => round((sorted.length * percent) / 100);
  const middle = sorted.slice(at(45, Math.floor), Math.max(at(55, Math.ceil), 1));
  const slowest = sorted.slice(Math.min(at(98, Math.floor), sorted.length - 1));
  const lines = [
    `| from the key's press to its first byte | keys around the median (${middle.length}), mean ms | the slowest 2 % (${slowest.length}), mean ms |`,
    '|---|---|---|',
    ...PART_LABELS.map(
      ([part, label]) =>
        `| ${label} | ${ms(mean(middle.map((each) => each[part])))} | ${ms(mean(slowest.map((each) => each[part])))} |`,
    ),
  ];
  return `${lines.join('\n')}\n\n(${parts.length} keys; SHOP_INBOX_TRACE_KEYS, src/ui-kit/key-trace.ts; the main thread's wait for a CPU from /proc/thread-self/schedstat)`;
}
