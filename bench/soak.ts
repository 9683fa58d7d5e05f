/**
 * A live wallboard or inbox runs for weeks: its memory must level off. This
 * soak compresses hours of a live shop into minutes: a shop with weeks of
 * history, where the simulator makes a new text, missed call, review or
 * action four times a second (forty during the warm-up); the inbox is worked
 * without pause (moving, switching panes, resizing), the wallboard is
 * resized every few seconds and redrawn with ctrl-l, and both draw what
 * arrives. After the warm-up, their resident memory and heap are sampled at 120×40
 * after a full collection, and the growth is extrapolated to an hour (the
 * median slope between samples), beside bare Ink as shipped drawing a screen
 * whose every row changes four times a second (reference/ink-soak.tsx), in
 * the same run. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createSimulator } from '../src/sim/simulator.js';
import { type MappedParts, readMappedParts } from './memory-parts.js';
import { type Program, shopEnv, start } from './pty-program.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => bytes / 1024 / 1024;
const SAMPLE_MS = 10_000;
/**
 * Live events made before the programs start: a shop that has run for weeks, whose lists are longer
 * than a page and whose threads hold more texts than a read returns. Everything a program keeps of
 * the shop is at its bound from the first read, and what grows after is the program's.
 */
const HISTORY_EVENTS = 6_000;
/**
 * During the warm-up, events ten times as fast: what a program keeps of what it saw arrive (the ids
 * behind "new" marks, what it has notified) is bounded, and fills with thousands of arrivals; it is
 * near its bound when the measuring starts, so that its filling is not taken for growth.
 */
const WARM_UP_EVENT_MS = 25;

export interface SoakOptions {
  /** The CLI to run (dist/cli.js, or another build to compare with). */
  cli: string;
  /** The bundled reference (reference/ink-soak.tsx). */
  reference: string;
  warmUpMs: number;
  measureMs: number;
  /** Where the programs keep their config and state: each a home of its own under it. */
  home: string;
  /**
   * The wallboard in the inbox's home on its key, as on a box where one user runs both: the inbox,
   * started first, is the hub and serves the wallboard's reads (src/hub), and its figure holds that work.
   */
  sharedHub?: boolean;
  /** Each sample as it is taken (a long soak shows its progress, and an interrupted one its figures). */
  onSample?: (name: string, minutes: number, sample: MemorySample) => void;
}

/** One sample of a program's memory, in MiB: what it reports of itself, and where its resident pages lie. */
export interface MemorySample extends MappedParts {
  rss: number;
  heapUsed: number;
  /** What V8 holds for its heap (used or not): part of the anonymous mappings below. */
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** V8's heap spaces in memory (heapTotal is their sum, reserved or not): the young generation, old objects, code, large objects. */
  newSpace: number;
  oldSpace: number;
  codeSpace: number;
  largeObjects: number;
}

export const SAMPLE_PARTS = [
  'rss',
  'heapUsed',
  'heapTotal',
  'newSpace',
  'oldSpace',
  'codeSpace',
  'largeObjects',
  'external',
  'arrayBuffers',
  'mallocHeap',
  'mallocThreads',
  'wasm',
  'otherAnonymous',
  'fileBacked',
] as const satisfies ReadonlyArray<keyof MemorySample>;

export interface SoakFigure {
  name: string;
  /** Resident memory at the start and the end of the measured window, in MiB. */
  rssFrom: number;
  rssTo: number;
  /** Growth per hour (the median slope between samples), in MiB. */
  rssPerHour: number;
  heapFrom: number;
  heapTo: number;
  heapPerHour: number;
  /** Bytes the program wrote to its terminal in the measured window. */
  bytesWritten: number;
  /** Each sample's resident memory and heap, in MiB. */
  samples: number[];
  heapSamples: number[];
  /** Every part of every sample, and each part's growth per hour (the median slope), in MiB. */
  parts: MemorySample[];
  partsPerHour: Record<keyof MemorySample, number>;
}

/**
 * The slope through (x, y), per unit of x: the median of the slopes between every two points
 * (Theil–Sen). Memory sampled after a collection still jumps by a few MiB from one sample to the next
 * (what was being allocated at that moment, pages the heap has not given back yet); a least-squares
 * line follows a jump at either end of a few minutes' window, the median does not.
 */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i += 1) {
    for (let j = i + 1; j < points.length; j += 1) {
      const [x1, y1] = points[i] ?? [0, 0];
      const [x2, y2] = points[j] ?? [0, 0];
      if (x2 !== x1) slopes.push((y2 - y1) / (x2 - x1));
    }
  }
  if (slopes.length === 0) return Number.NaN;
  slopes.sort((a, b) => a - b);
  const middle = Math.floor(slopes.length / 2);
  return slopes.length % 2 === 1
    ? (slopes[middle] ?? Number.NaN)
    : ((slopes[middle - 1] ?? 0) + (slopes[middle] ?? 0)) / 2;
}

/**
 * Keys that work an inbox: back to the newest lead (g: a new one arrives about every second), down
 * the list, over to its thread and back. (Not R: reading everything again every few seconds is not
 * what staff do, and the large reads it brings make the resident memory swing by tens of MiB.)
 */
const INBOX_KEYS = ['g', 'j', 'j', 'j', 'k', '\t', 'j', 'k', '\u001B[Z', 'j'];
const SIZES: ReadonlyArray<readonly [number, number]> = [
  [120, 40],
  [100, 30],
  [140, 45],
  [80, 24],
  [160, 50],
];

/** Keeps a program busy until stopped: `act(step)` every `everyMs`. */
function keepBusy(everyMs: number, act: (step: number) => void): () => void {
  let step = 0;
  const timer = setInterval(() => act(step++), everyMs);
  return () => clearInterval(timer);
}

/**
 * What the drawing caches hold is a frame or two of the terminal's size: sampled at whatever size the
 * last resize left, memory swung by several MiB from one sample to the next with the size (80×24 to
 * 160×50), and the slope followed the sizes. Each sample is taken at the same size, a while after the
 * resizes pause.
 */
const SAMPLE_SIZE: readonly [number, number] = [120, 40];
const SETTLE_BEFORE_SAMPLE_MS = 2_000;

export async function soak(options: SoakOptions): Promise<SoakFigure[]> {
  const sim = createSimulator({ live: true, liveIntervalMs: 250, rateLimitPerMinute: 100_000, seed: 7 });
  for (let i = 0; i < HISTORY_EVENTS; i += 1) sim.tick();
  const { baseUrl } = await sim.listen();
  /**
   * Each program a home of its own, and the wallboard on the shop's read-only key: one user's
   * programs on one shop API and key share a hub (src/hub), and the inbox, started first, would
   * serve the wallboard's reads; its memory would be the hub's as well as its own.
   */
  const envFor = async (name: string, apiKey: string) => {
    const home = join(options.home, name);
    await mkdir(home, { recursive: true });
    return shopEnv(home, baseUrl, apiKey);
  };
  const gc = ['--expose-gc'];
  const programs: Array<{ name: string; program: Program }> = [
    {
      name: 'inbox',
      program: start(options.cli, ['--max-rpm', '120'], await envFor('inbox', sim.tokens.write), 120, 40, gc),
    },
    {
      name: 'wallboard',
      program: start(
        options.cli,
        ['--wallboard', '--max-rpm', '120'],
        options.sharedHub
          ? await envFor('inbox', sim.tokens.write)
          : await envFor('wallboard', sim.tokens.read),
        120,
        40,
        gc,
      ),
    },
    {
      name: 'bare Ink (reference)',
      program: start(options.reference, [], await envFor('reference', sim.tokens.read), 120, 40, gc),
    },
  ];
  const [inbox, wallboard] = programs.map(({ program }) => program);
  const stops: Array<() => void> = [];
  let sampling = false;
  const resize = (program: Program | undefined, [cols, rows]: readonly [number, number]) => {
    if (!sampling) program?.resize(cols, rows);
  };
  /** Every program's memory after a full collection, at the sample size. */
  const sampleAll = async () => {
    sampling = true;
    for (const { program } of programs) program.resize(...SAMPLE_SIZE);
    await sleep(SETTLE_BEFORE_SAMPLE_MS);
    const usages: MemorySample[] = [];
    for (const { program } of programs) {
      const usage = await program.memory();
      const mapped = await readMappedParts(program.term.pid);
      usages.push({
        rss: mib(usage.rss),
        heapUsed: mib(usage.heapUsed),
        heapTotal: mib(usage.heapTotal),
        external: mib(usage.external),
        arrayBuffers: mib(usage.arrayBuffers),
        newSpace: mib(usage.spaces.new_space ?? 0),
        oldSpace: mib(usage.spaces.old_space ?? 0),
        codeSpace: mib(usage.spaces.code_space ?? 0),
        largeObjects: mib(
          (usage.spaces.large_object_space ?? 0) +
            (usage.spaces.code_large_object_space ?? 0) +
            (usage.spaces.new_large_object_space ?? 0),
        ),
        mallocHeap: mib(mapped.mallocHeap),
        mallocThreads: mib(mapped.mallocThreads),
        wasm: mib(mapped.wasm),
        otherAnonymous: mib(mapped.otherAnonymous),
        fileBacked: mib(mapped.fileBacked),
      });
    }
    sampling = false;
    return usages;
  };
  try {
    await inbox?.waitFor(/Inbox — open leads/);
    await wallboard?.waitFor(/OLDEST MISSED CALL/);
    stops.push(
      keepBusy(400, (step) => inbox?.term.write(INBOX_KEYS[step % INBOX_KEYS.length] ?? 'j')),
      keepBusy(7_000, (step) => resize(inbox, SIZES[step % SIZES.length] ?? SAMPLE_SIZE)),
      keepBusy(2_000, (step) => {
        resize(wallboard, SIZES[step % SIZES.length] ?? SAMPLE_SIZE);
        if (step % 4 === 3) wallboard?.term.write('\u000C');
      }),
    );
    const warmUpEvents = setInterval(() => sim.tick(), WARM_UP_EVENT_MS);
    await sleep(options.warmUpMs);
    clearInterval(warmUpEvents);
    // What the last reads of the warm-up brought is on screen and noted before the measuring starts.
    await sleep(SAMPLE_MS);
    // A first collection apart (what piled up before it is not growth), as long before the first
    // sample as each sample is after the one before: what a collection gives back depends on it.
    await sampleAll();
    await sleep(SAMPLE_MS);
    const began = performance.now();
    const samples = programs.map(() => [] as Array<[number, MemorySample]>);
    const bytesAtStart = programs.map(({ program }) => program.chunks.reduce((sum, c) => sum + c.bytes, 0));
    // Each sample after a full collection: resident memory between collections swings by tens of MiB
    // with what is being allocated, and hides a slope of a few MiB an hour.
    for (let elapsed = 0; elapsed <= options.measureMs; elapsed += SAMPLE_MS) {
      const hours = (performance.now() - began) / 3_600_000;
      for (const [index, usage] of (await sampleAll()).entries()) {
        samples[index]?.push([hours, usage]);
        options.onSample?.(programs[index]?.name ?? '', hours * 60, usage);
      }
      if (elapsed + SAMPLE_MS <= options.measureMs) await sleep(SAMPLE_MS - SETTLE_BEFORE_SAMPLE_MS);
    }
    return programs.map(({ name, program }, index) => {
      const taken = samples[index] ?? [];
      const series = (part: keyof MemorySample) =>
        taken.map(([hours, sample]) => [hours, sample[part]] as [number, number]);
      const rss = series('rss');
      const heap = series('heapUsed');
      const partsPerHour = Object.fromEntries(
        SAMPLE_PARTS.map((part) => [part, slope(series(part))]),
      ) as Record<keyof MemorySample, number>;
      return {
        name,
        rssFrom: rss[0]?.[1] ?? Number.NaN,
        rssTo: rss.at(-1)?.[1] ?? Number.NaN,
        rssPerHour: partsPerHour.rss,
        heapFrom: heap[0]?.[1] ?? Number.NaN,
        heapTo: heap.at(-1)?.[1] ?? Number.NaN,
        heapPerHour: partsPerHour.heapUsed,
        bytesWritten: program.chunks.reduce((sum, c) => sum + c.bytes, 0) - (bytesAtStart[index] ?? 0),
        samples: rss.map(([, value]) => value),
        heapSamples: heap.map(([, value]) => value),
        parts: taken.map(([, sample]) => sample),
        partsPerHour,
      };
    });
  } finally {
    for (const stop of stops) stop();
    await Promise.all(programs.map(({ program }) => program.stop()));
    await sim.close();
  }
}
