/** The shop-inbox command: parses the command line and hands over to a command. */
import { tuneRuntime } from './cli/runtime-tuning.js';
import { UsageError } from './cli/usage-error.js';
import { mainHelp } from './cli/verb-table.js';
import { VERSION } from './cli/version.js';
import { markStart } from './ui-kit/start-trace.js';

/** Flags that would put the key in argv, where every user of the machine can read it with ps. */
const SECRET_FLAGS = ['--api-key', '--key', '--token'];

type Run = (args: string[], env: NodeJS.ProcessEnv) => Promise<number>;

/** Each command's code, loaded only when it runs: --version and --help stay quick to start. */
const COMMANDS: Record<string, () => Promise<Run>> = {
  status: async () => (await import('./cli/status-command.js')).runStatusCommand,
  login: async () => (await import('./cli/login-command.js')).runLoginCommand,
  sim: async () => {
    const { runSimCommand } = await import('./cli/sim-command.js');
    return async (args) => {
      await runSimCommand(args);
      return 0;
    };
  },
  inbox: async () => (await import('./cli/inbox-command.js')).runInboxCommand,
  thread: async () => (await import('./cli/thread-command.js')).runThreadCommand,
  contacts: async () => (await import('./cli/list-commands.js')).runContactsCommand,
  reviews: async () => (await import('./cli/list-commands.js')).runReviewsCommand,
  actions: async () => (await import('./cli/list-commands.js')).runActionsCommand,
  send: async () => (await import('./cli/send-command.js')).runSendCommand,
  approve: async () => (await import('./cli/approve-command.js')).runApproveCommand,
  check: async () => (await import('./cli/check-command.js')).runCheckCommand,
  completion: async () => (await import('./cli/completion-command.js')).runCompletionCommand,
  // Hidden: what the completion scripts run to list the shops of config.json.
  __complete: async () => (await import('./cli/completion-command.js')).runCompleteCommand,
};

async function main(argv: string[]): Promise<number> {
  const secretFlag = argv.find((arg) =>
    SECRET_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`)),
  );
  if (secretFlag) {
    process.stderr.write(
      `shop-inbox: ${secretFlag.split('=')[0]} is refused: a key on the command line is visible to every user of this machine (ps). Use SHOP_API_KEY or a key file.\n`,
    );
    return 2;
  }
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(mainHelp(VERSION));
    return 0;
  }
  const load = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load) return (await load())(rest, process.env);
  if (command === undefined || command.startsWith('-')) {
    const { runTuiCommand } = await import('./cli/tui-command.js');
    return runTuiCommand(argv, process.env);
  }
  process.stderr.write(`shop-inbox: unknown command "${command}"\n\n${mainHelp(VERSION)}`);
  return 2;
}

markStart('code');
tuneRuntime(process.env);
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`shop-inbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
