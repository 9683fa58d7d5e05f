/**
 * `shop-inbox completion bash|zsh|fish`: a completion script made from the
 * verb table (commands, options, the values of options that have a few), and
 * `shop-inbox __complete shops`, which the scripts run to list config.json's
 * shops when completing (so a shop saved later completes without a new script).
 */
import { readConfig } from '../config/config-file.js';
import { shopNames } from '../config/shops.js';
import { parseVerbArgs } from './parse-verb.js';
import { UsageError } from './usage-error.js';
import { type OptionSpec, VERBS, type VerbSpec, verbHelp } from './verb-table.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const ALL_VERBS = Object.values(VERBS as Record<string, VerbSpec>);
const NAMED = ALL_VERBS.filter((verb) => verb.name !== '');
const INBOX = VERBS[''] as VerbSpec;

/** The values an option takes, when they can be listed. */
export function choicesOf(option: OptionSpec): readonly string[] | undefined {
  if (option.choices) return option.choices;
  return option.value?.includes('|') ? option.value.split('|') : undefined;
}

/** "--shop", "-h": every spelling of a command's options. */
function spellings(verb: VerbSpec): string[] {
  return Object.entries(verb.options).flatMap(([name, option]) => [
    `--${name}`,
    ...(option.short ? [`-${option.short}`] : []),
  ]);
}

/** Each option that takes a value, once, with what completes it (options of one name mean the same everywhere). */
function valueOptions(): Array<{ names: string[]; option: OptionSpec }> {
  const seen = new Map<string, { names: string[]; option: OptionSpec }>();
  for (const verb of ALL_VERBS)
    for (const [name, option] of Object.entries(verb.options)) {
      if (option.type !== 'string' || seen.has(name)) continue;
      seen.set(name, { names: [`--${name}`, ...(option.short ? [`-${option.short}`] : [])], option });
    }
  return [...seen.values()];
}

const quoteWords = (words: readonly string[]) => words.join(' ');

export function bashScript(): string {
  const valueCases = valueOptions()
    .map(({ names, option }) => {
      const pattern = names.join('|');
      if (option.completes === 'shop')
        return `    ${pattern}) COMPREPLY=($(compgen -W "$(shop-inbox __complete shops "$cur" 2>/dev/null)" -- "$cur")); return ;;`;
      if (option.completes === 'file')
        return `    ${pattern}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`;
      const choices = choicesOf(option);
      if (choices)
        return `    ${pattern}) COMPREPLY=($(compgen -W "${quoteWords(choices)}" -- "$cur")); return ;;`;
      return `    ${pattern}) return ;;`;
    })
    .join('\n');
  const verbCases = NAMED.map((verb) => `    ${verb.name}) opts="${quoteWords(spellings(verb))}" ;;`).join(
    '\n',
  );
  return `# shop-inbox completion for bash: source <(shop-inbox completion bash)
_shop_inbox() {
  local cur prev verb opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev=""
  [ "$COMP_CWORD" -gt 0 ] && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${valueCases}
  esac
  verb=""
  [ "$COMP_CWORD" -gt 1 ] && verb="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ] && [[ "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W "${quoteWords(NAMED.map((verb) => verb.name))}" -- "$cur"))
    return
  fi
  case "$verb" in
${verbCases}
    *) opts="${quoteWords(spellings(INBOX))} --version" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _shop_inbox shop-inbox
`;
}

export function zshScript(): string {
  // zsh runs the bash function through its bash completion layer: one script, the same answers.
  return `#compdef shop-inbox
# shop-inbox completion for zsh: source <(shop-inbox completion zsh), or save it as _shop-inbox in $fpath
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript().split('\n').slice(1).join('\n')}`;
}

/** fish wants its descriptions on one line, without a quote that would end them. */
const fishText = (text: string) => text.replace(/\s+/g, ' ').replaceAll("'", "\\'");

export function fishScript(): string {
  const lines = [
    '# shop-inbox completion for fish: shop-inbox completion fish > ~/.config/fish/completions/shop-inbox.fish',
    'complete -c shop-inbox -f',
    ...NAMED.map(
      (verb) =>
        `complete -c shop-inbox -n '__fish_use_subcommand' -a '${verb.name}' -d '${fishText(verb.summary)}'`,
    ),
  ];
  const verbNames = NAMED.map((verb) => verb.name).join(' ');
  for (const verb of ALL_VERBS) {
    const condition =
      verb.name === ''
        ? `not __fish_seen_subcommand_from ${verbNames}`
        : `__fish_seen_subcommand_from ${verb.name}`;
    for (const [name, option] of Object.entries(verb.options)) {
      const parts = [`complete -c shop-inbox -n '${condition}' -l ${name}`];
      if (option.short) parts.push(`-s ${option.short}`);
      if (option.type === 'string') {
        const choices = choicesOf(option);
        if (option.completes === 'shop')
          parts.push("-x -a '(shop-inbox __complete shops (commandline -ct) 2>/dev/null)'");
        else if (option.completes === 'file') parts.push('-r -F');
        else if (choices) parts.push(`-x -a '${choices.join(' ')}'`);
        else parts.push('-x');
      }
      parts.push(`-d '${fishText(option.help)}'`);
      lines.push(parts.join(' '));
    }
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPTS: Record<Shell, () => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function runCompletionCommand(args: string[], _env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals, help } = parseVerbArgs(VERBS.completion, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.completion));
    return 0;
  }
  const shell = positionals[0] as string;
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(`shop-inbox completion: the shell must be bash, zsh or fish (got ${shell})`);
  process.stdout.write(SCRIPTS[shell as Shell]());
  return 0;
}

/**
 * The words that complete the word typed after --shop: the shops, or, inside a comma list ("north,"), the
 * list so far followed by each shop not yet in it ("north,south"), so the shell's prefix match keeps them.
 */
export function shopCandidates(names: readonly string[], typed: string): string[] {
  const lastComma = typed.lastIndexOf(',');
  if (lastComma < 0) return [...names];
  const head = typed.slice(0, lastComma + 1);
  const listed = new Set(head.split(',').filter(Boolean));
  return names.filter((name) => !listed.has(name)).map((name) => `${head}${name}`);
}

/**
 * `shop-inbox __complete shops [WORD]`: config.json's shops, one a line, for the scripts (WORD, the word
 * being completed, continues a comma list). Quiet on any problem (a broken config completes nothing; the
 * command run then says what is wrong).
 */
export async function runCompleteCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (args[0] !== 'shops') return 2;
  try {
    const names = shopCandidates(shopNames(await readConfig(env)), args[1] ?? '');
    process.stdout.write(names.map((name) => `${name}\n`).join(''));
  } catch {
    // Nothing to offer.
  }
  return 0;
}
