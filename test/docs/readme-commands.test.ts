/**
 * The README's table of commands is the registry's: every command id with its
 * default keys, where it works and what it does there (a pane's own wording of
 * a shared command is its own row). When a command changes, this test prints
 * the table to paste into the README.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';
import type { Command } from '../../src/ui-kit/commands/command.js';

const WHERE: Record<Command['mode'], string> = {
  fatal: 'key refused screen',
  wallboard: 'the wallboard',
  prompt: 'a y/n question',
  confirm: 'a typed confirmation',
  help: 'the help',
  editkeys: 'the list of editing keys',
  log: 'the message log',
  palette: 'the palette',
  shops: 'the shop list',
  inbound: 'the latest inbound texts',
  templates: 'the template picker',
  composer: 'the composer',
  search: 'a filter or search line',
  edit: 'any text being typed',
  pane: '',
  global: 'every pane',
  always: 'everywhere',
};

interface Row {
  keys: string;
  where: string[];
  does: string;
}

/**
 * The rows of the table: one per command id and what it does, so that a command several panes share is
 * one row where it reads the same and one row per wording where a pane says it its own way.
 */
function commandTable(): string {
  const rows = new Map<string, Row[]>();
  const order: Command['mode'][] = [
    'global',
    'pane',
    'always',
    'inbound',
    'composer',
    'templates',
    'edit',
    'search',
    'prompt',
    'confirm',
    'help',
    'editkeys',
    'log',
    'palette',
    'fatal',
    'wallboard',
  ];
  const sorted = [...ALL_COMMANDS].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
  for (const command of sorted) {
    const id = `${command.id}|${command.mode === 'pane' ? 'pane' : command.mode}`;
    const where = command.mode === 'pane' ? (command.pane ?? '') : WHERE[command.mode];
    const keys = command.keys.map((k) => `\`${k.replaceAll('|', '\\|')}\``).join(' ') || '—';
    const does = command.writes
      ? `${command.label} (changes the shop: off in read-only mode)`
      : command.label;
    const variants = rows.get(id) ?? [];
    rows.set(id, variants);
    const same = variants.find((row) => row.keys === keys && row.does === does);
    if (same) same.where.push(where);
    else variants.push({ keys, where: [where], does });
  }
  const lines = ['| command id | default keys | where | does |', '|---|---|---|---|'];
  for (const [id, variants] of rows) {
    for (const row of variants)
      lines.push(
        `| \`${id.split('|')[0]}\` | ${row.keys} | ${row.where.join(', ')} | ${row.does.replaceAll('|', '\\|')} |`,
      );
  }
  return lines.join('\n');
}

describe('README', () => {
  it('lists every command id with its default keys, as the registry has them', () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = commandTable();
    expect(readme.includes(table), `README.md should contain this table:\n\n${table}\n`).toBe(true);
  });
});
