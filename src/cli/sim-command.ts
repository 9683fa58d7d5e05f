/**
 * `shop-inbox sim`: serves the simulator until SIGINT/SIGTERM. The first line
 * on stdout is one JSON object with the base URL and the tokens, so scripts
 * and tests can start it and read where to connect.
 */
import { isLoopbackHost } from '../api/base-url.js';
import { HINT_MODES, type HintMode } from '../sim/hints.js';
import { createSimulator } from '../sim/simulator.js';
import { parseVerbArgs } from './parse-verb.js';
import { UsageError } from './usage-error.js';
import { VERBS, verbHelp } from './verb-table.js';

function number(name: string, raw: string | undefined, fallback: number, range: [number, number]): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < range[0] || value > range[1]) {
    throw new UsageError(`--${name} must be a number from ${range[0]} to ${range[1]} (got ${raw})`);
  }
  return value;
}

export async function runSimCommand(args: string[]): Promise<void> {
  const { values, help } = parseVerbArgs(VERBS.sim, args);
  if (help) {
    process.stdout.write(verbHelp(VERBS.sim));
    return;
  }
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host.includes(':') ? `[${host}]` : host)) {
    process.stderr.write(
      `warning: the simulator listens on ${host}, reachable beyond this machine; its tokens are printed in clear\n`,
    );
  }
  const hints = values.hints ?? 'plausible';
  if (!HINT_MODES.includes(hints as HintMode))
    throw new UsageError(`--hints must be ${HINT_MODES.join(' or ')} (got ${hints})`);
  const sim = createSimulator({
    hints: hints as HintMode,
    seed: number('seed', values.seed, 1, [0, 2 ** 32 - 1]),
    live: values.live === true,
    liveIntervalMs: number('live-interval', values['live-interval'], 4_000, [100, 3_600_000]),
    rateLimitPerMinute: number('rate-limit', values['rate-limit'], 120, [1, 1_000_000]),
    faults: {
      latencyMs: number('latency', values.latency, 0, [0, 600_000]),
      errorRate: number('error-rate', values['error-rate'], 0, [0, 1]),
      hangRate: number('hang-rate', values['hang-rate'], 0, [0, 1]),
      resetRate: number('reset-rate', values['reset-rate'], 0, [0, 1]),
      malformedRate: number('malformed-rate', values['malformed-rate'], 0, [0, 1]),
    },
  });
  const burst = number('burst-429', values['burst-429'], 0, [0, 1_000_000]);
  if (burst > 0) {
    sim.faults.rateLimitBurst(
      burst,
      number('burst-retry-after', values['burst-retry-after'], 5, [0, 86_400]),
    );
  }
  const port = number('port', values.port, 0, [0, 65_535]);
  // Handlers go in before the first line is printed: whoever reads that line
  // may signal at once, and must get a clean exit.
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void sim.close().then(resolve);
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const running = await sim.listen({ host, port });
  process.stdout.write(`${JSON.stringify({ base_url: running.baseUrl, tokens: sim.tokens })}\n`);
  process.stderr.write(
    [
      `demo shop "${sim.shops.main.identity.businessName}" at ${running.baseUrl}${values.live ? ' (live)' : ''}; Ctrl-C stops it`,
      `try it: SHOP_API_BASE_URL=${running.baseUrl} SHOP_API_KEY=<tokens.write above> shop-inbox status`,
      '',
    ].join('\n'),
  );
  await stopped;
}
