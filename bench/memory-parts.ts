/**
 * Where a process's resident memory lies, from the kernel's view of its
 * mappings (/proc/PID/smaps): what process.memoryUsage() cannot tell apart
 * outside the JS heap. Linux only; elsewhere every part is NaN.
 */
import { readFile } from 'node:fs/promises';

export interface MappedParts {
  /** The brk heap of the main thread's malloc ([heap]). */
  mallocHeap: number;
  /**
   * Anonymous reservations of 4 GiB or more: V8 reserves a WebAssembly memory (Yoga's) with guard
   * regions of several GiB, and nothing else of a Node process maps that much at once.
   */
  wasm: number;
  /** Every other anonymous mapping: V8's heap pages, malloc arenas of other threads, thread stacks. */
  otherAnonymous: number;
  /** Mappings of files: node's code, shared libraries, the bundle if mapped. */
  fileBacked: number;
}

const FOUR_GIB = 4 * 1024 ** 3;
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
 * or more is the WebAssembly memory.
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
  const parts: MappedParts = { mallocHeap: 0, wasm: 0, otherAnonymous: 0, fileBacked: 0 };
  let run: Mapping[] = [];
  const endRun = () => {
    const size = (run.at(-1)?.end ?? 0) - (run[0]?.start ?? 0);
    for (const mapping of run) parts[size >= FOUR_GIB ? 'wasm' : 'otherAnonymous'] += mapping.rss;
    run = [];
  };
  for (const mapping of mappings) {
    const plainAnonymous = mapping.anonymous && mapping.path === '';
    if (!plainAnonymous || run.at(-1)?.end !== mapping.start) endRun();
    if (plainAnonymous) run.push(mapping);
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
    return { mallocHeap: Number.NaN, wasm: Number.NaN, otherAnonymous: Number.NaN, fileBacked: Number.NaN };
  }
}
