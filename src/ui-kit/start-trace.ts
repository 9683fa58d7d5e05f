/**
 * Where a start's milliseconds go. With `SHOP_INBOX_TRACE_START=<file>` the CLI appends one JSON line per
 * phase of its start to that file, the first time it reaches each: the time since the process started
 * (`performance.now()`) and the CPU time it has used. `npm run bench` reads it into its "where the
 * milliseconds go" table. Off (no variable) each mark is one test of a constant.
 *
 * The phases, in order: `code` (the bundle's own code runs: Node itself is what came before), `command`
 * (the command's code is loaded: zod, the contract, the client), `store` (the session and its store are set
 * up, the first reads sent), `reads` (the first reads are in, or their wait ended, the screen's code loading
 * meanwhile: session/first-reads.ts), `ui` (Ink, React and Yoga are loaded: what the reads did not cover),
 * `first-frame` (Ink has rendered its first frame, about to write it), `data-frame` (the first frame with the
 * shop and its inbox in the store).
 */
import { appendFileSync } from 'node:fs';

export type StartPhase = 'code' | 'command' | 'store' | 'reads' | 'ui' | 'first-frame' | 'data-frame';

const traceFile = process.env.SHOP_INBOX_TRACE_START;
const marked = new Set<StartPhase>();

/** Whether this process writes a start trace. */
export const tracingStart = Boolean(traceFile);

/** Notes that the start reached `phase` (the first time only). */
export function markStart(phase: StartPhase): void {
  if (!traceFile || marked.has(phase)) return;
  marked.add(phase);
  const cpu = process.cpuUsage();
  const line = { phase, ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 };
  try {
    appendFileSync(traceFile, `${JSON.stringify(line)}\n`, { mode: 0o600 });
  } catch {
    // A trace that cannot be written must not stop the inbox.
  }
}
