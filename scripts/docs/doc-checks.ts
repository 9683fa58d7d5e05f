/**
 * What the docs point at: their links (a file of the project, a heading of a page) and their command
 * examples (`shop-inbox …` and `npm run …` in code). A test reads every page with these and fails on a
 * link to nothing or an example the real option parser refuses.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Lexer, type Token } from 'marked';
import { parse as shellWords } from 'shell-quote';

/** The project's Markdown pages, from its root: the top level, docs/ and patches/. */
export function markdownPages(root: string): string[] {
  const inFolder = (folder: string) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder))
          .filter((name) => name.endsWith('.md'))
          .map((name) => (folder === '.' ? name : `${folder}/${name}`))
      : [];
  return [...inFolder('.'), ...inFolder('docs'), ...inFolder('patches')].sort();
}

/** Every token of a page, tables' cells and lists' items included. */
function allTokens(markdown: string): Token[] {
  const found: Token[] = [];
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      found.push(token);
      const inner = token as {
        tokens?: Token[];
        items?: Token[];
        header?: Array<{ tokens: Token[] }>;
        rows?: Array<Array<{ tokens: Token[] }>>;
      };
      if (inner.tokens) walk(inner.tokens);
      if (inner.items) walk(inner.items);
      for (const cell of inner.header ?? []) walk(cell.tokens);
      for (const row of inner.rows ?? []) for (const cell of row) walk(cell.tokens);
    }
  };
  walk(Lexer.lex(markdown, { gfm: true }));
  return found;
}

/** The anchors a page's headings get on GitHub ("## Several shops" → "several-shops"). */
export function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const token of allTokens(markdown))
    if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])));
  return anchors;
}

/** A heading's words as GitHub reads them for its anchor: code and links as their text. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens && token.type !== 'codespan') return plainText(token.tokens);
      return 'text' in token ? token.text : token.raw;
    })
    .join('');
}

export interface Link {
  page: string;
  target: string;
}

/** The links of a page that point inside the project (a web address is not followed from a test). */
export function localLinks(page: string, markdown: string): Link[] {
  return allTokens(markdown)
    .filter((token) => token.type === 'link' || token.type === 'image')
    .map((token) => (token as { href: string }).href)
    .filter((href) => !/^[a-z][a-z+.-]*:/i.test(href))
    .map((target) => ({ page, target }));
}

/** The files a link may lead to, from the project's root. */
export interface Project {
  /** A file or a folder. */
  exists(path: string): boolean;
  read(path: string): string;
}

export const projectAt = (root: string): Project => ({
  exists: (path) => existsSync(join(root, path)),
  read: (path) => readFileSync(join(root, path), 'utf8'),
});

/** Why a link leads nowhere, or undefined when its file (and heading) are there. */
export function linkProblem(link: Link, project: Project): string | undefined {
  const [path = '', anchor] = link.target.split('#', 2);
  const file = path === '' ? link.page : normalize(join(dirname(link.page), decodeURIComponent(path)));
  if (file.startsWith('..')) return `${link.page}: ${link.target} leads out of the project`;
  if (!project.exists(file)) return `${link.page}: ${link.target}: there is no ${file}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `${link.page}: ${link.target}: only a page's headings have anchors`;
  if (!headingAnchors(project.read(file)).has(anchor))
    return `${link.page}: ${link.target}: ${file} has no heading with the anchor #${anchor}`;
  return undefined;
}

export interface Example {
  page: string;
  /** The line as the page has it (lines ending in \ joined). */
  line: string;
  /** The words after the program's name, as a shell would pass them. */
  argv: string[];
  program: 'shop-inbox' | 'npm run';
}

const SHELL_CODE = new Set(['sh', 'bash', 'shell', 'console', 'zsh', 'fish']);

/**
 * The command examples of a page: every command of its shell code blocks that runs shop-inbox or an npm
 * script, and every inline `shop-inbox` followed by an option or a word that could be a command (a
 * synopsis with [options] or a|b, a window title, a message that starts with the program's name are not).
 */
export function commandExamples(page: string, markdown: string): Example[] {
  const examples: Example[] = [];
  for (const token of allTokens(markdown)) {
    if (token.type === 'code' && SHELL_CODE.has((token as { lang?: string }).lang ?? ''))
      for (const line of (token as { text: string }).text.replace(/\\\n\s*/g, ' ').split('\n'))
        examples.push(...commandsOfLine(page, line));
    if (token.type === 'codespan') {
      const text = (token as { text: string }).text;
      if (/^shop-inbox( (-|[a-z_]+( |$))|$)/.test(text) && !/[[\]|]|\.\.\./.test(text))
        examples.push(...commandsOfLine(page, text.replaceAll('&amp;', '&').replaceAll('&quot;', '"')));
    }
  }
  return examples;
}

/** The shop-inbox and npm run commands of one line of shell: each part of a pipe, a list or a <( ). */
function commandsOfLine(page: string, line: string): Example[] {
  const words = shellWords(line, (name) => `$${name}`);
  const commands: string[][] = [[]];
  for (const word of words) {
    if (typeof word === 'string') commands.at(-1)?.push(word);
    else if ('op' in word) commands.push([]);
  }
  const examples: Example[] = [];
  for (const command of commands) {
    const [first, second, ...rest] = command;
    if (first === 'shop-inbox') examples.push({ page, line, argv: command.slice(1), program: 'shop-inbox' });
    else if (first === 'npm' && second === 'run' && rest[0])
      examples.push({ page, line, argv: rest, program: 'npm run' });
    else if (first === 'npm' && second === 'test')
      examples.push({ page, line, argv: ['test'], program: 'npm run' });
  }
  return examples;
}
