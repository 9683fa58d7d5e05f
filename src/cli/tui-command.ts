/**
 * `shop-inbox [--demo] [--base-url URL] [--key-file PATH] [--read-only] [--max-rpm N] [--no-mouse]
 * [--wallboard] [--theme auto|dark|light]`: the full-screen inbox, or the wallboard (read-only).
 * With --demo it starts the simulator in this process on a free loopback port and uses its write key.
 */
import { ConfigError } from '../config/config-error.js';
import { readConfig, type ShopInboxConfig } from '../config/config-file.js';
import { fadeOf, type ResolvedSettings } from '../config/settings.js';
import { checkShopName, shopNames } from '../config/shops.js';
import { RequestStats } from '../poller/request-stats.js';
import { DEFAULT_MAX_RPM } from '../session/create-session.js';
import { firstReadsBeside } from '../session/first-reads.js';
import { type InboxSessionOptions, startInboxSession } from '../session/start-inbox-session.js';
import { markStart } from '../ui-kit/start-trace.js';
import { loadTemplates, TemplatesError } from '../user-actions/templates.js';
import {
  type MetricsAddress,
  MetricsAddressError,
  parseMetricsAddress,
} from '../wallboard/metrics-address.js';
import type { MetricsServer } from '../wallboard/metrics-server.js';
import { parseVerbArgs } from './parse-verb.js';
import { settingsOrExplain } from './shop-settings.js';
import { UsageError } from './usage-error.js';
import { VERBS, verbHelp } from './verb-table.js';
import { VERSION } from './version.js';

/** --metrics ADDR, checked before anything starts (a usage error: exit 2). */
function metricsAddressOf(raw: string | undefined, allowPublic: boolean): MetricsAddress | undefined {
  if (raw === undefined) {
    if (allowPublic) throw new UsageError('--metrics-public goes with --metrics ADDR');
    return undefined;
  }
  try {
    return parseMetricsAddress(raw, allowPublic);
  } catch (error) {
    if (error instanceof MetricsAddressError) throw new UsageError(error.message);
    throw error;
  }
}

type ThemeChoice = 'auto' | 'dark' | 'light';

export async function runTuiCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  markStart('command');
  const { values, help } = parseVerbArgs(VERBS[''], args);
  if (help) {
    process.stdout.write(verbHelp(VERBS['']));
    return 0;
  }
  const theme = values.theme;
  if (theme !== undefined && !isThemeChoice(theme)) {
    throw new UsageError('--theme must be auto, dark or light');
  }
  const maxRpm = values['max-rpm'] === undefined ? DEFAULT_MAX_RPM : Number(values['max-rpm']);
  if (!Number.isInteger(maxRpm) || maxRpm < 1 || maxRpm > 120) {
    throw new UsageError(
      '--max-rpm must be a whole number from 1 to 120 (the service allows 120 per minute per key)',
    );
  }
  const metrics = metricsAddressOf(values.metrics, values['metrics-public'] === true);
  const several = values.all === true || (values.shop?.includes(',') ?? false);
  if (several) {
    if (values.all && values.shop !== undefined)
      throw new UsageError('--all and --shop cannot be given together');
    if (!values.wallboard)
      throw new UsageError(
        'several shops (--shop a,b or --all) are shown only on the wallboard: add --wallboard',
      );
    if (values.demo || values['base-url'] !== undefined || values['key-file'] !== undefined)
      throw new UsageError('several shops come from config.json: not with --demo, --base-url or --key-file');
    return runShopsWallboard(env, {
      names: values.all ? undefined : (values.shop ?? '').split(','),
      maxRpm,
      theme: theme ?? 'auto',
      mouse: !values['no-mouse'],
      ...(metrics ? { metrics } : {}),
    });
  }
  if (values.all) throw new UsageError('--all goes with --wallboard');
  if (values.demo) {
    // The demo needs no shop settings, but a user's keys and mouse choice still apply.
    const config = await configOrExplain(env);
    if (config === false) return 1;
    if (!canShowInbox(env)) return 2;
    const { createSimulator } = await import('../sim/simulator.js');
    const sim = createSimulator({ live: true, seed: Date.now() % 100_000 });
    const running = await sim.listen({ host: '127.0.0.1', port: 0 });
    try {
      const view = values.wallboard ? 'wallboard' : (config?.view ?? 'inbox');
      return await showInbox({
        baseUrl: running.baseUrl,
        apiKey: sim.tokens.write,
        // The wallboard never writes, whatever else is said.
        readOnly: values['read-only'] || view === 'wallboard',
        maxRpm,
        demo: true,
        view,
        mouse: !values['no-mouse'] && config?.mouse !== false,
        ...(metrics ? { metrics } : {}),
        theme: theme ?? config?.theme ?? 'auto',
        ...(config?.notify ? { notify: config.notify } : {}),
        ...(config?.keys ? { keys: config.keys } : {}),
        ...fadeOf(config),
        ...(config?.timezone ? { timeZone: config.timezone } : {}),
      });
    } finally {
      await sim.close();
    }
  }
  const settings = await settingsOrExplain(values, env);
  if (!settings) return 1;
  if (!canShowInbox(env)) return 2;
  const view = values.wallboard ? 'wallboard' : (settings.view ?? 'inbox');
  return showInbox({
    ...settings,
    readOnly: settings.readOnly || view === 'wallboard',
    // What holds for every shop switched to: the flag, or the wallboard's never writing.
    readOnlyFlag: values['read-only'] === true || view === 'wallboard',
    maxRpm,
    demo: false,
    view,
    mouse: settings.mouse && !values['no-mouse'],
    theme: theme ?? settings.theme ?? 'auto',
    ...(metrics ? { metrics } : {}),
  });
}

/**
 * The wallboard of several shops: one session per shop (read-only, each with its own budget and hub),
 * the first shown by the screen, every one in its column; all closed on the way out.
 */
async function runShopsWallboard(
  env: NodeJS.ProcessEnv,
  options: {
    names: string[] | undefined;
    maxRpm: number;
    theme: ThemeChoice;
    mouse: boolean;
    metrics?: MetricsAddress;
  },
): Promise<number> {
  const config = await configOrExplain(env);
  if (config === false) return 1;
  const names = [...new Set(options.names?.map((name) => name.trim()) ?? shopNames(config))];
  for (const name of names) {
    try {
      checkShopName(name);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (names.length === 0) {
    process.stderr.write(
      'shop-inbox: config.json names no shops; add them with shop-inbox login --shop NAME\n',
    );
    return 1;
  }
  const shops: Array<{ name: string; settings: ResolvedSettings }> = [];
  for (const name of names) {
    const settings = await settingsOrExplain({ shop: name, 'read-only': true }, env);
    if (!settings) return 1;
    shops.push({ name, settings });
  }
  if (!canShowInbox(env)) return 2;
  const stats = shops.map(() => (options.metrics ? new RequestStats() : undefined));
  const sessions = shops.map(({ name, settings }, index) => {
    const requestStats = stats[index];
    return startInboxSession({
      ...settings,
      shop: name,
      readOnly: true,
      readOnlyFlag: true,
      maxRpm: options.maxRpm,
      demo: false,
      view: 'wallboard',
      userAgent: `shop-inbox/${VERSION}`,
      columns: process.stdout.columns ?? 80,
      rows: process.stdout.rows ?? 24,
      ...(requestStats ? { requestStats } : {}),
    });
  });
  markStart('store');
  const screen = await firstReadsBeside(
    sessions.map((session) => session.store),
    loadScreenCode,
  );
  markStart('reads');
  const closeAll = () => {
    for (const session of sessions) session.close();
  };
  const [{ runInbox }, { buildKeymap, KeymapError }] = await screen.loaded;
  markStart('ui');
  try {
    buildKeymap(config?.keys);
  } catch (error) {
    closeAll();
    if (error instanceof KeymapError) {
      process.stderr.write(`shop-inbox: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let metricsServer: MetricsServer | undefined;
  if (options.metrics) {
    try {
      const { serveMetrics } = await import('../wallboard/metrics-server.js');
      metricsServer = await serveMetrics(options.metrics, () =>
        sessions.flatMap((session, index) => {
          const requestStats = stats[index];
          const name = shops[index]?.name;
          return requestStats && name
            ? [{ shop: name, state: session.store.getState, stats: requestStats }]
            : [];
        }),
      );
    } catch (error) {
      closeAll();
      process.stderr.write(`shop-inbox: --metrics: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
  }
  const [primary] = sessions;
  if (!primary) return 1;
  try {
    return await runInbox(primary, {
      mouse: false,
      view: 'wallboard',
      theme: options.theme,
      ...(config?.keys ? { keys: config.keys } : {}),
      wallboardShops: shops.map(({ name }, index) => ({ name, store: (sessions[index] ?? primary).store })),
    });
  } finally {
    closeAll();
    await metricsServer?.close();
  }
}

/** The screen's code (Ink, React, Yoga, the panes), loaded while the first reads travel: see session/first-reads.ts. */
const loadScreenCode = () =>
  Promise.all([import('../shell/run-inbox.js'), import('../shell/commands/keymap.js')]);

function isThemeChoice(value: string): value is ThemeChoice {
  return value === 'auto' || value === 'dark' || value === 'light';
}

/**
 * The session starts first, so that the header and the inbox are read while
 * the screen's code (Ink, React, the panes) loads; then the user's keys are
 * checked, before the screen changes, and the inbox is shown.
 */
async function showInbox(
  options: Omit<InboxSessionOptions, 'columns' | 'rows' | 'userAgent'> & {
    keys?: ShopInboxConfig['keys'];
    mouse: boolean;
    theme: ThemeChoice;
    notify?: ShopInboxConfig['notify'];
    newMarksFadeMs?: number;
    metrics?: MetricsAddress;
  },
): Promise<number> {
  const templates = await loadTemplates(process.env).then(
    (list) => ({ templates: list }),
    (error: unknown) => ({
      templates: [],
      templatesProblem: error instanceof TemplatesError ? error.message : 'templates.json could not be read.',
    }),
  );
  const requestStats = options.metrics ? new RequestStats() : undefined;
  const session = startInboxSession({
    ...options,
    ...templates,
    ...(requestStats ? { requestStats } : {}),
    userAgent: `shop-inbox/${VERSION}`,
    columns: process.stdout.columns ?? 80,
    rows: process.stdout.rows ?? 24,
  });
  markStart('store');
  const screen = await firstReadsBeside([session.store], loadScreenCode);
  markStart('reads');
  const [{ runInbox }, { buildKeymap, KeymapError }] = await screen.loaded;
  markStart('ui');
  try {
    buildKeymap(options.keys);
  } catch (error) {
    session.close();
    if (error instanceof KeymapError) {
      process.stderr.write(`shop-inbox: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let metricsServer: MetricsServer | undefined;
  if (options.metrics && requestStats) {
    const stats = requestStats;
    const shop = options.demo ? 'demo' : (options.shop ?? 'default');
    try {
      const { serveMetrics } = await import('../wallboard/metrics-server.js');
      metricsServer = await serveMetrics(options.metrics, () => [
        { shop, state: session.store.getState, stats },
      ]);
    } catch (error) {
      session.close();
      process.stderr.write(`shop-inbox: --metrics: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
  }
  try {
    return await runInboxScreen(runInbox, session, options);
  } finally {
    await metricsServer?.close();
  }
}

function runInboxScreen(
  runInbox: typeof import('../shell/run-inbox.js').runInbox,
  session: ReturnType<typeof startInboxSession>,
  options: Parameters<typeof showInbox>[0],
): Promise<number> {
  return runInbox(session, {
    mouse: options.mouse,
    view: options.view,
    theme: options.theme,
    ...(options.notify ? { notify: options.notify } : {}),
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.newMarksFadeMs !== undefined ? { newMarksFadeMs: options.newMarksFadeMs } : {}),
  });
}

/** The config file, or false once stderr says what is wrong with it. */
async function configOrExplain(env: NodeJS.ProcessEnv): Promise<ShopInboxConfig | undefined | false> {
  try {
    return await readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
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
