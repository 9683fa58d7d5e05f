/**
 * A command line read by the verb table's own options (src/cli/verb-table.ts):
 * what `--help` shows is what the parser accepts. A mistake is a UsageError
 * (exit 2), named in one line.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';
import type { ArgumentSpec, OptionTable } from './verb-table.js';

interface ParsableVerb<O extends OptionTable> {
  name: string;
  args: readonly ArgumentSpec[];
  options: O;
}

export function parseVerbArgs<const O extends OptionTable>(verb: ParsableVerb<O>, args: string[]) {
  const parsed = parseArgs({ args, options: verb.options, strict: true, allowPositionals: true });
  const command = verb.name ? `shop-inbox ${verb.name}` : 'shop-inbox';
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
