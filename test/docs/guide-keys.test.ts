/**
 * The guide's table of keys is prose (what a key does in each pane, in more words than a command's label),
 * so it is not generated; every key it names must be a default key of a command in the registry, so that a
 * key moved in the code cannot leave the guide naming the old one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';

const ARROWS: Record<string, string> = { '↑': 'up', '↓': 'down', '←': 'left', '→': 'right' };

/** The keys a cell of the table names: "`j`/`k`, ↑/↓, ctrl-d/ctrl-u" → j, k, up, down, ctrl-d, ctrl-u. */
function keysOfCell(cell: string): string[] {
  const words = cell
    .replaceAll('`', '')
    .split(/\s*(?:,|\/| or |\s)\s*/)
    .filter(Boolean);
  return words.flatMap((word) => {
    const range = /^(\d)–(\d)$/.exec(word);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      return Array.from({ length: to - from + 1 }, (_, index) => String(from + index));
    }
    return [ARROWS[word] ?? word];
  });
}

/** The first column of the guide's first table. */
function guideKeyCells(guide: string): string[] {
  const table = guide.slice(guide.indexOf('| key | does |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return rows.map((row) => row.split(' | ')[0]?.replace(/^\| /, '') ?? '');
}

describe("the guide's table of keys", () => {
  it('reads the keys of a cell as staff write them', () => {
    expect(keysOfCell('`j`/`k`, ↑/↓, `g`/`G`, ctrl-d/ctrl-u')).toEqual([
      'j',
      'k',
      'up',
      'down',
      'g',
      'G',
      'ctrl-d',
      'ctrl-u',
    ]);
    expect(keysOfCell('tab / shift-tab, `1`–`3`')).toEqual(['tab', 'shift-tab', '1', '2', '3']);
    expect(keysOfCell('`:` or ctrl-p')).toEqual([':', 'ctrl-p']);
  });

  it('names only keys the command registry binds', () => {
    const bound = new Set(ALL_COMMANDS.flatMap((command) => command.keys));
    const cells = guideKeyCells(readFileSync('docs/guide.md', 'utf8'));
    expect(cells.length).toBeGreaterThan(20);
    const unbound = cells.flatMap((cell) => keysOfCell(cell).filter((key) => !bound.has(key)));
    expect(unbound).toEqual([]);
  });
});
