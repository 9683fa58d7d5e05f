/**
 * `shop-inbox [--demo] [--base-url URL] [--key-file PATH] [--read-only] [--max-rpm N] [--no-mouse]`:
 * the full-screen inbox. With --demo it starts the simulator in this process
 * on a free loopback port and uses its write key.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../config/config-error.js';
import { readConfig, type ShopInboxConfig } from '../config/config-file.js';
import { DEFAULT_MAX_RPM } from '../session/create-session.js';
import { buildKeymap, KeymapError } from '../ui/commands/keymap.js';
import { runInbox } from '../ui/run-inbox.js';
import { SHOP_FLAGS, settingsOrExplain } from './shop-settings.js';
import { UsageError } from './usage-error.js';

export async function runTuiCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      demo: { type: 'boolean', default: false },
      ...SHOP_FLAGS,
      'read-only': { type: 'boolean', default: false },
      'max-rpm': { type: 'string' },
      'no-mouse': { type: 'boolean', default: false },
    },
  });
  const maxRpm = values['max-rpm'] === undefined ? DEFAULT_MAX_RPM : Number(values['max-rpm']);
  if (!Number.isInteger(maxRpm) || maxRpm < 1 || maxRpm > 120) {
    throw new UsageError(
      '--max-rpm must be a whole number from 1 to 120 (the service allows 120 per minute per key)',
    );
  }
  if (values.demo) {
    // The demo needs no shop settings, but a user's keys and mouse choice still apply.
    const config = await keysOrExplain(() => readConfig(env));
    if (config === false) return 1;
    if (!canShowInbox(env)) return 2;
    const { createSimulator } = await import('../sim/simulator.js');
    const sim = createSimulator({ live: true, seed: Date.now() % 100_000 });
    const running = await sim.listen({ host: '127.0.0.1', port: 0 });
    try {
      return await runInbox({
        baseUrl: running.baseUrl,
        apiKey: sim.tokens.write,
        readOnly: values['read-only'],
        maxRpm,
        demo: true,
        mouse: !values['no-mouse'] && config?.mouse !== false,
        ...(config?.keys ? { keys: config.keys } : {}),
      });
    } finally {
      await sim.close();
    }
  }
  const settings = await settingsOrExplain(values, env);
  if (!settings || (await keysOrExplain(async () => settings)) === false) return 1;
  if (!canShowInbox(env)) return 2;
  return runInbox({ ...settings, maxRpm, demo: false, mouse: settings.mouse && !values['no-mouse'] });
}

/**
 * Reads the config (or settings) and checks the user's keys in it, before the screen changes; false
 * once stderr says what is wrong with them.
 */
async function keysOrExplain<T extends Pick<ShopInboxConfig, 'keys'> | undefined>(
  read: () => Promise<T>,
): Promise<T | false> {
  try {
    const config = await read();
    buildKeymap(config?.keys);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof KeymapError) {
      process.stderr.write(`shop-inbox: ${error.message}\n`);
      return false;
    }
    throw error;
  }
}

/** Why the inbox cannot be drawn here, in one line, or undefined when it can. */
function terminalProblem(env: NodeJS.ProcessEnv): string | undefined {
  if (!(process.stdout.isTTY && process.stdin.isTTY))
    return 'the inbox needs a terminal (stdin and stdout must be a TTY).';
  // The inbox moves the cursor: a terminal declared dumb cannot, and with no TERM nothing says it can.
  const term = env.TERM?.trim();
  if (!term || term === 'dumb')
    return `the inbox needs a terminal that can move the cursor, and ${term ? 'TERM=dumb' : 'TERM is not set'}: run it in a terminal emulator or tmux, or set TERM (e.g. TERM=xterm-256color).`;
  return undefined;
}

/** Says on stderr why the inbox cannot be drawn here, if it cannot. */
function canShowInbox(env: NodeJS.ProcessEnv): boolean {
  const problem = terminalProblem(env);
  if (problem)
    process.stderr.write(`shop-inbox: ${problem} For a one-shot check, use \`shop-inbox status\`.\n`);
  return problem === undefined;
}
