/**
 * shop-inbox(1), in roff's man macros, from the verb table: the same words
 * as `--help` and each command's `--help`, laid out as a manual page.
 */
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

/** Text as roff prints it: backslashes escaped, and no line taken for a request (a leading . or '). */
export function roffText(text: string): string {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** The verb table's prose: roff fills its lines; a blank line starts a paragraph, an indented line a line. */
function prose(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '.PP' : roffText(line)))
    .join('\n');
}

function tagged(rows: ReadonlyArray<[string, string]>): string {
  return rows.map(([tag, text]) => `.TP\n.B ${roffText(tag)}\n${roffText(text)}`).join('\n');
}

function optionRows(verb: VerbSpec): Array<[string, string]> {
  return Object.entries(verb.options).map(([name, option]) => [optionLabel(name, option), option.help]);
}

const codeRows = (codes: ReadonlyArray<{ code: number; meaning: string }>): Array<[string, string]> =>
  codes.map(({ code, meaning }) => [String(code), meaning]);

function verbSection(verb: VerbSpec): string {
  const parts = [`.SS ${roffText(usageLine(verb))}`, prose(verb.description)];
  if (verb.args.length > 0) parts.push(tagged(verb.args.map((arg) => [arg.name, arg.help])));
  parts.push('.PP\nOptions:', tagged(optionRows(verb)));
  if (verb.exitCodes === 'nagios') parts.push('.PP\nExit status:', tagged(codeRows(NAGIOS_CODES)));
  return parts.join('\n');
}

export function manPage(version: string): string {
  const inbox = VERBS[''] as VerbSpec;
  return [
    `.TH SHOP\\-INBOX 1 "" "shop-inbox ${roffText(version)}" "User Commands"`,
    '.SH NAME',
    "shop\\-inbox \\- a keyboard\\-driven terminal inbox for a shop's front desk, on the shop operations API v1",
    '.SH SYNOPSIS',
    [inbox, ...NAMED_VERBS].map((verb) => `.B ${roffText(usageLine(verb))}\n.br`).join('\n'),
    '.B shop\\-inbox \\-\\-demo\n.br\n.B shop\\-inbox \\-\\-version',
    '.SH DESCRIPTION',
    prose(inbox.description),
    '.SH OPTIONS',
    tagged(optionRows(inbox)),
    '.SH COMMANDS',
    NAMED_VERBS.map(verbSection).join('\n'),
    '.SH ENVIRONMENT',
    tagged(ENVIRONMENT.map(({ name, meaning }) => [name, meaning])),
    '.SH EXIT STATUS',
    'Every command but check, login, completion and sim (their own are above):',
    tagged(codeRows(EXIT_CODES)),
    '.SH FILES',
    tagged([
      [
        '~/.config/shop-inbox/',
        'config.json, the saved key ("key", or "keys/NAME" per shop), templates: mode 700, the key 600 ($XDG_CONFIG_HOME)',
      ],
      [
        '~/.local/state/shop-inbox/',
        'the outbox of texts not yet confirmed sent, read and done marks, what each key may do ($XDG_STATE_HOME)',
      ],
      ['/tmp/shop-inbox-UID/', "the hub's socket: the terminals of one user share one reader of the shop"],
    ]),
    '.SH SEE ALSO',
    "README.md and docs/ in the package: the staff's guide, the keys, scripting, monitoring.",
    '',
  ].join('\n');
}
