/**
 * The Prometheus text exposition (format 0.0.4) of what the wallboard shows,
 * per shop, with what this process's requests came to. Computed from the
 * store and the request counts at each scrape: a scrape never asks the shop
 * anything. A figure not read yet is left out (no sample), never shown as 0.
 */
import { LATENCY_BUCKETS, type RequestStats } from '../poller/request-stats.js';
import type { AppState } from '../store/app-store.js';
import { callbackCount, openLeadCount } from '../store/counts.js';
import { oldestMissedCall } from './wallboard-data.js';

export interface MetricsSource {
  /** The shop's label: its name in config.json, or "default" for a shop given by URL. */
  shop: string;
  state(): AppState;
  stats: RequestStats;
}

type Kind = 'gauge' | 'counter' | 'histogram';

/** Every metric served, with its HELP text (docs/monitoring.md's table is made from this list). */
export const METRICS: Readonly<Record<string, { type: Kind; help: string }>> = {
  shop_inbox_open_leads: { type: 'gauge', help: 'Open leads, as the inbox counts them.' },
  shop_inbox_callbacks: { type: 'gauge', help: 'Missed calls nobody has texted back.' },
  shop_inbox_oldest_callback_age_seconds: {
    type: 'gauge',
    help: 'How long the oldest missed call with no reply has waited (0 when none waits).',
  },
  shop_inbox_unreplied_reviews: { type: 'gauge', help: 'Reviews with no reply.' },
  shop_inbox_pending_actions: { type: 'gauge', help: "The agent's actions awaiting approval." },
  shop_inbox_credits_remaining: { type: 'gauge', help: 'Texting credits left this period.' },
  shop_inbox_texting_live: { type: 'gauge', help: '1 when texting is active, else 0.' },
  shop_inbox_billing_active: { type: 'gauge', help: '1 when billing is active, else 0.' },
  shop_inbox_last_successful_read_age_seconds: {
    type: 'gauge',
    help: "Seconds since this process's last read of the shop that succeeded.",
  },
  shop_inbox_requests_total: {
    type: 'counter',
    help: 'Requests this process made to the shop, by endpoint and status (the HTTP status the shop answered: 200, 201, 429, 503…; or network, timeout).',
  },
  shop_inbox_rate_limited_total: {
    type: 'counter',
    help: 'Answers 429 (rate limited) this process received.',
  },
  shop_inbox_poll_latency_seconds: {
    type: 'histogram',
    help: "How long the shop took to answer this process's reads.",
  },
};

/** A label value as the format wants it: backslash, double quote and newline escaped. */
export function labelValue(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** A sample value: integers as such, others in full precision; never NaN or infinite (left out instead). */
function number(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
}

type Sample = { labels: Record<string, string>; value: number; suffix?: string };

function figures(source: MetricsSource, now: number): Record<string, Sample[]> {
  const state = source.state();
  const shop = { shop: source.shop };
  const me = state.me.data;
  const out: Record<string, Sample[]> = {};
  const put = (name: string, value: number | undefined, labels: Record<string, string> = shop) => {
    if (value === undefined || !Number.isFinite(value)) return;
    out[name] = [...(out[name] ?? []), { labels, value }];
  };
  put('shop_inbox_open_leads', openLeadCount(state));
  put('shop_inbox_callbacks', callbackCount(state));
  if (state.inbox.callbacks.data) {
    const oldest = oldestMissedCall(state);
    const at = oldest ? Date.parse(oldest.created_at) : Number.NaN;
    put('shop_inbox_oldest_callback_age_seconds', oldest ? Math.max(0, (now - at) / 1000) : 0);
  }
  if (me) {
    put('shop_inbox_unreplied_reviews', me.reviews_pulse.unreplied);
    put('shop_inbox_pending_actions', me.pending_actions);
    put('shop_inbox_credits_remaining', me.credits_pulse.remaining);
    put('shop_inbox_texting_live', String(me.texting_pulse.texting_status) === 'active' ? 1 : 0);
    put('shop_inbox_billing_active', String(me.billing_pulse.status) === 'active' ? 1 : 0);
  }
  const lastOk = source.stats.lastSuccessfulReadAt;
  if (lastOk !== undefined)
    put('shop_inbox_last_successful_read_age_seconds', Math.max(0, (now - lastOk) / 1000));
  for (const { endpoint, status, count } of source.stats.requests())
    put('shop_inbox_requests_total', count, { ...shop, endpoint, status });
  put('shop_inbox_rate_limited_total', source.stats.rateLimited);
  const latency = source.stats.readLatency();
  const histogram: Sample[] = LATENCY_BUCKETS.map((bound, index) => ({
    labels: { ...shop, le: String(bound) },
    value: latency.buckets[index] ?? 0,
    suffix: '_bucket',
  }));
  histogram.push(
    { labels: { ...shop, le: '+Inf' }, value: latency.count, suffix: '_bucket' },
    { labels: shop, value: latency.sum, suffix: '_sum' },
    { labels: shop, value: latency.count, suffix: '_count' },
  );
  out.shop_inbox_poll_latency_seconds = histogram;
  return out;
}

/** The whole exposition for these shops, at `now`. */
export function renderMetrics(sources: readonly MetricsSource[], now: number): string {
  const perShop = sources.map((source) => figures(source, now));
  const lines: string[] = [];
  for (const [name, { type, help }] of Object.entries(METRICS)) {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const samples of perShop)
      for (const sample of samples[name] ?? []) {
        const labels = Object.entries(sample.labels)
          .map(([key, value]) => `${key}="${labelValue(value)}"`)
          .join(',');
        lines.push(`${name}${sample.suffix ?? ''}{${labels}} ${number(sample.value)}`);
      }
  }
  return `${lines.join('\n')}\n`;
}
