/** The pages that hold generated blocks, and what `npm run docs` would make of each. */
import { generatedBlocks } from './blocks.js';
import { DOCS_COMMAND, fillBlocks } from './markers.js';

/** The pages with generated blocks, from the project's root. */
export const PAGES = ['README.md'] as const;

export interface PageState {
  page: string;
  /** The page as it is. */
  current: string;
  /** The page with every block written anew. */
  wanted: string;
  unknown: string[];
}

export interface DocsState {
  pages: PageState[];
  /** Blocks written for no page: a generator nobody reads. */
  unplaced: string[];
}

export function docsState(read: (page: string) => string, blocks = generatedBlocks()): DocsState {
  const placed = new Set<string>();
  const pages = PAGES.map((page): PageState => {
    const current = read(page);
    const filled = fillBlocks(current, blocks);
    for (const name of filled.names) placed.add(name);
    return { page, current, wanted: filled.text, unknown: filled.unknown };
  });
  return { pages, unplaced: [...blocks.keys()].filter((name) => !placed.has(name)) };
}

/** What is wrong with the docs as they are, one line each (none: they are current). */
export function staleness(state: DocsState): string[] {
  const problems: string[] = [];
  for (const page of state.pages) {
    if (page.current !== page.wanted)
      problems.push(`${page.page} is out of date with the code: run ${DOCS_COMMAND}`);
    for (const name of page.unknown) problems.push(`${page.page}: no generator writes the block "${name}"`);
  }
  for (const name of state.unplaced)
    problems.push(`the block "${name}" is on no page: add its markers to one (scripts/docs/markers.ts)`);
  return problems;
}
