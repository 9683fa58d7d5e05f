/**
 * Every command of `shop-inbox` with its arguments and options: the one table
 * that `--help`, each command's parser (`parseArgs` takes the options as they
 * are here), the docs' tables and the man page (`npm run docs`, scripts/docs/) and a shell
 * completion script are derived from. Data only: `cli.ts` loads it at start,
 * so it imports nothing.
 *
 * Options shared by every command that talks to a shop are one group
 * (SHOP_OPTIONS): an option added there (a `--shop NAME`, say) reaches every
 * such command's parser and help at once.
 */

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in help ("URL"), for a string option. */
  value?: string;
  /** The values it takes, when they can be listed (shell completion); "a|b|c" placeholders list theirs. */
  choices?: readonly string[];
  /** What completes its value: a file name, or a shop of config.json. */
  completes?: 'file' | 'shop';
  help: string;
}

export type OptionTable = Record<string, OptionSpec>;

export interface ArgumentSpec {
  name: string;
  required: boolean;
  help: string;
}

export interface VerbSpec {
  /** The word after `shop-inbox`; '' for the full-screen inbox itself. */
  name: string;
  args: readonly ArgumentSpec[];
  /** One line for the list of commands. */
  summary: string;
  /** What `shop-inbox VERB --help` says before the options (lines of at most 100 columns). */
  description: string;
  options: OptionTable;
  /** Which exit codes it uses: the common table, or the monitoring plugin's. */
  exitCodes: 'common' | 'nagios' | 'own';
}

/** Which shop and which key: every command that talks to a shop takes these. */
export const SHOP_OPTIONS = {
  shop: {
    type: 'string',
    value: 'NAME',
    completes: 'shop',
    help: 'a shop of config.json\'s "shops" (default: its default_shop); not with --base-url, --key-file, SHOP_API_*',
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    help: "the shop's API root, https://host/…/v1 (default: SHOP_API_BASE_URL, then the saved login)",
  },
  'key-file': {
    type: 'string',
    value: 'PATH',
    completes: 'file',
    help: 'read the key from a file only you can read (default: SHOP_API_KEY, then the saved login)',
  },
} as const satisfies OptionTable;

export const JSON_OPTION = {
  json: {
    type: 'boolean',
    help: 'print one JSON document on stdout (its fields: docs/cli.md); messages go to stderr',
  },
} as const satisfies OptionTable;

export const HELP_OPTION = {
  help: { type: 'boolean', short: 'h', help: 'this help' },
} as const satisfies OptionTable;

const LIMIT_OPTION = {
  limit: {
    type: 'string',
    value: 'N',
    help: 'rows to ask the shop for, 1 to 100 (default 100, its maximum)',
  },
} as const satisfies OptionTable;

/** The exit codes of every command but `check` (and `login`, `sim`: see their help). */
export const EXIT_CODES: ReadonlyArray<{ code: number; meaning: string }> = [
  { code: 0, meaning: 'done' },
  {
    code: 1,
    meaning:
      'error: the shop could not be reached or failed, a record was not found, the settings are missing or wrong, a text waits in the outbox',
  },
  {
    code: 2,
    meaning: 'usage: the command line is wrong, or names no single contact (nothing was asked of the shop)',
  },
  {
    code: 3,
    meaning:
      'refused: a check before sending (or approving) found something no flag given allows, or the question was answered no; nothing was sent',
  },
  {
    code: 4,
    meaning:
      'not allowed: the key was refused (401), the plan has no API (403), or the key is read-only (or read_only is set) for a write',
  },
  {
    code: 5,
    meaning: "rate limited: the shop's 120 requests a minute for this key are spent, even after waiting",
  },
];

/** The monitoring plugin's exit codes (Nagios, Icinga, Naemon, Checkmk, Zabbix). */
export const NAGIOS_CODES: ReadonlyArray<{ code: number; meaning: string }> = [
  { code: 0, meaning: 'OK: every value within its thresholds' },
  { code: 1, meaning: 'WARNING: a value past its warning threshold' },
  {
    code: 2,
    meaning:
      'CRITICAL: a value past its critical threshold; the key refused; the API unreachable or failing (unless --unreachable unknown)',
  },
  {
    code: 3,
    meaning:
      'UNKNOWN: a wrong command line or settings, rate limited, or unreachable with --unreachable unknown',
  },
];

/** The environment every command reads: `--help`, the man page and docs/cli.md list it from here. */
export const ENVIRONMENT: ReadonlyArray<{ name: string; meaning: string }> = [
  {
    name: 'SHOP_API_BASE_URL',
    meaning: "the shop's API root, https://host/…/v1 (--base-url overrides it; not used with --shop)",
  },
  {
    name: 'SHOP_API_KEY',
    meaning:
      "the shop's API key (--key-file overrides it; it overrides the saved login; not used with --shop); never pass a key as a flag",
  },
  {
    name: 'XDG_CONFIG_HOME',
    meaning: 'where login saves the key and config.json (…/shop-inbox/, default ~/.config)',
  },
  {
    name: 'XDG_STATE_HOME',
    meaning:
      'where the outbox of texts not yet confirmed sent lives, and what the shop last said each key may do (…/shop-inbox/, default ~/.local/state)',
  },
  {
    name: 'XDG_RUNTIME_DIR',
    meaning:
      "where the file of a text being edited lives for the editor's time (0700; else the temp folder); the hub's socket is always in /tmp/shop-inbox-UID/",
  },
  { name: 'NO_COLOR', meaning: 'set and not empty: no colour at all' },
  {
    name: 'COLORFGBG',
    meaning: "the terminal's colours (15;0): with --theme auto, a light background chooses the light theme",
  },
  { name: 'TMUX', meaning: "set by tmux: desktop notifications are wrapped for tmux's passthrough" },
  {
    name: 'EDITOR, VISUAL',
    meaning: 'the editor ctrl-g opens in the composer (EDITOR first; vi when neither is set)',
  },
  {
    name: 'ESCDELAY',
    meaning:
      "milliseconds a lone escape byte waits for the rest of a key (an arrow, alt-b) before it is the esc key: default 100, 1 to 2000; raise it on a link that splits an arrow's bytes",
  },
  {
    name: 'TZ',
    meaning:
      'the time zone times are shown in, and quiet hours are counted in for a number whose zone neither "timezone" in config.json nor the shop\'s texting number gives',
  },
  {
    name: 'SHOP_INBOX_TRUST_LOOPBACK',
    meaning:
      '1: send plain http to a loopback port whose owner this system cannot tell (not Linux); only where no other user runs programs',
  },
  {
    name: 'SHOP_INBOX_NOW',
    meaning:
      "for tests only: the instant (ISO 8601, or milliseconds) the commands for scripts take as now, for quiet hours, waits and ages (not the outbox's own times)",
  },
  {
    name: 'SHOP_INBOX_TRACE_START',
    meaning:
      'a file: the inbox appends a JSON line for each phase of its start (code run, command loaded, store, first reads, Ink, first frame, first frame with data): ms and CPU ms since the process started (npm run bench)',
  },
  {
    name: 'SHOP_INBOX_TRACE_KEYS',
    meaning:
      'a file: the inbox appends a JSON line for each key it reads, once its frame is written: when it read the key, when that write returned (ms since the epoch) and how long the main thread waited for a CPU (Linux; npm run bench)',
  },
];

export const VERBS = {
  '': {
    name: '',
    args: [],
    summary: 'open the inbox (full screen)',
    description: `Opens the full-screen inbox on the shop: the leads and their threads, reviews, actions awaiting
approval, contacts and today's activity, kept up to date. q quits, ? lists the keys.
The key comes from --key-file, SHOP_API_KEY, or \`shop-inbox login\`; never from a flag.`,
    options: {
      demo: { type: 'boolean', help: 'try it on the built-in demo shop (a simulator in this process)' },
      ...SHOP_OPTIONS,
      'read-only': { type: 'boolean', help: 'never write: sending, drafting and approving are off' },
      wallboard: {
        type: 'boolean',
        help: 'the monitoring screen for the room: big counts, oldest missed call, newest texts (read-only); with --shop a,b or --all, several shops side by side',
      },
      all: {
        type: 'boolean',
        help: 'with --wallboard: every shop of config.json\'s "shops", side by side',
      },
      metrics: {
        type: 'string',
        value: 'ADDR',
        help: 'serve Prometheus metrics at http://ADDR/metrics from what is read anyway (ADDR: PORT, HOST:PORT; default host 127.0.0.1, port 9464)',
      },
      'metrics-public': {
        type: 'boolean',
        help: 'let --metrics listen on an address that is not loopback (the metrics show business figures)',
      },
      theme: {
        type: 'string',
        value: 'auto|dark|light',
        help: 'colours for a dark or light background (auto follows COLORFGBG); NO_COLOR=1 removes every colour',
      },
      'max-rpm': {
        type: 'string',
        value: 'N',
        help: "requests per minute for this process, 1 to 120 (default 30; the shop's 120 are shared by every terminal on its key)",
      },
      'no-mouse': {
        type: 'boolean',
        help: 'leave the mouse to the terminal (text selection); also "mouse": false in config.json',
      },
      ...HELP_OPTION,
    },
    exitCodes: 'own',
  },
  status: {
    name: 'status',
    args: [],
    summary: "check the key and show the shop's state, the key's mode and this key's outbox",
    description: `Checks the key and prints the shop's overview, billing and texting status, what the key may
do (write, read-only, or unknown and why), and what this key's outbox holds (texts waiting to
be sent, damage, damaged files kept aside). It only reads, but for the one question about the
key's mode: a reply draft asked for a review that cannot exist, which changes nothing (not asked
when read_only is set in config.json). 4 requests.`,
    options: { ...SHOP_OPTIONS, ...JSON_OPTION, ...HELP_OPTION },
    exitCodes: 'common',
  },
  inbox: {
    name: 'inbox',
    args: [],
    summary: 'the open leads (or the missed calls with no reply) and the latest inbound texts',
    description: `Lists the open leads, or with --filter callbacks the missed calls nobody has texted back, and the
newest inbound texts. The threads of the newest leads (--threads, default 10) are read to name
the sender of each inbound text and to say who waits for a reply: 1 request, plus one per thread.`,
    options: {
      ...SHOP_OPTIONS,
      filter: { type: 'string', value: 'open|callbacks', help: 'which leads (default open)' },
      threads: {
        type: 'string',
        value: 'N',
        help: 'threads to read, newest leads first, 0 to 25 (default 10): senders and waiting times',
      },
      ...LIMIT_OPTION,
      ...JSON_OPTION,
      ...HELP_OPTION,
    },
    exitCodes: 'common',
  },
  thread: {
    name: 'thread',
    args: [{ name: 'LEAD', required: true, help: 'a lead id (from `shop-inbox inbox`)' }],
    summary: "one lead's thread: its texts, the contact, the consent record, an opt-out",
    description: `Prints one lead with its contact, its texts (oldest first; the shop cuts long bodies), the
latest consent record, whether the customer opted out, and how long they have waited when the
newest text is theirs. 1 request.`,
    options: { ...SHOP_OPTIONS, ...LIMIT_OPTION, ...JSON_OPTION, ...HELP_OPTION },
    exitCodes: 'common',
  },
  contacts: {
    name: 'contacts',
    args: [{ name: 'QUERY', required: false, help: 'part of a name, or digits of a phone number' }],
    summary: 'the contacts, most recently in touch first, or those matching QUERY',
    description: `Lists the shop's contacts, most recently in touch first; with QUERY, those whose name or phone
number matches (the shop's search). 1 request.`,
    options: { ...SHOP_OPTIONS, ...LIMIT_OPTION, ...JSON_OPTION, ...HELP_OPTION },
    exitCodes: 'common',
  },
  reviews: {
    name: 'reviews',
    args: [],
    summary: 'the reviews, newest first, and how many have no reply',
    description:
      'Lists the reviews, newest first, with their rating and whether they have a reply. 1 request.',
    options: {
      ...SHOP_OPTIONS,
      unreplied: { type: 'boolean', help: 'only the reviews with no reply' },
      ...LIMIT_OPTION,
      ...JSON_OPTION,
      ...HELP_OPTION,
    },
    exitCodes: 'common',
  },
  actions: {
    name: 'actions',
    args: [],
    summary: "the agent's actions, newest first, of one status or all",
    description: "Lists the agent's actions (replies to reviews, held texts), newest first. 1 request.",
    options: {
      ...SHOP_OPTIONS,
      status: {
        type: 'string',
        value: 'STATUS',
        choices: ['pending_approval', 'published', 'declined', 'failed'],
        help: 'only this status: pending_approval, published, declined or failed (default: all)',
      },
      ...LIMIT_OPTION,
      ...JSON_OPTION,
      ...HELP_OPTION,
    },
    exitCodes: 'common',
  },
  send: {
    name: 'send',
    args: [
      {
        name: 'CONTACT',
        required: true,
        help: 'a contact id, their phone number, or their whole name; it must name exactly one contact',
      },
    ],
    summary: 'text a contact, after the same checks as the composer, exactly once',
    description: `Texts one contact. The text comes from --body, or from standard input when it is not a terminal.
First the same checks as the inbox's composer: consent, an opt-out, quiet hours at the customer's
location, texting not live, a text newer than --after, the same words already sent. On a terminal
it shows what it found and asks (y, or a word to type); otherwise each finding needs its flag, or
nothing is sent (exit 3). Then the text is written to this key's outbox with its Idempotency-Key
before it is sent: a send killed or failed at any moment is never sent twice, and running the same
command again (or any inbox of the key) sends it. A key known to be read-only is refused first.
About 8 to 11 requests.`,
    options: {
      ...SHOP_OPTIONS,
      body: { type: 'string', value: 'TEXT', help: 'the text (default: standard input)' },
      after: {
        type: 'string',
        value: 'MESSAGE_ID',
        help: 'the newest text you saw: refuse (unless --yes) when the threads hold newer ones, naming them',
      },
      yes: {
        type: 'boolean',
        short: 'y',
        help: 'send without asking, despite warnings (quiet hours, texting not live, a newer text, sent before)',
      },
      'consent-ok': { type: 'boolean', help: 'send although no consent is on record, not given, or unknown' },
      override: { type: 'boolean', help: 'send although the customer opted out (STOP)' },
      'idempotency-key': {
        type: 'string',
        value: 'KEY',
        help: 'your own key for this text (1 to 255 visible ASCII characters): the same key never texts twice',
      },
      ...JSON_OPTION,
      ...HELP_OPTION,
    },
    exitCodes: 'common',
  },
  approve: {
    name: 'approve',
    args: [{ name: 'ACTION', required: true, help: 'an action id (from `shop-inbox actions`)' }],
    summary: 'approve an action awaiting approval (publishes a reply, may send a held text)',
    description: `Approves one action awaiting approval: a reply to a review is published, a held text may be sent.
It shows the action first and asks on a terminal; otherwise it needs --yes (exit 3 without).
Approving an action already published changes nothing and says so. A key known to be read-only
is refused first. 2 to 4 requests.`,
    options: {
      ...SHOP_OPTIONS,
      yes: { type: 'boolean', short: 'y', help: 'approve without asking' },
      ...JSON_OPTION,
      ...HELP_OPTION,
    },
    exitCodes: 'common',
  },
  check: {
    name: 'check',
    args: [],
    summary: 'a monitoring plugin (Nagios, Icinga): does anything need attention? one line, exit 0–3',
    description: `A monitoring plugin in the Nagios convention: one line of status and performance data, exit 0 OK,
1 WARNING, 2 CRITICAL, 3 UNKNOWN. Thresholds are Nagios ranges per value (-w LABEL=RANGE,
-c LABEL=RANGE, repeatable; an empty RANGE drops a default; ages take s, m or h). Only reads,
never asks the key's mode: a read-only key is enough. 3 requests, plus one per thread read.`,
    options: {
      ...SHOP_OPTIONS,
      warning: {
        type: 'string',
        short: 'w',
        multiple: true,
        value: 'LABEL=RANGE',
        help: 'a warning threshold',
      },
      critical: {
        type: 'string',
        short: 'c',
        multiple: true,
        value: 'LABEL=RANGE',
        help: 'a critical threshold',
      },
      threads: {
        type: 'string',
        value: 'N',
        help: 'open leads whose threads are read for the replies waiting, 0 to 25 (default 10)',
      },
      unreachable: {
        type: 'string',
        value: 'critical|unknown',
        help: 'the state when the API cannot be reached or fails (default critical)',
      },
      timeout: { type: 'string', short: 't', value: 'SECONDS', help: 'give up after this long (default 10)' },
      ...HELP_OPTION,
    },
    exitCodes: 'nagios',
  },
  login: {
    name: 'login',
    args: [],
    summary: 'save the API key (and base URL) for this user',
    description: `Checks the shop's API key (GET /me), asks what it may do (write or read-only, with a
write that changes nothing) and saves it for this user, so other commands need no
SHOP_API_KEY. In a terminal the key is asked for without echo; otherwise it
is read from standard input:  shop-inbox login < keyfile  or  … | shop-inbox login
A key is never accepted as a flag: other users of this machine can see flags with ps.

Saved in $XDG_CONFIG_HOME/shop-inbox (default ~/.config/shop-inbox, mode 700):
the key in "key" (mode 600), the base URL and read-only choice in "config.json".
With --shop NAME: the key in "keys/NAME" (mode 600), the shop in config.json's "shops".
Exit status: 0 saved, 1 refused or not saved, 2 usage error, 130 cancelled with ctrl-c.`,
    options: {
      shop: {
        type: 'string',
        value: 'NAME',
        completes: 'shop',
        help: 'save it as this shop of several (its key in keys/NAME); the first one saved becomes the default',
      },
      'base-url': {
        type: 'string',
        value: 'URL',
        help: "the shop's API root, https://host/…/v1 (default: SHOP_API_BASE_URL, then the one saved before; with --shop, that shop's)",
      },
      'read-only': {
        type: 'boolean',
        help: 'send nothing but reads with this login (kept by later logins; remove read_only from config.json to undo)',
      },
      'no-verify': {
        type: 'boolean',
        help: 'save the key without checking it (when the shop cannot be reached)',
      },
      ...HELP_OPTION,
    },
    exitCodes: 'own',
  },
  completion: {
    name: 'completion',
    args: [{ name: 'SHELL', required: true, help: 'bash, zsh or fish' }],
    summary: 'print a script that completes commands, options and shop names in bash, zsh or fish',
    description: `Prints a completion script for the shell: the commands, each command's options, the values of
options that have a few (--theme, --filter, --status…), and the shops of config.json, read when
completing. Install it (see docs/cli.md):  source <(shop-inbox completion bash)`,
    options: { ...HELP_OPTION },
    exitCodes: 'own',
  },
  sim: {
    name: 'sim',
    args: [],
    summary: 'serve the built-in demo shop (an API v1 simulator)',
    description: `Serves the built-in demo shop: a simulator of the shop API v1 on a real HTTP port.
The first line on stdout is JSON: {"base_url": …, "tokens": {write, read, other_shop,
no_subscription, no_number, texting_inactive}}. Stops on Ctrl-C or SIGTERM.`,
    options: {
      host: { type: 'string', value: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
      port: { type: 'string', value: 'N', help: 'port; 0 picks a free one (default 0)' },
      seed: { type: 'string', value: 'N', help: 'seed of the demo data (default 1)' },
      live: { type: 'boolean', help: 'new texts, missed calls, reviews and actions keep arriving' },
      'live-interval': {
        type: 'string',
        value: 'MS',
        help: 'average time between live events, each wait 0.5 to 1.5 times it (default 4000)',
      },
      hints: {
        type: 'string',
        value: 'MODE',
        help: "plausible (default): contacts' last_contact_at and Today's summaries follow every text and call; none: they name nobody, the threads are the only link",
      },
      'rate-limit': { type: 'string', value: 'N', help: 'requests per minute per token (default 120)' },
      latency: { type: 'string', value: 'MS', help: 'added delay before every /v1 answer' },
      'error-rate': { type: 'string', value: 'R', help: 'share 0..1 of requests answered 500/502/503/504' },
      'hang-rate': { type: 'string', value: 'R', help: 'share of requests never answered' },
      'reset-rate': { type: 'string', value: 'R', help: 'share of connections reset without an answer' },
      'malformed-rate': { type: 'string', value: 'R', help: 'share of answers that are not valid JSON' },
      'burst-429': { type: 'string', value: 'N', help: 'answer the first N requests 429 rate_limited' },
      'burst-retry-after': { type: 'string', value: 'S', help: 'Retry-After of those 429s (default 5)' },
      ...HELP_OPTION,
    },
    exitCodes: 'own',
  },
} as const satisfies Record<string, VerbSpec>;

export type VerbName = keyof typeof VERBS;

/** The commands a word on the command line can name (the inbox itself has none). */
export const NAMED_VERBS = Object.values(VERBS).filter((verb) => verb.name !== '') as VerbSpec[];

/** "--base-url URL", "-y, --yes". */
export function optionLabel(name: string, option: OptionSpec): string {
  const long = `--${name}${option.value ? ` ${option.value}` : ''}`;
  return option.short ? `-${option.short}, ${long}` : long;
}

/** "shop-inbox send CONTACT [options]". */
export function usageLine(verb: VerbSpec): string {
  const args = verb.args.map((arg) => (arg.required ? arg.name : `[${arg.name}]`));
  return ['shop-inbox', verb.name, ...args, '[options]'].filter(Boolean).join(' ');
}

/** Lines "  LABEL   help", the helps aligned, wrapped at 100 columns. */
function aligned(rows: ReadonlyArray<[string, string]>, widest = 28): string {
  const width = Math.min(widest, Math.max(...rows.map(([label]) => label.length)) + 2);
  return rows
    .map(([label, help]) => {
      const pad = label.length + 2 > width ? `\n${' '.repeat(width + 2)}` : ' '.repeat(width - label.length);
      return `  ${label}${pad}${wrap(help, 100 - width - 2).join(`\n${' '.repeat(width + 2)}`)}`;
    })
    .join('\n');
}

function wrap(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/** What `shop-inbox VERB --help` prints. */
export function verbHelp(verb: VerbSpec): string {
  const parts = [`Usage: ${usageLine(verb)}`, verb.description];
  if (verb.args.length > 0)
    parts.push(`Arguments:\n${aligned(verb.args.map((arg) => [arg.name, arg.help]))}`);
  parts.push(
    `Options:\n${aligned(Object.entries(verb.options).map(([name, option]) => [optionLabel(name, option), option.help]))}`,
  );
  if (verb.exitCodes === 'common')
    parts.push(`Exit status:\n${aligned(EXIT_CODES.map(({ code, meaning }) => [String(code), meaning]))}`);
  if (verb.exitCodes === 'nagios')
    parts.push(`Exit status:\n${aligned(NAGIOS_CODES.map(({ code, meaning }) => [String(code), meaning]))}`);
  return `${parts.join('\n\n')}\n`;
}

/** What `shop-inbox --help` prints: every command, then the environment. */
export function mainHelp(version: string): string {
  const commands = aligned(
    [
      ...Object.values(VERBS as Record<string, VerbSpec>).map((verb): [string, string] => [
        usageLine(verb),
        verb.summary,
      ]),
      ['shop-inbox --demo', 'open the inbox on the built-in demo shop'],
      ['shop-inbox --version', 'the version'],
    ],
    40,
  );
  return `shop-inbox ${version}: a keyboard-driven terminal inbox for a shop's front desk,
on the shop operations API v1.

Commands:
${commands}

Every command: shop-inbox COMMAND --help
The inbox's options:
${aligned(Object.entries(VERBS[''].options).map(([name, option]) => [optionLabel(name, option), option.help]))}

Environment:
${aligned(ENVIRONMENT.map(({ name, meaning }) => [name, meaning]))}

The manual: man shop-inbox
`;
}
