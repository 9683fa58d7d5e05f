/**
 * `shop-inbox [--demo] [--base-url URL] [--key-file PATH] [--read-only] [--max-rpm N] [--no-mouse]`:
 * the full-screen inbox. With --demo it starts the simulator in this process
 * on a free loopback port and uses its write key.
 */
import { parseArgs } from 'node:util';
import { BaseUrlError } from '../api/base-url.js';
import { ConfigError } from '../config/config-error.js';
import { readConfig } from '../config/config-file.js';
import { resolveSettings } from '../config/settings.js';
import { DEFAULT_MAX_RPM } from '../session/create-session.js';
import { buildKeymap, KeymapError } from '../ui/commands/keymap.js';
import { runInbox } from '../ui/run-inbox.js';
import { UsageError } from './usage-error.js';

export async function runTuiCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      demo: { type: 'boolean', default: false },
      'base-url': { type: 'string' },
      'key-file': { type: 'string' },
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
    let config: Awaited<ReturnType<typeof readConfig>>;
    try {
      config = await readConfig(env);
      buildKeymap(config?.keys);
    } catch (error) {
      if (error instanceof ConfigError || error instanceof KeymapError) {
        process.stderr.write(`shop-inbox: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
    if (!isTerminal()) return notATerminal();
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
  let settings: Awaited<ReturnType<typeof resolveSettings>>;
  try {
    settings = await resolveSettings(
      {
        ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
        ...(values['key-file'] ? { keyFile: values['key-file'] } : {}),
        readOnly: values['read-only'],
      },
      env,
    );
    buildKeymap(settings.keys);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BaseUrlError || error instanceof KeymapError) {
      process.stderr.write(`shop-inbox: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (!isTerminal()) return notATerminal();
  return runInbox({ ...settings, maxRpm, demo: false, mouse: settings.mouse && !values['no-mouse'] });
}

const isTerminal = () => Boolean(process.stdout.isTTY && process.stdin.isTTY);

function notATerminal(): number {
  process.stderr.write(
    'shop-inbox: the inbox needs a terminal (stdin and stdout must be a TTY). For a one-shot check, use `shop-inbox status`.\n',
  );
  return 2;
}
