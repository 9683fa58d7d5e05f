/**
 * Block digits for numbers read from across the room: a 3×5 glyph per
 * character, drawn with full blocks and scaled by whole cells. Ten digits and
 * two signs are data enough that a figlet-style package (fonts by the
 * megabyte) would weigh more than it gives.
 */

const GLYPHS: Record<string, readonly string[]> = {
  '0': ['███', '█ █', '█ █', '█ █', '███'],
  '1': [' █ ', '██ ', ' █ ', ' █ ', '███'],
  '2': ['███', '  █', '███', '█  ', '███'],
  '3': ['███', '  █', '███', '  █', '███'],
  '4': ['█ █', '█ █', '███', '  █', '  █'],
  '5': ['███', '█  ', '███', '  █', '███'],
  '6': ['███', '█  ', '███', '█ █', '███'],
  '7': ['███', '  █', '  █', '  █', '  █'],
  '8': ['███', '█ █', '███', '█ █', '███'],
  '9': ['███', '█ █', '███', '  █', '███'],
  '+': ['   ', ' █ ', '███', ' █ ', '   '],
  '-': ['   ', '   ', '███', '   ', '   '],
};

export const GLYPH_WIDTH = 3;
export const GLYPH_HEIGHT = 5;

/** Columns that `text` takes at `scale` (a cell of space between characters). */
export function bigWidth(text: string, scale: number): number {
  const count = [...text].length;
  return count === 0 ? 0 : count * GLYPH_WIDTH * scale + (count - 1) * scale;
}

/** The largest scale at which `digits` characters fit in `width` columns (0: not even at scale 1). */
export function largestScaleFitting(digits: number, width: number): number {
  let scale = 0;
  while (bigWidth('8'.repeat(digits), scale + 1) <= width) scale += 1;
  return scale;
}

/** The rows of `text` in block digits at `scale` (characters without a glyph are drawn as "-"). */
export function bigText(text: string, scale: number): string[] {
  const rows: string[] = [];
  for (let row = 0; row < GLYPH_HEIGHT; row += 1) {
    const line = [...text]
      .map((char) =>
        [...((GLYPHS[char] ?? GLYPHS['-'] ?? [])[row] ?? '')].map((cell) => cell.repeat(scale)).join(''),
      )
      .join(' '.repeat(scale));
    for (let copy = 0; copy < scale; copy += 1) rows.push(line);
  }
  return rows;
}
