/**
 * The commands' human output: every server string sanitized (one line, no
 * control or bidi characters) and cut to a width before it is printed,
 * columns padded by the width terminals give each character.
 */
import stringWidth from 'string-width';
import { capText } from '../api/limits.js';
import { sanitize } from '../text/sanitize.js';

const graphemes = new Intl.Segmenter();

/** A server string as one printable line of at most `columns` columns, cut with "…". */
export function cell(value: unknown, columns: number): string {
  const text = sanitize(capText(String(value ?? ''), columns * 4 + 16), { singleLine: true }).trim();
  if (stringWidth(text) <= columns) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const width = stringWidth(segment);
    if (used + width > columns - 1) break;
    kept += segment;
    used += width;
  }
  return `${kept.trimEnd()}…`;
}

/** Rows under a header, each column as wide as its widest cell; the last column is not padded. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) =>
    Math.max(stringWidth(title), ...rows.map((row) => stringWidth(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((text, column) =>
        column === cells.length - 1 ? text : text + ' '.repeat((widths[column] ?? 0) - stringWidth(text)),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `${text}\n`).join('');
}

/** "45s", "14m", "3h", "2d": how long ago, as kubectl writes ages. */
export function age(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** The age of a server timestamp at `now`, or "?" when it is not one. */
export function ageOf(timestamp: string, now: number): string {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? '?' : age(now - at);
}

/** "2026-11-21 14:03" in this machine's zone (TZ), or the text as given (cut) when it is not a time. */
export function localTimeOf(timestamp: string): string {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return cell(timestamp, 25);
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
