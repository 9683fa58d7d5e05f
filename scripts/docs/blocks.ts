/**
 * The generated parts of the docs, each a block with a name: the tables of
 * commands and keys (from the command registry) and of the command line's
 * verbs, options, exit codes and check's values (from the verb table). A page
 * holds a block between two markers (src below); `npm run docs` writes it.
 */
import { CHECK_METRICS } from '../../src/cli/check-command.js';
import {
  ENVIRONMENT,
  EXIT_CODES,
  NAGIOS_CODES,
  NAMED_VERBS,
  optionLabel,
  usageLine,
  VERBS,
  type VerbSpec,
} from '../../src/cli/verb-table.js';
import { ALL_COMMANDS } from '../../src/shell/commands/registry.js';
import type { Command } from '../../src/ui-kit/commands/command.js';
import { TEMPLATE_VARIABLES } from '../../src/user-actions/templates.js';
import { METRICS } from '../../src/wallboard/metrics.js';
import { configTable } from './config-docs.js';
import { JSON_COMMANDS, jsonFieldsTable } from './json-fields.js';
import { cell } from './table-cell.js';

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

/** The order of the table: the panes' commands first, then each mode's. */
const MODE_ORDER: Command['mode'][] = [
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
  'shops',
  'fatal',
  'wallboard',
];

/** A command's keys as code in one cell: `j` `down`. */
const keysCell = (keys: readonly string[]) => keys.map((key) => `\`${cell(key)}\``).join(' ');

/**
 * Every command id with its default keys, where it works and what it does there: one row per command id
 * and wording, so that a command several panes share is one row where it reads the same and one row per
 * wording where a pane says it its own way.
 */
export function commandTable(): string {
  const rows = new Map<string, Array<{ keys: string; where: string[]; does: string }>>();
  const sorted = [...ALL_COMMANDS].sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode));
  for (const command of sorted) {
    const id = `${command.id}|${command.mode === 'pane' ? 'pane' : command.mode}`;
    const where = command.mode === 'pane' ? (command.pane ?? '') : WHERE[command.mode];
    const keys = keysCell(command.keys) || '—';
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
  for (const [id, variants] of rows)
    for (const row of variants)
      lines.push(`| \`${id.split('|')[0]}\` | ${row.keys} | ${row.where.join(', ')} | ${cell(row.does)} |`);
  return lines.join('\n');
}

/**
 * The commands of a first day at the desk, in the order staff meet them (README.md): each a command id and
 * where it works (a pane or a mode), since several ids work in more than one place with other words.
 */
const FIRST_DAY: ReadonlyArray<readonly [id: string, where: string]> = [
  ['help', 'global'],
  ['palette', 'global'],
  ['pane.next', 'global'],
  ['move.down', 'global'],
  ['move.up', 'global'],
  ['open', 'inbox'],
  ['back', 'thread'],
  ['waiting', 'inbox'],
  ['callbacks', 'inbox'],
  ['done', 'inbox'],
  ['compose', 'inbox'],
  ['composer.send', 'composer'],
  ['prompt.yes', 'prompt'],
  ['prompt.no', 'prompt'],
  ['composer.close', 'composer'],
  ['approve', 'actions'],
  ['refresh.all', 'global'],
  ['log', 'global'],
  ['quit', 'global'],
];

/** A short table of the first day's keys: each command's default keys, where it works and what it does. */
function firstDayTable(): string {
  const lines = ['| keys | where | does |', '|---|---|---|'];
  for (const [id, where] of FIRST_DAY) {
    const command = ALL_COMMANDS.find(
      (each) => each.id === id && (each.mode === 'pane' ? each.pane === where : each.mode === where),
    );
    if (!command)
      throw new Error(`the first day's keys name "${id}" in ${where}, where no command has that id`);
    const keys = keysCell(command.keys);
    const place = command.mode === 'pane' ? (command.pane ?? '') : WHERE[command.mode];
    lines.push(`| ${keys} | ${place} | ${cell(command.label)} |`);
  }
  return lines.join('\n');
}

function verbsTable(): string {
  const rows = NAMED_VERBS.map((verb) => `| \`${cell(usageLine(verb))}\` | ${cell(verb.summary)} |`);
  return ['| command | what it does |', '|---|---|', ...rows].join('\n');
}

function optionsTable(verb: VerbSpec): string {
  const rows = Object.entries(verb.options)
    .filter(([name]) => name !== 'help')
    .map(([name, option]) => `| \`${cell(optionLabel(name, option))}\` | ${cell(option.help)} |`);
  const title = verb.name === '' ? '`shop-inbox` option' : `\`${verb.name}\` option`;
  return [`| ${title} | meaning |`, '|---|---|', ...rows].join('\n');
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

function metricsServedTable(): string {
  const rows = Object.entries(METRICS).map(
    ([name, metric]) => `| \`${name}\` | ${metric.type} | ${cell(metric.help)} |`,
  );
  return ['| metric | type | HELP |', '|---|---|---|', ...rows].join('\n');
}

function templateVariablesTable(): string {
  const rows = Object.entries(TEMPLATE_VARIABLES).map(
    ([name, meaning]) => `| \`{${name}}\` | ${cell(meaning)} |`,
  );
  return ['| variable | filled with |', '|---|---|', ...rows].join('\n');
}

function environmentTable(): string {
  const rows = ENVIRONMENT.map(({ name, meaning }) => {
    const names = name.split(', ').map((each) => `\`${each}\``);
    return `| ${names.join(', ')} | ${cell(meaning)} |`;
  });
  return ['| environment variable | meaning |', '|---|---|', ...rows].join('\n');
}

/** Every generated block, by the name its markers give. */
export function generatedBlocks(): ReadonlyMap<string, string> {
  return new Map<string, string>([
    ['commands', commandTable()],
    ['config', configTable()],
    ['first-day-keys', firstDayTable()],
    ['metrics', metricsServedTable()],
    ['template-variables', templateVariablesTable()],
    ['verbs', verbsTable()],
    ['exit-codes', exitTable(EXIT_CODES, 'exit')],
    ['check-exit-codes', exitTable(NAGIOS_CODES, 'check exit')],
    ['check-values', metricsTable()],
    ['environment', environmentTable()],
    ...JSON_COMMANDS.map((command): [string, string] => [`json-${command}`, jsonFieldsTable(command)]),
    ['options-screen', optionsTable(VERBS[''] as VerbSpec)],
    ...NAMED_VERBS.filter((verb) => Object.keys(verb.options).some((name) => name !== 'help')).map(
      (verb): [string, string] => [`options-${verb.name}`, optionsTable(verb)],
    ),
  ]);
}
