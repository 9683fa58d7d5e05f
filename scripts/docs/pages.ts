/** The pages that hold generated blocks, and what `npm run docs` would make of each. */
import { generatedBlocks } from './blocks.js';
import { configJsonSchema } from './config-docs.js';
import { manPage } from './man-page.js';
import { DOCS_COMMAND, fillBlocks } from './markers.js';

/** The pages with generated blocks, from the project's root. */
export const PAGES = [
  'README.md',
  'docs/guide.md',
  'docs/keys.md',
  'docs/cli.md',
  'docs/config.md',
  'docs/monitoring.md',
] as const;

/** The files written whole, each from what the project's files say (`read`). */
export const WHOLE_FILES: Readonly<Record<string, (read: (path: string) => string) => string>> = {
  'man/shop-inbox.1': (read) => manPage((JSON.parse(read('package.json')) as { version: string }).version),
  'schema/config.schema.json': () => configJsonSchema(),
};

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
  const current = (page: string) => {
    try {
      return read(page);
    } catch {
      return '';
    }
  };
  const pages = PAGES.map((page): PageState => {
    const filled = fillBlocks(current(page), blocks);
    for (const name of filled.names) placed.add(name);
    return { page, current: current(page), wanted: filled.text, unknown: filled.unknown };
  });
  for (const [page, write] of Object.entries(WHOLE_FILES))
    pages.push({ page, current: current(page), wanted: write(read), unknown: [] });
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
