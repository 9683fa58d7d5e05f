/**
 * A command line read by the verb table's own options (src/cli/verb-table.ts):
 * what `--help` shows is what the parser accepts. A mistake is a UsageError
 * (exit 2), named in one line.
 */
import { parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';
import { sanitize } from '../text/sanitize.js';
import { UsageError } from './usage-error.js';
import type { ArgumentSpec, OptionTable } from './verb-table.js';

interface ParsableVerb<O extends OptionTable> {
  name: string;
  args: readonly ArgumentSpec[];
  options: O;
}

export function parseVerbArgs<const O extends OptionTable>(verb: ParsableVerb<O>, args: string[]) {
  const command = verb.name ? `shop-inbox ${verb.name}` : 'shop-inbox';
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args, options: verb.options, strict: true, allowPositionals: true });
  } catch (error) {
    const unknown = unknownOption(error);
    if (unknown === undefined) throw error;
    throw new UsageError(unknownOptionMessage(command, unknown, verb.options));
  }
  const help = (parsed.values as { help?: boolean }).help === true;
  if (!help) {
    const missing = verb.args.filter((arg, index) => arg.required && parsed.positionals[index] === undefined);
    if (missing.length > 0)
      throw new UsageError(`${command} needs ${missing.map((arg) => arg.name).join(' and ')} (see --help)`);
    const extra = parsed.positionals.slice(verb.args.length);
    if (extra.length > 0) throw new UsageError(`${command}: unexpected argument "${extra[0]}" (see --help)`);
  }
  return { values: parsed.values, positionals: parsed.positionals, help };
}

/** The option parseArgs refused as unknown ("--jsn"), or undefined for any other error. */
function unknownOption(error: unknown): string | undefined {
  if ((error as { code?: unknown })?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  return /Unknown option '([^']*)'/.exec((error as Error).message)?.[1];
}

/** Edits at most this far from an option (and less than half its length) suggest it. */
const SUGGEST_DISTANCE = 3;

/** "unknown option --jsn; did you mean --json? (see shop-inbox status --help)" */
export function unknownOptionMessage(command: string, given: string, options: OptionTable): string {
  // A one-letter option is one edit from every other: only long names are suggested.
  const names = given.startsWith('--') ? Object.keys(options).map((name) => `--${name}`) : [];
  // "--json=x" and "--jsn" are compared by their name alone.
  const bare = given.split('=')[0] ?? given;
  const nearest = names.length > 0 ? closest(bare, names) : undefined;
  const near =
    nearest !== undefined &&
    distance(bare, nearest) <= Math.min(SUGGEST_DISTANCE, Math.max(1, Math.floor(nearest.length / 2)));
  const cut = [...bare].length > 60 ? `${[...bare].slice(0, 59).join('')}…` : bare;
  const shown = sanitize(cut, { singleLine: true });
  return `${command}: unknown option "${shown}"${near ? `; did you mean ${nearest}?` : ''} (see ${command} --help)`;
}

/** A whole number from `min` to `max`, or `fallback` when the option was not given. */
export function wholeNumberOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  [min, max]: [number, number],
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${raw})`);
  return value;
}

/** One of `choices`, or `fallback` when the option was not given. */
export function choiceOption<const C extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly C[],
  fallback: C,
): C {
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw))
    throw new UsageError(
      `--${name} must be ${choices.join(', ').replace(/, ([^,]*)$/, ' or $1')} (got ${raw})`,
    );
  return raw as C;
}
