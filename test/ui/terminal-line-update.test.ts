/**
 * Sending only the cells of a line that changed: whatever the two lines are
 * (styles, wide characters, shorter or longer), a terminal that showed the
 * first and received the update shows exactly what one that received the
 * second whole shows, cell by cell, colours and attributes included. The
 * terminal is xterm.js with Unicode 11 widths; the lines are random.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collapseLineMoves, lineUpdate } from '../../src/ui-kit/terminal-line-update.js';

const ESC = '\u001B';
const STYLES = ['', `${ESC}[1m`, `${ESC}[7m`, `${ESC}[2m`, `${ESC}[31m`, `${ESC}[36m`, `${ESC}[1m${ESC}[33m`];
const TEXTS = ['a', 'b', ' ', 'Ray', 'Tom', '·', '│', '👍', '界', 'é', 'שלום', '…', '12s'];

/** A line as Ink writes it: runs of text, each styled and reset. */
const line = fc
  .array(
    fc.tuple(fc.constantFrom(...STYLES), fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 4 })),
    {
      maxLength: 8,
    },
  )
  .map((runs) =>
    runs.map(([style, text]) => (style ? `${style}${text.join('')}${ESC}[0m` : text.join(''))).join(''),
  );

const terminal = () => {
  const term = new xtermHeadless.Terminal({ cols: 80, rows: 3, allowProposedApi: true });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  return term;
};
const a = terminal();
const b = terminal();
afterAll(() => {
  a.dispose();
  b.dispose();
});

const write = (term: ReturnType<typeof terminal>, data: string) =>
  new Promise<void>((resolve) => term.write(data, resolve));

/** Each cell of row 0: its character, width, colour and attributes. */
function cells(term: ReturnType<typeof terminal>): string[] {
  const row = term.buffer.active.getLine(0);
  const cell = term.buffer.active.getNullCell();
  const out: string[] = [];
  for (let x = 0; x < term.cols; x += 1) {
    row?.getCell(x, cell);
    out.push(
      [
        cell.getChars() || ' ',
        cell.getWidth(),
        cell.getFgColor(),
        cell.isBold(),
        cell.isInverse(),
        cell.isDim(),
      ].join('|'),
    );
  }
  return out;
}

describe('lineUpdate', () => {
  it('turns any line into any other, cell for cell, and never sends more than the whole line', async () => {
    await fc.assert(
      fc.asyncProperty(line, line, async (previous, next) => {
        await write(a, `${ESC}[H${ESC}[2J${previous}`);
        const update = lineUpdate(previous, next);
        // The cursor may be anywhere on the row before the update (after the previous write, or at 0).
        await write(a, `${ESC}[1G${update}`);
        await write(b, `${ESC}[H${ESC}[2J${next}`);
        expect(cells(a)).toEqual(cells(b));
        expect(update.length).toBeLessThanOrEqual(`${ESC}[1G${next}${ESC}[K`.length);
      }),
      { numRuns: 400 },
    );
  });

  it('sends only the changed cells when the highlight moves off a name', () => {
    const before = `│   ${ESC}[7m${ESC}[1mRay Whitaker${ESC}[0m    +15035550187 water heater SAME DAY  contacted   9h │`;
    const after = '│   Ray Whitaker    +15035550187 water heater SAME DAY  contacted   9h │';
    const update = lineUpdate(before, after);
    expect(update).toContain('Ray Whitaker');
    expect(update).not.toContain('water heater');
    expect(update.length).toBeLessThan(after.length / 2);
  });

  it('nothing for a line that did not change', () => {
    expect(lineUpdate('same', 'same')).toBe('');
  });
});

describe('collapseLineMoves', () => {
  it('writes a run of unchanged rows as one move', () => {
    expect(collapseLineMoves(`x${ESC}[E${ESC}[E${ESC}[Ey${ESC}[Ez`)).toBe(`x${ESC}[3Ey${ESC}[Ez`);
  });
});
