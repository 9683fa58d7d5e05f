/**
 * The soak (bench/soak.ts) tells where a program's resident memory lies from /proc/PID/smaps. Here on
 * mappings laid out as a Node process on Linux has them: malloc's brk heap, a thread arena of 64 MiB
 * right after the guard of Yoga's WebAssembly memory, V8's heap pages, node's own code.
 */
import { expect, it } from 'vitest';
import { mappedParts } from '../../bench/memory-parts.js';

const MIB = 1024 * 1024;
const hex = (value: number) => value.toString(16).padStart(12, '0');
/** One mapping of smaps: its first line and its Rss. */
const mapping = (start: number, end: number, perms: string, residentKiB: number, inode = 0, path = '') =>
  `${hex(start)}-${hex(end)} ${perms} 00000000 ${inode ? 'fe:00' : '00:00'} ${inode} ${path}\nSize: ${(end - start) / 1024} kB\nRss: ${residentKiB} kB\nPss: ${residentKiB} kB\nVmFlags: rd wr mr mw me ac`;

it('tells malloc, its thread arenas, the WebAssembly memory, other anonymous memory and files apart', () => {
  const wasmStart = 0x7f0000000000;
  // As V8 reserves it on Linux x64: 10 GiB, of which 16 MiB in use after a guard of 2 GiB.
  const guardEnd = wasmStart + 10 * 1024 * MIB;
  const smaps = [
    mapping(0x400000, 0xb6f000, 'r--p', 5_940, 260_131, '/usr/bin/node'),
    mapping(0xb72000, 0x25fe000, 'r-xp', 22_992, 260_131, '/usr/bin/node'),
    mapping(0x20099000, 0x2082a000, 'rw-p', 7_516, 0, '[heap]'),
    // V8's heap pages, 256 KiB each.
    mapping(0x3e8922380000, 0x3e89223c0000, 'rw-p', 256),
    mapping(0x3f329d5c0000, 0x3f329d600000, 'rw-p', 200),
    // The WebAssembly reservation: a guard, the memory in use, a guard.
    mapping(wasmStart, wasmStart + 2 * 1024 * MIB, '---p', 0),
    mapping(wasmStart + 2 * 1024 * MIB, wasmStart + 2 * 1024 * MIB + 16 * MIB, 'rw-p', 712),
    mapping(wasmStart + 2 * 1024 * MIB + 16 * MIB, guardEnd, '---p', 0),
    // Two thread arenas of malloc, the first right after the guard.
    mapping(guardEnd, guardEnd + 8 * MIB, 'rw-p', 416),
    mapping(guardEnd + 8 * MIB, guardEnd + 64 * MIB, '---p', 0),
    mapping(guardEnd + 64 * MIB, guardEnd + 128 * MIB, 'rw-p', 1_000),
    // A thread's stack: its guard page, then the stack.
    mapping(0x7f1000000000, 0x7f1000001000, '---p', 0),
    mapping(0x7f1000001000, 0x7f1000801000, 'rw-p', 40),
    mapping(0x7f2000000000, 0x7f20000a0000, 'r-xp', 1_044, 3_001, '/usr/lib/x86_64-linux-gnu/libc.so.6'),
  ].join('\n');
  expect(mappedParts(smaps)).toEqual({
    mallocHeap: 7_516 * 1024,
    mallocThreads: (416 + 1_000) * 1024,
    wasm: 712 * 1024,
    otherAnonymous: (256 + 200 + 40) * 1024,
    fileBacked: (5_940 + 22_992 + 1_044) * 1024,
  });
});

it('counts a 64 MiB mapping that is not aligned as other anonymous memory, not an arena', () => {
  const start = 0x7f0000000000 + 4096;
  expect(mappedParts(mapping(start, start + 64 * MIB, 'rw-p', 300)).otherAnonymous).toBe(300 * 1024);
});
