/**
 * Every link of the docs leads to a file of the project and, with #anchor, to a heading of that page; every
 * command example is one the real option parser takes (the verb table's options, their listed values) and
 * every `npm run` names a script of package.json.
 */
import { describe, expect, it } from 'vitest';
import {
  commandExamples,
  type Example,
  headingAnchors,
  linkProblem,
  localLinks,
  markdownPages,
  projectAt,
} from '../../scripts/docs/doc-checks.js';
import { parseVerbArgs } from '../../src/cli/parse-verb.js';
import { VERBS, type VerbSpec } from '../../src/cli/verb-table.js';

const project = projectAt('.');
const pages = markdownPages('.');
const scripts = Object.keys((JSON.parse(project.read('package.json')) as { scripts: object }).scripts);

/** Why the parser refuses an example, or undefined when it takes it. */
function exampleProblem(example: Example): string | undefined {
  const where = `${example.page}: ${example.line.trim()}`;
  if (example.program === 'npm run')
    return scripts.includes(example.argv[0] ?? '')
      ? undefined
      : `${where}: no npm script "${example.argv[0]}"`;
  const [first = '', ...rest] = example.argv;
  // As src/cli.ts: these come before any command and take nothing else.
  if (['__complete', '--version', '-V', '--help', '-h', 'help'].includes(first)) return undefined;
  const named = !first.startsWith('-') && first in VERBS && first !== '';
  const verb = (named ? VERBS[first as keyof typeof VERBS] : VERBS['']) as VerbSpec;
  const args = named ? rest : example.argv;
  try {
    const { values } = parseVerbArgs(verb, args);
    for (const [name, value] of Object.entries(values)) {
      const option = verb.options[name];
      const choices = option?.choices ?? (option?.value?.includes('|') ? option.value.split('|') : undefined);
      for (const each of [value].flat())
        if (choices && typeof each === 'string' && each !== '…' && !choices.includes(each))
          return `${where}: --${name} takes ${choices.join(', ')}, not ${each}`;
    }
    return undefined;
  } catch (error) {
    return `${where}: ${(error as Error).message}`;
  }
}

describe('the docs', () => {
  it('reads the pages of the project', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'docs/guide.md']));
  });

  it('link only to files and headings that exist', () => {
    const links = pages.flatMap((page) => localLinks(page, project.read(page)));
    expect(links.length).toBeGreaterThan(20);
    const problems = links.map((link) => linkProblem(link, project)).filter(Boolean);
    expect(problems).toEqual([]);
  });

  it('show only commands the option parser takes', () => {
    const examples = pages.flatMap((page) => commandExamples(page, project.read(page)));
    expect(examples.filter((each) => each.program === 'shop-inbox').length).toBeGreaterThan(30);
    expect(examples.map(exampleProblem).filter(Boolean)).toEqual([]);
  });
});

describe('the checks of the docs themselves', () => {
  const page = [
    '# Title',
    '## Several shops: `--shop NAME`',
    'See [shops](#several-shops---shop-name), [gone](#nowhere), [file](missing.md), [web](https://x.example).',
    '',
    '| a | b |',
    '|---|---|',
    '| [cell](#also-gone) | x |',
    '',
    '```sh',
    'shop-inbox status --jsn',
    'pass key | shop-inbox login \\',
    '   --base-url https://x.example/v1',
    'npm run nope && npm test',
    '```',
    '',
    'Inline: `shop-inbox inbox --filter nope`, a synopsis `shop-inbox [options]`, a title `shop-inbox · 3 callbacks`,',
    'a message `shop-inbox status: unknown option`, a typo `shop-inbox stauts`.',
  ].join('\n');

  it('find a heading by the anchor GitHub gives it', () => {
    expect(headingAnchors(page)).toEqual(new Set(['title', 'several-shops---shop-name']));
  });

  it('name each link to nothing, tables included, and leave web addresses alone', () => {
    const links = localLinks('docs/x.md', page);
    expect(links.map((link) => link.target)).toEqual([
      '#several-shops---shop-name',
      '#nowhere',
      'missing.md',
      '#also-gone',
    ]);
    const withPage = {
      exists: (path: string) => path === 'docs/x.md' || project.exists(path),
      read: (path: string) => (path === 'docs/x.md' ? page : project.read(path)),
    };
    const problems = links.map((link) => linkProblem(link, withPage));
    expect(problems).toEqual([
      undefined,
      'docs/x.md: #nowhere: docs/x.md has no heading with the anchor #nowhere',
      'docs/x.md: missing.md: there is no docs/missing.md',
      'docs/x.md: #also-gone: docs/x.md has no heading with the anchor #also-gone',
    ]);
  });

  it('find the commands of code blocks, pipes, continued lines and inline code, and refuse the wrong ones', () => {
    const examples = commandExamples('docs/x.md', page);
    expect(examples.map((each) => [each.program, ...each.argv])).toEqual([
      ['shop-inbox', 'status', '--jsn'],
      ['shop-inbox', 'login', '--base-url', 'https://x.example/v1'],
      ['npm run', 'nope'],
      ['npm run', 'test'],
      ['shop-inbox', 'inbox', '--filter', 'nope'],
      ['shop-inbox', 'stauts'],
    ]);
    expect(examples.map((each) => exampleProblem(each) ?? 'ok')).toEqual([
      expect.stringContaining('unknown option "--jsn"; did you mean --json?'),
      'ok',
      expect.stringContaining('no npm script "nope"'),
      'ok',
      expect.stringContaining('--filter takes open, callbacks, not nope'),
      expect.stringContaining('unexpected argument "stauts"'),
    ]);
  });
});
