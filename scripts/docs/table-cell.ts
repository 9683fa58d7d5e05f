/** A string as one cell of a Markdown table: a pipe would end the cell, a line break the row. */
export const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
