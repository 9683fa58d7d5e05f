/**
 * Sending only the cells of a line that changed: whatever the two lines are
 * (styles, wide characters, shorter or longer), a terminal that showed the
 * first and received the update shows exactly what one that received the
 * second whole shows, cell by cell, colours and attributes included. And a
 * frame drawn whole over a screen something else wrote on (after a resize,
 * ctrl-l) leaves exactly what a blank screen given that frame shows. The
 * terminal is xterm.js with Unicode 11 widths; the lines are random.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collapseLineMoves, lineUpdate, wholeScreen } from '../../src/ui-kit/terminal-line-update.js';

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

describe('wholeScreen', () => {
  const ROWS = 8;
  const screenTerminal = () => {
    const term = new xtermHeadless.Terminal({ cols: 80, rows: ROWS, allowProposedApi: true });
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = '11';
    return term;
  };
  const garbled = screenTerminal();
  const blank = screenTerminal();
  afterAll(() => {
    garbled.dispose();
    blank.dispose();
  });

  /** Every cell of the screen, as in cells() above. */
  const screenCells = (term: ReturnType<typeof screenTerminal>) => {
    const cell = term.buffer.active.getNullCell();
    const out: string[] = [];
    // Below what an erase of the whole screen pushed into the history.
    const top = term.buffer.active.baseY;
    for (let y = 0; y < ROWS; y += 1) {
      const row = term.buffer.active.getLine(top + y);
      for (let x = 0; x < term.cols; x += 1) {
        row?.getCell(x, cell);
        out.push(
          [cell.getChars() || ' ', cell.getWidth(), cell.getFgColor(), cell.isBold(), cell.isInverse()].join(
            '|',
          ),
        );
      }
    }
    return out;
  };

  /** What another program or a garbled sequence left: text anywhere, in any style, the cursor anywhere. */
  const scribble = fc
    .array(
      fc.tuple(
        fc.integer({ min: 1, max: ROWS }),
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom(...STYLES),
        fc.constantFrom(...TEXTS),
      ),
      { maxLength: 12 },
    )
    .map((writes) =>
      writes.map(([row, column, style, text]) => `${ESC}[${row};${column}H${style}${text}`).join(''),
    );
  /** A row as wide as the terminal: what follows it must not erase its last column. */
  const fullRow = fc.constantFrom('─', '│', 'x').map((char) => char.repeat(80));
  /** A frame as Ink renders the inbox's: shorter than the terminal, ending with a line break. */
  const frame = fc
    .array(fc.oneof(line, fullRow), { minLength: 1, maxLength: ROWS - 1 })
    .chain((rows) => fc.boolean().map((trailing) => `${rows.join('\n')}${trailing ? '\n' : ''}`));

  it('leaves what a blank screen given the same frame shows, whatever was on screen', async () => {
    await fc.assert(
      fc.asyncProperty(scribble, frame, async (before, next) => {
        await write(garbled, `${ESC}[0m${ESC}[H${ESC}[2J${before}`);
        await write(garbled, wholeScreen(next));
        await write(blank, `${ESC}[0m${ESC}[H${ESC}[2J`);
        // A blank screen and a cursor at the top left: what Ink's first frame relies on.
        await write(blank, next.replaceAll('\n', '\r\n'));
        expect(screenCells(garbled)).toEqual(screenCells(blank));
      }),
      { numRuns: 300 },
    );
  });
});
