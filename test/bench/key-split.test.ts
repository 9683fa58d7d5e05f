/**
 * The bench sets each key it pressed beside the inbox's key trace (bench/key-split.ts): each press finds
 * the line of its own key, the parts of a key add up to its key → first byte, and the table's columns add
 * up to their totals.
 */
import { describe, expect, it } from 'vitest';
import { keySplitTable, splitKeys } from '../../bench/key-split.js';

const T = 1_800_000_000_000;

describe('splitKeys', () => {
  it("splits each press by its own key's line", () => {
    const presses = [
      { pressedAt: T, seenAt: T + 6 },
      { pressedAt: T + 250, seenAt: T + 270 },
    ];
    const lines = [
      { readAt: T + 0.5, writtenAt: T + 5, waitingMs: 1 },
      { readAt: T + 253, writtenAt: T + 262, waitingMs: 4.5 },
    ];
    const [first, second] = splitKeys(presses, lines);
    expect(first).toEqual({
      beforeRead: 0.5,
      inside: 4.5,
      waiting: 1,
      running: 3.5,
      afterWrite: 1,
      total: 6,
    });
    expect(second?.beforeRead).toBe(3);
    expect(second?.waiting).toBe(4.5);
    expect(second?.afterWrite).toBe(8);
    for (const parts of [first, second]) {
      if (!parts) throw new Error('a press without its parts');
      expect(parts.beforeRead + parts.inside + parts.afterWrite).toBeCloseTo(parts.total, 9);
      expect(parts.waiting + parts.running).toBeCloseTo(parts.inside, 9);
    }
  });

  it('leaves out a press whose key left no line, and never takes the next key’s line for it', () => {
    const presses = [
      { pressedAt: T, seenAt: T + 30 },
      { pressedAt: T + 10, seenAt: T + 14 },
    ];
    // Only the second key was traced (the first drew nothing, or it came before the trace began).
    const lines = [{ readAt: T + 11, writtenAt: T + 13, waitingMs: 0 }];
    const parts = splitKeys(presses, lines);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.total).toBe(4);
  });

  it("keeps the thread's wait inside the time measured, and marks it unknown where the trace has none", () => {
    const presses = [
      { pressedAt: T, seenAt: T + 4 },
      { pressedAt: T + 100, seenAt: T + 104 },
    ];
    const lines = [
      // The thread's count read a little after the wall clock: more time waited than between the marks.
      { readAt: T + 1, writtenAt: T + 3, waitingMs: 2.01 },
      { readAt: T + 101, writtenAt: T + 103 },
    ];
    const [timed, untimed] = splitKeys(presses, lines);
    expect(timed).toMatchObject({ inside: 2, waiting: 2, running: 0 });
    expect(untimed?.inside).toBe(2);
    expect(untimed?.waiting).toBeNaN();
    expect(untimed?.running).toBeNaN();
  });
});

describe('keySplitTable', () => {
  it('gives the keys around the median and the slowest 2 %, each column adding up to its total', () => {
    const presses = Array.from({ length: 100 }, (_, index) => ({
      pressedAt: T + index * 250,
      seenAt: T + index * 250 + (index < 98 ? 5 : 20),
    }));
    const lines = presses.map((press, index) => ({
      readAt: press.pressedAt + 0.5,
      writtenAt: press.seenAt - 0.5,
      waitingMs: index < 98 ? 0.5 : 10,
    }));
    const table = keySplitTable(splitKeys(presses, lines)) ?? '';
    const row = (label: string) =>
      table
        .split('\n')
        .find((line) => line.startsWith(`| ${label}`))
        ?.split('|')
        .slice(2, 4)
        .map((cell) => Number(cell.trim()));
    expect(table).toContain('keys around the median (10)');
    expect(table).toContain('the slowest 2 % (2)');
    expect(row('key → first byte')).toEqual([5, 20]);
    expect(row('read → its frame written')).toEqual([4, 19]);
    expect(row('… of which the main thread ready, waiting for a CPU')).toEqual([0.5, 10]);
    expect(row('… the rest: the main thread running')).toEqual([3.5, 9]);
    expect(row('the key on its way')).toEqual([0.5, 0.5]);
    expect(row('frame written')).toEqual([0.5, 0.5]);
  });

  it("says n/a for the thread's wait of a trace without it, and nothing for no keys", () => {
    const table = keySplitTable(
      splitKeys([{ pressedAt: T, seenAt: T + 5 }], [{ readAt: T + 1, writtenAt: T + 4 }]),
    );
    expect(table).toMatch(/\| … the rest: the main thread running [^|]*\| n\/a \| n\/a \|/);
    expect(table).toMatch(/\| read → its frame written \| 3\.0 \| 3\.0 \|/);
    expect(keySplitTable([])).toBeUndefined();
  });
});
