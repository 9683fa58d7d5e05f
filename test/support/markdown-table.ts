/** A generated Markdown table read as a reader sees it: its titles, then each row's cells, `\|` read back as `|`. */
export function markdownTable(table: string): { titles: string[]; rule: string; rows: string[][] } {
  const [header = '', rule = '', ...lines] = table.split('\n');
  const cells = (line: string) =>
    line
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
  return { titles: cells(header), rule, rows: lines.map(cells) };
}
