/**
 * `npm run docs`: writes every generated block of the docs from the code.
 * `npm run docs -- --check`: writes nothing, and fails naming each page that is out of date.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { docsState, staleness } from './pages.js';

const check = process.argv.includes('--check');
const state = docsState((page) => readFileSync(page, 'utf8'));
if (check) {
  const problems = staleness(state);
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
} else {
  for (const page of state.pages)
    if (page.current !== page.wanted) {
      mkdirSync(dirname(page.page), { recursive: true });
      writeFileSync(page.page, page.wanted);
      console.log(`wrote ${page.page}`);
    }
  const problems = staleness(docsState((page) => readFileSync(page, 'utf8')));
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
