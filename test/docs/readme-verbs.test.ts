/**
 * The README's tables of commands, options and exit codes are the verb
 * table's (src/cli/verb-table.ts), and each --json example it shows parses
 * with that command's schema (src/contract/cli-output.ts). When a command
 * changes, this test prints the table to paste into the README.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_METRICS } from '../../src/cli/check-command.js';
import {
  EXIT_CODES,
  NAGIOS_CODES,
  NAMED_VERBS,
  optionLabel,
  usageLine,
  type VerbSpec,
} from '../../src/cli/verb-table.js';
import { CLI_OUTPUTS } from '../../src/contract/cli-output.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function commandsTable(): string {
  const rows = NAMED_VERBS.map((verb) => `| \`${cell(usageLine(verb))}\` | ${cell(verb.summary)} |`);
  return ['| command | what it does |', '|---|---|', ...rows].join('\n');
}

function optionsTable(verb: VerbSpec): string {
  const rows = Object.entries(verb.options)
    .filter(([name]) => name !== 'help')
    .map(([name, option]) => `| \`${cell(optionLabel(name, option))}\` | ${cell(option.help)} |`);
  return [`| \`${verb.name}\` option | meaning |`, '|---|---|', ...rows].join('\n');
}

function exitTable(codes: ReadonlyArray<{ code: number; meaning: string }>, title: string): string {
  return [
    `| ${title} | meaning |`,
    '|---|---|',
    ...codes.map(({ code, meaning }) => `| ${code} | ${cell(meaning)} |`),
  ].join('\n');
}

function metricsTable(): string {
  const rows = Object.entries(CHECK_METRICS).map(
    ([label, metric]) =>
      `| \`${label}\` | ${cell(metric.help)} | ${metric.unit || '—'} | ${metric.warn ? `\`${metric.warn}\`` : '—'} | ${metric.crit ? `\`${metric.crit}\`` : '—'} |`,
  );
  return [
    '| label | value | unit | default warning | default critical |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const readme = () => readFileSync('README.md', 'utf8');

describe('README: scripts and monitoring', () => {
  const tables: Array<[string, string]> = [
    ['the commands', commandsTable()],
    ['the exit codes', exitTable(EXIT_CODES, 'exit')],
    ['the exit codes of check', exitTable(NAGIOS_CODES, 'check exit')],
    ['the values check measures', metricsTable()],
    ...NAMED_VERBS.filter((verb) => !['login', 'completion', 'sim'].includes(verb.name)).map(
      (verb): [string, string] => [`the options of ${verb.name}`, optionsTable(verb)],
    ),
  ];
  for (const [what, table] of tables) {
    it(`has ${what}, as the verb table has them`, () => {
      expect(readme().includes(table), `README.md should contain this table:\n\n${table}\n`).toBe(true);
    });
  }

  it('shows a --json example of every command, each valid for its schema', () => {
    const examples = [...readme().matchAll(/<!-- cli-json: (\w+) -->\n```json\n([\s\S]*?)\n```/g)];
    const shown = new Set(examples.map((match) => match[1]));
    expect([...shown].sort()).toEqual(Object.keys(CLI_OUTPUTS).sort());
    for (const [, name, json] of examples) {
      const schema = CLI_OUTPUTS[name as keyof typeof CLI_OUTPUTS];
      const parsed = schema.safeParse(JSON.parse(json as string));
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
