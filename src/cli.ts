/** The shop-inbox command: parses the command line and hands over to a command. */
import { tuneRuntime } from './cli/runtime-tuning.js';
import { SIM_USAGE, STATUS_USAGE, TUI_USAGE } from './cli/usage.js';
import { UsageError } from './cli/usage-error.js';
import { VERSION } from './cli/version.js';

const USAGE = `shop-inbox ${VERSION}: a keyboard-driven terminal inbox for a shop's front desk,
on the shop operations API v1.

Usage:
  shop-inbox [options]       open the inbox (full screen)
  shop-inbox --demo          open the inbox on the built-in demo shop
  shop-inbox status          check the key and show the shop's state
  shop-inbox login [--base-url URL]   store the API key for this user
  shop-inbox sim [options]   serve the built-in demo shop (an API v1 simulator)
  shop-inbox --help          this text
  shop-inbox --version       the version

Environment:
  SHOP_API_BASE_URL          the shop's API root, https://host/…/v1
  SHOP_API_KEY               the shop's API key (never pass a key as a flag)
  SHOP_INBOX_TRUST_LOOPBACK  1: send plain http to a loopback port whose owner this system
                             cannot tell (not Linux); only where no other user runs programs

${TUI_USAGE}
${STATUS_USAGE}
${SIM_USAGE}`;

/** Flags that would put the key in argv, where every user of the machine can read it with ps. */
const SECRET_FLAGS = ['--api-key', '--key', '--token'];

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
    process.stdout.write(USAGE);
    return 0;
  }
  // Commands load on demand: --version and --help stay quick to start.
  if (command === 'status') {
    const { runStatusCommand } = await import('./cli/status-command.js');
    return runStatusCommand(rest, process.env);
  }
  if (command === 'login') {
    const { runLoginCommand } = await import('./cli/login-command.js');
    return runLoginCommand(rest, process.env);
  }
  if (command === 'sim') {
    const { runSimCommand } = await import('./cli/sim-command.js');
    await runSimCommand(rest);
    return 0;
  }
  if (command === undefined || command.startsWith('-')) {
    const { runTuiCommand } = await import('./cli/tui-command.js');
    return runTuiCommand(argv, process.env);
  }
  process.stderr.write(`shop-inbox: unknown command "${command}"\n\n${USAGE}`);
  return 2;
}

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
