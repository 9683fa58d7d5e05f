/**
 * The docs' generated blocks (scripts/docs/): the pages as committed are what
 * `npm run docs` writes from the code (the command registry, the verb table, the
 * config's schema, the --json schemas, the metrics, the template variables), and the
 * check names the page and the command to run when one is not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandTable, generatedBlocks } from '../../scripts/docs/blocks.js';
import { endMarker, fillBlocks, startMarker } from '../../scripts/docs/markers.js';
import { docsState, PAGES, staleness } from '../../scripts/docs/pages.js';
import { NAMED_VERBS, usageLine } from '../../src/cli/verb-table.js';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';
import { TEMPLATE_VARIABLES } from '../../src/user-actions/templates.js';

const fromDisk = (page: string) => readFileSync(page, 'utf8');

describe('generated docs', () => {
  it('are current: every page is what npm run docs writes, every block on a page', () => {
    expect(staleness(docsState(fromDisk))).toEqual([]);
  });

  it('hold every command id, every verb and every template variable, from the code', () => {
    const keys = fromDisk('docs/keys.md');
    for (const command of ALL_COMMANDS) expect(keys).toContain(`| \`${command.id}\` |`);
    for (const verb of NAMED_VERBS) {
      expect(fromDisk('README.md')).toContain(usageLine(verb));
      expect(fromDisk('docs/cli.md')).toContain(usageLine(verb));
    }
    for (const name of Object.keys(TEMPLATE_VARIABLES))
      expect(fromDisk('docs/guide.md')).toContain(`\`{${name}}\``);
  });

  it("keep the README's first day short: each of its commands once, every one a command of the registry", () => {
    const readme = fromDisk('README.md');
    const block =
      /<!-- generated: first-day-keys [^\n]*\n([\s\S]*?)<!-- end generated/.exec(readme)?.[1] ?? '';
    const rows = block.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(new Set(rows).size).toBe(rows.length);
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('name the stale page and the command to run', () => {
    const edited = (page: string) =>
      page === 'docs/cli.md' ? fromDisk(page).replace('| 0 | done |', '| 0 | finished |') : fromDisk(page);
    expect(staleness(docsState(edited))).toEqual([
      'docs/cli.md is out of date with the code: run npm run docs',
    ]);
  });

  it('name a block no generator writes, one left unclosed, and one on no page', () => {
    const page = `${startMarker('nothing')}\nold\n${endMarker('nothing')}\n${startMarker('commands')}\nopen`;
    expect(fillBlocks(page, generatedBlocks()).unknown).toEqual(['nothing', 'commands (no end marker)']);
    const withoutCommands = (name: string) =>
      fromDisk(name).replace(/<!-- generated: commands [\s\S]*?<!-- end generated: commands -->\n/, '');
    expect(staleness(docsState(withoutCommands))).toEqual([
      'the block "commands" is on no page: add its markers to one (scripts/docs/markers.ts)',
    ]);
  });

  it('write a block between its markers and leave the prose around it', () => {
    const page = `before\n${startMarker('commands')}\nstale\n${endMarker('commands')}\nafter\n`;
    expect(fillBlocks(page, generatedBlocks()).text).toBe(
      `before\n${startMarker('commands')}\n${commandTable()}\n${endMarker('commands')}\nafter\n`,
    );
    expect(PAGES).toContain('README.md');
  });
});
