/**
 * config.json: where the shop is and how to use it. It never holds the key
 * itself, only where a key file is, so it can be shown or shared safely.
 */
import { isAbsolute } from 'node:path';
import { type ParseError, type ParseErrorCode, parseTree } from 'jsonc-parser';
import * as z from 'zod';
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';
import { holdingDirectoryProblem, othersCanChangeProblem, type TrustedFileRole } from './file-permissions.js';
import { configFilePath } from './paths.js';
import { writePrivateFile } from './private-file.js';

/** A shop's name in config.json: it is typed after --shop, listed by completion and shown in the header. */
export const SHOP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const SHOP_NAME_RULE = 'letters, digits, "-" and "_", starting with a letter or digit, at most 32';

/** One shop of several: where it is, the file its key is in, and what differs per shop. */
const ShopEntrySchema = z.looseObject({
  base_url: z.string().min(1),
  key_file: z.string().refine(isAbsolute, { message: 'must be an absolute path' }).optional(),
  read_only: z.boolean().optional(),
  timezone: z
    .string()
    .refine(isTimeZone, { message: 'must be an IANA time zone, such as "America/Los_Angeles"' })
    .optional(),
});

const ConfigSchema = z
  .looseObject({
    /** Several shops by name; without it, base_url and key_file below are the one shop. */
    shops: z
      .record(
        z.string().regex(SHOP_NAME_PATTERN, { message: `a shop's name: ${SHOP_NAME_RULE}` }),
        ShopEntrySchema,
      )
      .optional(),
    /** The shop used without --shop (optional when "shops" names only one). */
    default_shop: z.string().optional(),
    base_url: z.string().min(1).optional(),
    read_only: z.boolean().optional(),
    key_file: z.string().refine(isAbsolute, { message: 'must be an absolute path' }).optional(),
    /** Command id → key or keys (see the README's list of commands). */
    keys: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    /** Clicks and the wheel; false leaves the terminal's own text selection alone. */
    mouse: z.boolean().optional(),
    /** "wallboard": the monitoring screen (read-only), as --wallboard. */
    view: z.enum(['inbox', 'wallboard']).optional(),
    /** Colours: "auto" follows COLORFGBG; --theme overrides it. */
    theme: z.enum(['auto', 'dark', 'light']).optional(),
    /** What signals a new missed call, text, same-day lead or pending action (see README, "Notifications"). */
    notify: z
      .strictObject({
        title: z.boolean().optional(),
        desktop: z.boolean().optional(),
        bell: z.boolean().optional(),
        events: z.array(z.enum(['missed_call', 'inbound_text', 'same_day', 'pending_action'])).optional(),
      })
      .optional(),
    /** On a read-only screen, "new" marks fade after this many minutes (default 30). */
    new_marks_fade_minutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
    /** The shop's IANA time zone ("America/Los_Angeles"): quiet hours are counted in it. */
    timezone: z
      .string()
      .refine(isTimeZone, { message: 'must be an IANA time zone, such as "America/Los_Angeles"' })
      .optional(),
  })
  .superRefine((config, context) => {
    if (config.shops === undefined) {
      if (config.default_shop !== undefined)
        context.addIssue({
          code: 'custom',
          path: ['default_shop'],
          message: 'names a shop, but there are no "shops"',
        });
      return;
    }
    for (const field of ['base_url', 'key_file'] as const)
      if (config[field] !== undefined)
        context.addIssue({
          code: 'custom',
          path: [field],
          message: 'belongs inside each of "shops" when there are shops',
        });
    if (config.default_shop !== undefined && !Object.hasOwn(config.shops, config.default_shop))
      context.addIssue({
        code: 'custom',
        path: ['default_shop'],
        message: `names no shop of "shops" (${Object.keys(config.shops).join(', ') || 'none'})`,
      });
  });

/** Whether Intl knows this time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

export type ShopInboxConfig = z.infer<typeof ConfigSchema>;
export type ShopEntry = z.infer<typeof ShopEntrySchema>;

/** Far more than any config (a few hundred bytes, a few KiB with many keys): a larger file is not one. */
export const CONFIG_FILE_MAX_BYTES = 256 * 1024;

/** config.json names the shop the key is sent to and the file it is read from. */
const CONFIG_ROLE: TrustedFileRole = {
  power: 'decides where your API key is sent',
  outcome: 'it is not used',
};

/** The config's text, or undefined when there is none; refuses a file, or a directory, others could change. */
async function readConfigText(path: string): Promise<string | undefined> {
  const bytes = await readBoundedFile(path, {
    maxBytes: CONFIG_FILE_MAX_BYTES,
    name: path,
    check: (info) => othersCanChangeProblem(info, path, CONFIG_ROLE),
    fail: (message) => new ConfigError(message),
  });
  if (bytes === undefined) return undefined;
  const replaceable = await holdingDirectoryProblem(path, CONFIG_ROLE);
  if (replaceable) throw new ConfigError(replaceable);
  return bytes.toString('utf8');
}

/**
 * Where JSON.parse's refusal lies, as " at line 3, column 9: a property name was expected" (Node 20's
 * messages give a position only for some mistakes, and never a line). jsonc-parser, told to accept plain
 * JSON only, finds the first mistake; empty when it finds none.
 */
export function jsonMistake(text: string): string {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return '';
  const before = text.slice(0, first.offset).split(/\r\n|\r|\n/);
  const line = before.length;
  const column = [...(before.at(-1) ?? '')].length + 1;
  return ` at line ${line}, column ${column}: ${MISTAKES[first.error] ?? 'unexpected text'}`;
}

const MISTAKES: Partial<Record<ParseErrorCode, string>> = {
  1: 'a symbol JSON does not allow',
  2: 'a number with a mistake',
  3: 'a property name was expected',
  4: 'a value was expected',
  5: 'a colon was expected',
  6: 'a comma was expected',
  7: 'a closing brace } was expected',
  8: 'a closing bracket ] was expected',
  9: 'more text after the end of the JSON',
  10: 'a comment (JSON has none)',
  11: 'a comment that does not end',
  12: 'a string that does not end',
  13: 'a number that does not end',
  14: 'a \\u escape with a mistake',
  15: 'an unknown escape in a string',
  16: 'a character JSON does not allow in a string',
};

/** The config, or undefined when there is none yet; throws ConfigError when it is broken or unsafe. */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<ShopInboxConfig | undefined> {
  const path = configFilePath(env);
  const text = await readConfigText(path);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(
      `${path} is not valid JSON${jsonMistake(text)}; fix it, or delete it and run shop-inbox login again`,
    );
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(top level)';
    // A bad shop name is an issue about a record's key: its own message says what a name may be.
    const message = issue?.code === 'invalid_key' ? issue.issues[0]?.message : issue?.message;
    throw new ConfigError(`${path} is not a valid config: ${where}: ${message ?? 'unexpected shape'}`);
  }
  return parsed.data;
}

/** Saves the config with mode 0600 in the 0700 config directory, atomically. */
export async function writeConfig(env: NodeJS.ProcessEnv, config: ShopInboxConfig): Promise<void> {
  await writePrivateFile(configFilePath(env), `${JSON.stringify(config, null, 2)}\n`);
}
