/**
 * Text cut into the lines a terminal of this width shows: at spaces where it
 * can, inside a word only when the word alone is wider than a line. Widths
 * are terminal cells (string-width), so a line never wraps again on screen.
 */
import stringWidth from 'string-width';

export function wrapLines(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let used = 0;
    for (const word of paragraph.split(/(\s+)/)) {
      if (word === '') continue;
      const wide = stringWidth(word);
      if (used + wide <= room) {
        line += word;
        used += wide;
        continue;
      }
      if (/^\s+$/.test(word)) {
        // A break between words: the spaces go with it.
        lines.push(line);
        line = '';
        used = 0;
        continue;
      }
      if (used > 0 && wide <= room) {
        lines.push(line.trimEnd());
        line = word;
        used = wide;
        continue;
      }
      for (const char of word) {
        const cell = stringWidth(char);
        if (used + cell > room && used > 0) {
          lines.push(line);
          line = '';
          used = 0;
        }
        line += char;
        used += cell;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
