/**
 * Where a process's resident memory lies, from the kernel's view of its
 * mappings (/proc/PID/smaps): what process.memoryUsage() cannot tell apart
 * outside the JS heap. Linux only; elsewhere every part is NaN.
 */
import { readFile } from 'node:fs/promises';

export interface MappedParts {
  /** The brk heap of malloc's main arena ([heap]). */
  mallocHeap: number;
  /**
   * malloc's arenas of other threads (libuv's pool, V8's workers): glibc maps each as a heap of
   * 64 MiB, aligned to 64 MiB, of which the part in use is readable and writable and the rest not.
   */
  mallocThreads: number;
  /**
   * Anonymous reservations of 4 GiB or more: V8 reserves a WebAssembly memory (Yoga's) with guard
   * regions of several GiB, and nothing else of a Node process maps that much at once.
   */
  wasm: number;
  /** Every other anonymous mapping: V8's heap pages and code, thread stacks, large blocks malloc maps alone. */
  otherAnonymous: number;
  /** Mappings of files: node's code, shared libraries, the bundle if mapped. */
  fileBacked: number;
}

const FOUR_GIB = 4 * 1024 ** 3;
const ARENA_SIZE = 64 * 1024 ** 2;
/** A mapping's first line: `start-end perms offset dev inode [path]`. */
const MAPPING = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/;

interface Mapping {
  start: number;
  end: number;
  anonymous: boolean;
  path: string;
  rss: number;
}

/**
 * Resident bytes of each part, from the text of /proc/PID/smaps. A WebAssembly memory is one
 * reservation split into mappings by its protections (the pages in use read-write, the guard none):
 * anonymous mappings that follow one another without a gap count as one, and such a run of 4 GiB
 * or more is the WebAssembly memory. (malloc's thread arenas may lie right after it: they are told
 * apart first.)
 */
export function mappedParts(smaps: string): MappedParts {
  const mappings: Mapping[] = [];
  for (const line of smaps.split('\n')) {
    const mapping = MAPPING.exec(line);
    if (mapping) {
      mappings.push({
        start: Number.parseInt(mapping[1] ?? '0', 16),
        end: Number.parseInt(mapping[2] ?? '0', 16),
        anonymous: (mapping[3] ?? '0') === '0',
        path: mapping[4] ?? '',
        rss: 0,
      });
    } else if (line.startsWith('Rss:')) {
      const last = mappings.at(-1);
      if (last) last.rss += Number(/\d+/.exec(line)?.[0] ?? 0) * 1024;
    }
  }
  const parts: MappedParts = { mallocHeap: 0, mallocThreads: 0, wasm: 0, otherAnonymous: 0, fileBacked: 0 };
  const plainAnonymous = (mapping: Mapping | undefined) => mapping?.anonymous === true && mapping.path === '';
  /** How many mappings from `index` on make one thread arena of malloc (0 when they are not one). */
  const arenaAt = (index: number): number => {
    const first = mappings[index];
    if (!first || !plainAnonymous(first) || first.start % ARENA_SIZE !== 0) return 0;
    for (let next = index; next < mappings.length; next += 1) {
      const mapping = mappings[next];
      const before = mappings[next - 1];
      if (!mapping || !plainAnonymous(mapping)) return 0;
      if (next > index && before?.end !== mapping.start) return 0;
      if (mapping.end - first.start === ARENA_SIZE) return next - index + 1;
      if (mapping.end - first.start > ARENA_SIZE) return 0;
    }
    return 0;
  };
  let run: Mapping[] = [];
  const endRun = () => {
    const size = (run.at(-1)?.end ?? 0) - (run[0]?.start ?? 0);
    for (const mapping of run) parts[size >= FOUR_GIB ? 'wasm' : 'otherAnonymous'] += mapping.rss;
    run = [];
  };
  for (let index = 0; index < mappings.length; index += 1) {
    const mapping = mappings[index];
    if (!mapping) continue;
    const arena = arenaAt(index);
    if (arena > 0) {
      endRun();
      for (const part of mappings.slice(index, index + arena)) parts.mallocThreads += part.rss;
      index += arena - 1;
      continue;
    }
    if (!plainAnonymous(mapping) || run.at(-1)?.end !== mapping.start) endRun();
    if (plainAnonymous(mapping)) run.push(mapping);
    else if (mapping.path === '[heap]') parts.mallocHeap += mapping.rss;
    else if (mapping.anonymous) parts.otherAnonymous += mapping.rss;
    else parts.fileBacked += mapping.rss;
  }
  endRun();
  return parts;
}

export async function readMappedParts(pid: number): Promise<MappedParts> {
  try {
    return mappedParts(await readFile(`/proc/${pid}/smaps`, 'utf8'));
  } catch {
    return {
      mallocHeap: Number.NaN,
      mallocThreads: Number.NaN,
      wasm: Number.NaN,
      otherAnonymous: Number.NaN,
      fileBacked: Number.NaN,
    };
  }
}
