/**
 * `shop-inbox check`: a monitoring plugin in the Nagios convention. One line
 * on stdout, `SHOP-INBOX STATE - what needs attention | perfdata`, and the
 * exit code of the state: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 *
 * It only reads (a read-only key is enough; it never asks the key's mode,
 * which takes a write): /me for the counts, the callbacks list for the oldest
 * missed call, the open list and the newest --threads threads for the replies
 * customers wait for. Everything it says comes from its own numbers: no
 * server string reaches the line but the texting status, sanitized.
 */
import { createShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { Inbox, LeadDetail, ShopOverview } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { callbackCount, plural } from '../store/counts.js';
import { waitingInThread } from '../store/waiting.js';
import { sanitize } from '../text/sanitize.js';
import { cliClock } from './cli-clock.js';
import { MAX_THREADS } from './inbox-command.js';
import { alerts, formatRange, type NagiosRange, parseRange } from './nagios-range.js';
import { choiceOption, parseVerbArgs, wholeNumberOption } from './parse-verb.js';
import { settingsOrExplain } from './shop-settings.js';
import { VERBS, verbHelp } from './verb-table.js';
import { VERSION } from './version.js';

export const NAGIOS = { OK: 0, WARNING: 1, CRITICAL: 2, UNKNOWN: 3 } as const;
type State = keyof typeof NAGIOS;

/** Every value the check reports, its unit, and its default thresholds (none: reported only). */
export const CHECK_METRICS = {
  callbacks: { unit: '', warn: '2', crit: '5', help: 'missed calls with no reply' },
  oldest_callback: { unit: 's', warn: '900', crit: '1800', help: 'age of the oldest of them' },
  waiting_replies: {
    unit: '',
    warn: '2',
    crit: '5',
    help: 'threads read whose newest text is the customer’s',
  },
  oldest_waiting: { unit: 's', warn: '900', crit: '1800', help: 'the longest of those waits' },
  pending_actions: { unit: '', warn: '', crit: '', help: 'actions awaiting approval' },
  unreplied_reviews: { unit: '', warn: '', crit: '', help: 'reviews with no reply' },
  texting_live: {
    unit: '',
    warn: '1:',
    crit: '',
    help: '1 when texting is live (a number, status active), else 0',
  },
} as const;
export type MetricLabel = keyof typeof CHECK_METRICS;

const isLabel = (label: string): label is MetricLabel => Object.hasOwn(CHECK_METRICS, label);

class CheckUsageError extends Error {}

/** The thresholds in force: the defaults, each replaced (or, with an empty range, dropped) by -w / -c. */
export function thresholds(
  warnings: readonly string[],
  criticals: readonly string[],
): Record<MetricLabel, { warn?: NagiosRange; crit?: NagiosRange }> {
  const texts = Object.fromEntries(
    Object.entries(CHECK_METRICS).map(([label, metric]) => [label, { warn: metric.warn, crit: metric.crit }]),
  ) as Record<MetricLabel, { warn: string; crit: string }>;
  for (const [level, given] of [
    ['warn', warnings],
    ['crit', criticals],
  ] as const) {
    for (const item of given) {
      const equals = item.indexOf('=');
      const label = equals === -1 ? '' : item.slice(0, equals).trim();
      if (!isLabel(label))
        throw new CheckUsageError(
          `-${level === 'warn' ? 'w' : 'c'} takes LABEL=RANGE, LABEL one of ${Object.keys(CHECK_METRICS).join(', ')} (got ${item.slice(0, 60)})`,
        );
      texts[label][level] = item.slice(equals + 1).trim();
    }
  }
  const parsed = {} as Record<MetricLabel, { warn?: NagiosRange; crit?: NagiosRange }>;
  for (const label of Object.keys(texts) as MetricLabel[]) {
    const durations = CHECK_METRICS[label].unit === 's';
    const { warn, crit } = texts[label];
    parsed[label] = {
      ...(warn ? { warn: parseRange(warn, { durations }) } : {}),
      ...(crit ? { crit: parseRange(crit, { durations }) } : {}),
    };
  }
  return parsed;
}

export interface Measures {
  callbacks: number;
  oldest_callback: number;
  /** Absent when no thread was read (--threads 0). */
  waiting_replies?: number;
  oldest_waiting?: number;
  threads_read: number;
  pending_actions: number;
  unreplied_reviews: number;
  texting_live: number;
  texting_status: string;
}

const ageSeconds = (timestamp: string, now: number) => {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? 0 : Math.max(0, Math.floor((now - at) / 1000));
};

export function measure(
  me: ShopOverview,
  callbacks: Inbox,
  threads: readonly LeadDetail[] | undefined,
  now: number,
): Measures {
  const counted = callbackCount({
    inbox: { callbacks: { data: callbacks, loading: false }, open: { loading: false } },
    me: { data: me, loading: false },
  } as Pick<AppState, 'inbox' | 'me'>);
  const waits = (threads ?? []).map((thread) => waitingInThread(thread, now)).filter((wait) => wait !== null);
  const pulse = me.texting_pulse;
  return {
    callbacks: counted ?? callbacks.open_leads.length,
    oldest_callback: Math.max(0, ...callbacks.open_leads.map((lead) => ageSeconds(lead.created_at, now))),
    ...(threads && threads.length > 0
      ? {
          waiting_replies: waits.length,
          oldest_waiting: Math.max(0, ...waits.map((wait) => wait.seconds)),
        }
      : {}),
    threads_read: threads?.length ?? 0,
    pending_actions: me.pending_actions,
    unreplied_reviews: me.reviews_pulse.unreplied,
    texting_live: pulse.texting_number && String(pulse.texting_status) === 'active' ? 1 : 0,
    texting_status: String(pulse.texting_status),
  };
}

/** "45 s", "14 min", "2 h 5 min", "3 d 4 h". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) {
    const minutes = Math.floor((seconds % 3_600) / 60);
    return `${Math.floor(seconds / 3_600)} h${minutes ? ` ${minutes} min` : ''}`;
  }
  const hours = Math.floor((seconds % 86_400) / 3_600);
  return `${Math.floor(seconds / 86_400)} d${hours ? ` ${hours} h` : ''}`;
}

/** Text for the status line: one line, no `|` (it starts the performance data). */
const onLine = (text: string) => sanitize(text, { singleLine: true }).replaceAll('|', '/').slice(0, 200);

export function checkLine(
  measures: Measures,
  limits: ReturnType<typeof thresholds>,
): { state: State; line: string } {
  const values: Array<[MetricLabel, number | undefined]> = [
    ['callbacks', measures.callbacks],
    ['oldest_callback', measures.oldest_callback],
    ['waiting_replies', measures.waiting_replies],
    ['oldest_waiting', measures.oldest_waiting],
    ['pending_actions', measures.pending_actions],
    ['unreplied_reviews', measures.unreplied_reviews],
    ['texting_live', measures.texting_live],
  ];
  const stateOf = (label: MetricLabel, value: number): State => {
    const { warn, crit } = limits[label];
    if (crit && alerts(crit, value)) return 'CRITICAL';
    if (warn && alerts(warn, value)) return 'WARNING';
    return 'OK';
  };
  const states = new Map<MetricLabel, State>();
  for (const [label, value] of values) if (value !== undefined) states.set(label, stateOf(label, value));
  const worst = (labels: MetricLabel[]): State =>
    labels.map((label) => states.get(label) ?? 'OK').sort((a, b) => NAGIOS[b] - NAGIOS[a])[0] ?? 'OK';

  const parts: Array<{ state: State; text: string }> = [
    {
      state: worst(['callbacks', 'oldest_callback']),
      text:
        measures.callbacks === 0
          ? 'no callback waiting'
          : `${plural(measures.callbacks, 'callback')} waiting, oldest ${duration(measures.oldest_callback)}`,
    },
  ];
  if (measures.waiting_replies !== undefined)
    parts.push({
      state: worst(['waiting_replies', 'oldest_waiting']),
      text:
        measures.waiting_replies === 0
          ? `no reply waiting (${plural(measures.threads_read, 'thread')} read)`
          : `${plural(measures.waiting_replies, 'customer')} waiting for a reply, longest ${duration(measures.oldest_waiting ?? 0)} (${plural(measures.threads_read, 'thread')} read)`,
    });
  parts.push(
    {
      state: worst(['pending_actions']),
      text: `${plural(measures.pending_actions, 'action')} awaiting approval`,
    },
    {
      state: worst(['unreplied_reviews']),
      text: `${plural(measures.unreplied_reviews, 'unreplied review')}`,
    },
  );
  if (measures.texting_live === 0)
    parts.push({
      state: worst(['texting_live']),
      text: `texting not live (${onLine(measures.texting_status).slice(0, 30)})`,
    });
  const state = worst([...states.keys()]);
  const ordered = [...parts].sort((a, b) => NAGIOS[b.state] - NAGIOS[a.state]);
  const perfdata = values
    .filter((entry): entry is [MetricLabel, number] => entry[1] !== undefined)
    .map(([label, value]) => {
      const { warn, crit } = limits[label];
      const unit = CHECK_METRICS[label].unit;
      const max = label === 'texting_live' ? '1' : '';
      return `${label}=${value}${unit};${warn ? formatRange(warn) : ''};${crit ? formatRange(crit) : ''};0;${max}`.replace(
        /;+$/,
        '',
      );
    })
    .join(' ');
  return {
    state,
    line: `SHOP-INBOX ${state} - ${ordered.map((part) => part.text).join(', ')} | ${perfdata}`,
  };
}

function problemLine(state: State, text: string): string {
  return `SHOP-INBOX ${state} - ${onLine(text)}`;
}

/** A failed read: the key refused is CRITICAL, rate limited UNKNOWN, the API unreachable or failing as chosen. */
export function stateOfFailure(error: ApiError, unreachable: 'critical' | 'unknown'): State {
  if (error.code === 'unauthorized' || error.code === 'no_subscription') return 'CRITICAL';
  if (error.code === 'rate_limited') return 'UNKNOWN';
  return unreachable === 'critical' ? 'CRITICAL' : 'UNKNOWN';
}

export async function runCheckCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const say = (state: State, line: string) => {
    process.stdout.write(`${line}\n`);
    return NAGIOS[state];
  };
  let options: {
    limits: ReturnType<typeof thresholds>;
    threads: number;
    unreachable: 'critical' | 'unknown';
    timeoutMs: number;
    values: { 'base-url'?: string | undefined; 'key-file'?: string | undefined };
  };
  try {
    const { values, help } = parseVerbArgs(VERBS.check, args);
    if (help) {
      process.stdout.write(verbHelp(VERBS.check));
      return NAGIOS.OK;
    }
    options = {
      limits: thresholds(values.warning ?? [], values.critical ?? []),
      threads: wholeNumberOption('threads', values.threads, 10, [0, MAX_THREADS]),
      unreachable: choiceOption(
        'unreachable',
        values.unreachable,
        ['critical', 'unknown'] as const,
        'critical',
      ),
      timeoutMs: wholeNumberOption('timeout', values.timeout, 10, [1, 300]) * 1000,
      values,
    };
    cliClock(env);
  } catch (error) {
    // A monitoring system reads one line and the exit code: a wrong command line is UNKNOWN, not 2.
    return say('UNKNOWN', problemLine('UNKNOWN', error instanceof Error ? error.message : String(error)));
  }
  let problem = '';
  const settings = await settingsOrExplain(options.values, env, (message) => {
    problem = message;
  });
  if (!settings) return say('UNKNOWN', problemLine('UNKNOWN', problem.split('\n')[0] ?? problem));
  const client = createShopClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    readOnly: true,
    deadlineMs: options.timeoutMs,
    attemptTimeoutMs: Math.min(10_000, options.timeoutMs),
    userAgent: `shop-inbox/${VERSION} check`,
  });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), options.timeoutMs);
  const signal = { signal: stop.signal };
  try {
    const [me, callbacks, open] = await Promise.all([
      client.getMe(signal),
      client.getInbox({ filter: 'callbacks', limit: 100 }, signal),
      options.threads > 0 ? client.getInbox({ filter: 'open', limit: 100 }, signal) : undefined,
    ]);
    const newest = [...(open?.open_leads ?? [])]
      .sort((a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0))
      .slice(0, options.threads);
    const threads = open
      ? await Promise.all(newest.map((lead) => client.getLead(lead.id, { limit: 100 }, signal)))
      : undefined;
    const { state, line } = checkLine(measure(me, callbacks, threads, cliClock(env)()), options.limits);
    return say(state, line);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const state = stateOfFailure(error, options.unreachable);
    const why =
      error.code === 'aborted'
        ? `no answer from the shop's API within ${options.timeoutMs / 1000} s`
        : explainApiError(error);
    return say(state, problemLine(state, why));
  } finally {
    clearTimeout(timer);
  }
}
