/**
 * config.json: where the shop is and how to use it. It never holds the key
 * itself, only where a key file is, so it can be shown or shared safely.
 */
import { isAbsolute } from 'node:path';
import { type ParseError, type ParseErrorCode, parseTree } from 'jsonc-parser';
import * as z from 'zod';
import { NOTIFY_EVENTS } from '../store/arrivals.js';
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';
import { holdingDirectoryProblem, othersCanChangeProblem, type TrustedFileRole } from './file-permissions.js';
import { configFilePath } from './paths.js';
import { writePrivateFile } from './private-file.js';

/** A shop's name in config.json: it is typed after --shop, listed by completion and shown in the header. */
export const SHOP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const SHOP_NAME_RULE = 'letters, digits, "-" and "_", starting with a letter or digit, at most 32';

const BaseUrlSchema = z.string().min(1);
const KeyFileSchema = z.string().refine(isAbsolute, { message: 'must be an absolute path' });
const TimeZoneSchema = z
  .string()
  .refine(isTimeZone, { message: 'must be an IANA time zone, such as "America/Los_Angeles"' });
const NotifyEventSchema = z.enum(NOTIFY_EVENTS);

const ShopEntrySchema = z
  .looseObject({
    base_url: BaseUrlSchema.meta({
      description:
        'The API root of this shop, https://host/…/v1. Plain http:// is accepted only for a loopback host.',
    }),
    key_file: KeyFileSchema.optional().meta({
      description:
        'The absolute path of the file that holds the API key of this shop (mode 0600). The key itself is never in config.json. login --shop NAME writes it; without it, the shop has no key.',
    }),
    read_only: z.boolean().optional().meta({
      description:
        'true: shop-inbox only reads from this shop and never changes anything there. A read_only at the top holds for every shop.',
      default: false,
    }),
    timezone: TimeZoneSchema.optional().meta({
      description:
        'The IANA time zone of this shop, such as "America/Chicago". Absent: the timezone at the top.',
    }),
  })
  .meta({
    title: 'shop',
    description: 'One shop: where it is, the file its key is in, and what differs for it.',
  });

export const ConfigSchema = z
  .looseObject({
    // First, so that a config rewritten by login keeps it first (parsing orders known keys as here).
    $schema: z.string().optional().meta({
      description:
        'Where an editor finds the JSON Schema of this file, to check and complete it. shop-inbox does not read it.',
    }),
    shops: z
      .record(
        z
          .string()
          .regex(SHOP_NAME_PATTERN, { message: `a shop's name: ${SHOP_NAME_RULE}` })
          .meta({ title: 'shop name' }),
        ShopEntrySchema,
      )
      .optional()
      .meta({
        description: `Several shops by name. A name is ${SHOP_NAME_RULE} characters. Without "shops", base_url and key_file at the top are the one shop.`,
      }),
    default_shop: z.string().optional().meta({
      description:
        'The shop used without --shop: one of "shops". It may be left out when "shops" names only one.',
    }),
    base_url: BaseUrlSchema.optional().meta({
      description:
        'The API root of the one shop, https://host/…/v1, when there are no "shops" (refused beside them). Plain http:// is accepted only for a loopback host. --base-url and SHOP_API_BASE_URL come before it.',
    }),
    read_only: z.boolean().optional().meta({
      description:
        'true: shop-inbox only reads and never changes anything in the shop. With "shops", it holds for every shop.',
      default: false,
    }),
    key_file: KeyFileSchema.optional().meta({
      description:
        'The absolute path of the file that holds the API key (mode 0600), when there are no "shops" (refused beside them). The key itself is never in config.json. Absent: the file "key" beside config.json.',
    }),
    keys: z
      .record(
        z.string().meta({ title: 'command id' }),
        z.union([z.string(), z.array(z.string())]).meta({ title: 'key or list of keys' }),
      )
      .optional()
      .meta({
        description:
          "Your own keys: each replaces the command's default keys everywhere it works. The command ids are in the docs' table of commands.",
      }),
    mouse: z.boolean().optional().meta({
      description:
        "false leaves the mouse to the terminal, for the terminal's own text selection (as --no-mouse does).",
      default: true,
    }),
    view: z.enum(['inbox', 'wallboard']).optional().meta({
      description: '"wallboard" opens the monitoring screen (read-only), as --wallboard does.',
      default: 'inbox',
    }),
    theme: z.enum(['auto', 'dark', 'light']).optional().meta({
      description:
        'Colours for a dark or a light background. "auto" follows COLORFGBG and is dark without it. --theme comes before it.',
      default: 'auto',
    }),
    notify: z
      .strictObject({
        title: z.boolean().optional().meta({
          description: "The counts of callbacks and same-day leads in the terminal's window title.",
          default: true,
        }),
        // No single default: both are off in the inbox and on on the wallboard (notifySettings).
        desktop: z.boolean().optional().meta({
          description:
            'A desktop notification through the terminal for each new item. Absent: off in the inbox, on on the wallboard.',
        }),
        bell: z.boolean().optional().meta({
          description:
            'The terminal bell, once for each batch of new items. Absent: off in the inbox, on on the wallboard.',
        }),
        events: z
          .array(NotifyEventSchema)
          .optional()
          .meta({
            description: 'Which kinds of new item are signalled.',
            default: [...NOTIFY_EVENTS],
          }),
      })
      .optional()
      .meta({
        description:
          'How a new missed call, inbound text, same-day lead or action awaiting approval is signalled.',
      }),
    new_marks_fade_minutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .optional()
      .meta({
        description:
          'On a read-only screen, "new" marks fade after this many minutes (more than 0, at most 10080: a week).',
        default: 30,
      }),
    timezone: TimeZoneSchema.optional().meta({
      description:
        'The IANA time zone of the shop, such as "America/Los_Angeles". Quiet hours for a number whose own zone is not known are counted in it. Absent: the zone of the shop\'s texting number, else this machine\'s.',
    }),
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
  })
  .meta({
    title: 'shop-inbox config.json',
    description:
      'The settings of shop-inbox for one user: which shop or shops, and how the inbox looks and signals. It never holds an API key, only where a key file is.',
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
