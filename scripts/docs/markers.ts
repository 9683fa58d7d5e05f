/**
 * A page's generated blocks sit between two markers, which Markdown hides:
 *
 *   <!-- generated: NAME (npm run docs) -->
 *   …written by `npm run docs`…
 *   <!-- end generated: NAME -->
 *
 * Everything outside them is the page's own prose.
 */

export const DOCS_COMMAND = 'npm run docs';

const MARKED = /<!-- generated: ([\w-]+) \(npm run docs\) -->\n[\s\S]*?<!-- end generated: \1 -->/g;

export const startMarker = (name: string) => `<!-- generated: ${name} (${DOCS_COMMAND}) -->`;
export const endMarker = (name: string) => `<!-- end generated: ${name} -->`;

export interface Filled {
  text: string;
  /** The blocks the page names that no generator writes. */
  unknown: string[];
  /** The blocks the page holds, by name. */
  names: string[];
}

/** The page with each marked block written anew from `blocks`; a marker unclosed or unknown is reported. */
export function fillBlocks(page: string, blocks: ReadonlyMap<string, string>): Filled {
  const unknown: string[] = [];
  const names: string[] = [];
  const text = page.replace(MARKED, (whole, name: string) => {
    names.push(name);
    const block = blocks.get(name);
    if (block === undefined) {
      unknown.push(name);
      return whole;
    }
    return `${startMarker(name)}\n${block}\n${endMarker(name)}`;
  });
  const opened = [...page.matchAll(/<!-- generated: ([\w-]+) /g)].map((match) => match[1] as string);
  for (const name of opened) if (!names.includes(name)) unknown.push(`${name} (no end marker)`);
  return { text, unknown, names };
}
