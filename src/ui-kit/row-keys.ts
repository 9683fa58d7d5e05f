/**
 * React keys for rows the server may send twice: two customers may text the same words in the same second,
 * and rows with one key are duplicated or dropped. The second of a kind gets "#1", the third "#2".
 */
export function rowKeys<T>(rows: readonly T[], keyOf: (row: T) => string): string[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const key = keyOf(row);
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    return count === 0 ? key : `${key}#${count}`;
  });
}
