/**
 * The docs' generated blocks (scripts/docs/): the pages as committed are what
 * `npm run docs` writes from the command registry and the verb table, and the
 * check names the page and the command to run when one is not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandTable, generatedBlocks } from '../../scripts/docs/blocks.js';
import { endMarker, fillBlocks, startMarker } from '../../scripts/docs/markers.js';
import { docsState, PAGES, staleness } from '../../scripts/docs/pages.js';
import { NAMED_VERBS, usageLine } from '../../src/cli/verb-table.js';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';

const fromDisk = (page: string) => readFileSync(page, 'utf8');

describe('generated docs', () => {
  it('are current: every page is what npm run docs writes, every block on a page', () => {
    expect(staleness(docsState(fromDisk))).toEqual([]);
  });

  it('hold every command id and every verb, from the code', () => {
    const readme = fromDisk('README.md');
    for (const command of ALL_COMMANDS) expect(readme).toContain(`| \`${command.id}\` |`);
    for (const verb of NAMED_VERBS) expect(readme).toContain(usageLine(verb));
  });

  it('name the stale page and the command to run', () => {
    const edited = (page: string) =>
      page === 'README.md' ? fromDisk(page).replace('| 0 | done |', '| 0 | finished |') : fromDisk(page);
    expect(staleness(docsState(edited))).toEqual([
      'README.md is out of date with the code: run npm run docs',
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
