/**
 * `--json`: one JSON document on stdout and nothing else, checked against its
 * schema (src/contract/cli-output.ts) before it is written.
 *
 * Server strings go out as the data they are. JSON escapes C0 controls (ESC
 * included) itself; the characters it leaves raw that a terminal would still
 * act on (DEL and the C1 controls, which some terminals obey even in UTF-8;
 * the bidi controls; the line and paragraph separators) are written as \u
 * escapes too, so `--json` printed on a terminal cannot drive it, and the
 * document parses to exactly the same data.
 */
import type * as z from 'zod';

/** JSON.stringify writes every C0 control as an escape, so raw ones are only its own line breaks: kept. */
const RAW_BUT_ACTIVE = /(?!\n)[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** JSON text of `value` with no character a terminal acts on. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    RAW_BUT_ACTIVE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Writes the document, once it matches its schema (a mismatch is a bug here: it throws). */
export function writeJson<S extends z.ZodType>(
  schema: S,
  value: z.input<S>,
  stdout: NodeJS.WritableStream = process.stdout,
): void {
  const checked = schema.parse(value);
  stdout.write(`${terminalSafeJson(checked)}\n`);
}
