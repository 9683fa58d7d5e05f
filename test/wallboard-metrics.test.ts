/**
 * --metrics: the Prometheus exposition of the wallboard's figures and of the session's own requests,
 * scraped over HTTP from a session reading the simulator, parsed strictly; scrapes ask the shop nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestStats } from '../src/poller/request-stats.js';
import { wallboardReads } from '../src/poller/wallboard-reads.js';
import { createSession } from '../src/session/create-session.js';
import { labelValue, METRICS } from '../src/wallboard/metrics.js';
import { isLoopbackHost, parseMetricsAddress } from '../src/wallboard/metrics-address.js';
import { serveMetrics } from '../src/wallboard/metrics-server.js';
import { startSim } from './support/sim.js';
import { until } from './support/until.js';

const HOUR = 3_600_000;

/** Polls an async read until it gives a value. */
async function untilAsync<T>(read: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A strict reader of format 0.0.4: every line a HELP, a TYPE or a sample of a declared metric. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (help) {
      helps.add(help[1] as string);
      continue;
    }
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (gauge|counter|histogram|summary|untyped)$/.exec(line);
    if (type) {
      expect(helps.has(type[1] as string), `HELP before TYPE of ${type[1]}`).toBe(true);
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const sample =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\} (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(
        line,
      );
    expect(sample, `not a valid line: ${line}`).not.toBeNull();
    const [, name = '', labelText = '', value = ''] = sample ?? [];
    const family = name.replace(/_(bucket|sum|count)$/, '');
    expect(
      types.has(name) || types.get(family) === 'histogram',
      `sample of an undeclared metric: ${name}`,
    ).toBe(true);
    const labels: Record<string, string> = {};
    for (const match of labelText.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_m, c: string) =>
        c === 'n' ? '\n' : c,
      );
    samples.push({ name, labels, value: Number(value) });
  }
  for (const [name, type] of types) if (type === 'counter') expect(name.endsWith('_total')).toBe(true);
  return { samples, types };
}

/** Attempts per status label, from [label, count] pairs. */
function statusCounts(rows: Array<[string, number]>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [status, count] of rows) counts[status] = (counts[status] ?? 0) + count;
  return counts;
}

const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

describe('GET /metrics', () => {
  it("the wallboard's figures equal the shop's; requests counted by endpoint; scraping asks the shop nothing", async () => {
    const t = await startSim();
    const stats = new RequestStats();
    const session = createSession({
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.read,
      readOnly: true,
      view: 'wallboard',
      visibleSlots: wallboardReads,
      maxRpm: 120,
      intervals: {
        visibleMs: HOUR,
        headerMs: HOUR,
        backgroundMs: HOUR,
        rareMs: HOUR,
        burstMs: HOUR,
        pacedMs: HOUR,
      },
      requestStats: stats,
    });
    const server = await serveMetrics({ host: '127.0.0.1', port: 0 }, () => [
      { shop: 'north "main"\\1', state: session.store.getState, stats },
    ]);
    try {
      session.start();
      await until(() => {
        const state = session.store.getState();
        const read = state.me.data && state.inbox.callbacks.data && state.inbox.open.data;
        return read ? true : undefined;
      });
      // Every read of the first screen answered and counted (the next would come in an hour).
      const counted = () => stats.requests().reduce((sum, row) => sum + row.count, 0);
      const before = await untilAsync(async () => {
        const seen = (await t.requests()).length;
        if (seen !== counted()) return undefined;
        // And nothing more on its way: the same a moment later.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return (await t.requests()).length === seen && counted() === seen ? seen : undefined;
      });
      const scrapes = await Promise.all([1, 2, 3].map(() => fetch(server.url)));
      const texts = await Promise.all(scrapes.map((response) => response.text()));
      expect(scrapes[0]?.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect((await t.requests()).length).toBe(before);

      const { samples, types } = parseExposition(texts[2] ?? '');
      expect([...types.keys()].sort()).toEqual(Object.keys(METRICS).sort());
      const shop = { shop: 'north "main"\\1' };
      const me = await t.client('read').getMe();
      const callbacks = await t.client('read').getInbox({ filter: 'callbacks', limit: 100 });
      const open = await t.client('read').getInbox({ filter: 'open', limit: 100 });
      expect(sampleValue(samples, 'shop_inbox_unreplied_reviews', shop)).toBe(me.reviews_pulse.unreplied);
      expect(sampleValue(samples, 'shop_inbox_pending_actions', shop)).toBe(me.pending_actions);
      expect(sampleValue(samples, 'shop_inbox_credits_remaining', shop)).toBe(me.credits_pulse.remaining);
      expect(sampleValue(samples, 'shop_inbox_texting_live', shop)).toBe(
        me.texting_pulse.texting_status === 'active' ? 1 : 0,
      );
      expect(sampleValue(samples, 'shop_inbox_billing_active', shop)).toBe(
        me.billing_pulse.status === 'active' ? 1 : 0,
      );
      expect(sampleValue(samples, 'shop_inbox_callbacks', shop)).toBe(callbacks.open_leads.length);
      expect(sampleValue(samples, 'shop_inbox_open_leads', shop)).toBe(open.open_leads.length);
      const oldest = Math.min(...callbacks.open_leads.map((lead) => Date.parse(lead.created_at)));
      const age = sampleValue(samples, 'shop_inbox_oldest_callback_age_seconds', shop) ?? -1;
      expect(Math.abs(age - (Date.now() - oldest) / 1000)).toBeLessThan(120);

      // What the simulator saw of this session, endpoint by endpoint, is what the counters say.
      const seen = (await t.requests()).slice(0, before).filter((r) => r.path.startsWith('/v1/'));
      const totals = samples.filter((sample) => sample.name === 'shop_inbox_requests_total');
      expect(totals.reduce((sum, sample) => sum + sample.value, 0)).toBe(seen.length);
      expect(sampleValue(samples, 'shop_inbox_requests_total', { endpoint: 'GET /me', status: '200' })).toBe(
        seen.filter((r) => r.path === '/v1/me' && r.status === 200).length,
      );
      // The status label is the status the shop answered, request for request.
      expect(statusCounts(totals.map((sample) => [sample.labels.status ?? '', sample.value]))).toEqual(
        statusCounts(seen.map((r) => [String(r.status), 1])),
      );
      expect(sampleValue(samples, 'shop_inbox_rate_limited_total', shop)).toBe(0);
      const count = sampleValue(samples, 'shop_inbox_poll_latency_seconds_count', shop);
      expect(count).toBe(seen.length);
      expect(sampleValue(samples, 'shop_inbox_poll_latency_seconds_bucket', { le: '+Inf' })).toBe(count);
      expect(
        sampleValue(samples, 'shop_inbox_last_successful_read_age_seconds', shop),
      ).toBeGreaterThanOrEqual(0);

      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      session.close();
      await server.close();
    }
  });

  it("counts the session's 429s as rate limited, by endpoint and status", async () => {
    const t = await startSim({ rateLimitPerMinute: 2 });
    const stats = new RequestStats();
    const session = createSession({
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.read,
      readOnly: true,
      view: 'wallboard',
      visibleSlots: wallboardReads,
      maxRpm: 120,
      requestStats: stats,
    });
    try {
      session.start();
      await until(() => (stats.rateLimited > 0 ? true : undefined));
      const limited = (await t.requests()).filter((r) => r.status === 429).length;
      expect(stats.rateLimited).toBe(limited);
      const rows = stats.requests().filter((row) => row.status === '429');
      expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(limited);
      // Every attempt so far, 200s and 429s, under the status the simulator logged for it.
      const logged = await untilAsync(async () => {
        const requests = (await t.requests()).filter((r) => r.path.startsWith('/v1/'));
        const counted = stats.requests().reduce((sum, row) => sum + row.count, 0);
        return requests.length === counted ? requests : undefined;
      });
      expect(statusCounts(stats.requests().map((row) => [row.status, row.count]))).toEqual(
        statusCounts(logged.map((r) => [String(r.status), 1])),
      );
      expect(rows.every((row) => /^GET \/[a-z]+/.test(row.endpoint))).toBe(true);
    } finally {
      session.close();
    }
  });
});

describe('--metrics ADDR', () => {
  it('defaults to 127.0.0.1:9464 and takes loopback forms', () => {
    expect(parseMetricsAddress('9464', false)).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsAddress(':9100', false)).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(parseMetricsAddress('localhost', false)).toEqual({ host: 'localhost', port: 9464 });
    expect(parseMetricsAddress('[::1]:9200', false)).toEqual({ host: '::1', port: 9200 });
    expect(parseMetricsAddress('127.0.0.2:0', false)).toEqual({ host: '127.0.0.2', port: 0 });
  });

  it('refuses an address that is not loopback unless --metrics-public, and malformed ones', () => {
    expect(() => parseMetricsAddress('0.0.0.0:9464', false)).toThrow(
      /not a loopback address.*--metrics-public/,
    );
    expect(() => parseMetricsAddress('[::]:9464', false)).toThrow(/not a loopback address/);
    expect(() => parseMetricsAddress('wallboard.lan:9464', false)).toThrow(/not a loopback address/);
    expect(parseMetricsAddress('0.0.0.0:9464', true)).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(() => parseMetricsAddress('127.0.0.1:99999', false)).toThrow(/port must be a number/);
    expect(() => parseMetricsAddress('::1:9464', false)).toThrow(/in brackets/);
    expect(() => parseMetricsAddress('a b:1', false)).toThrow(/not a host name/);
  });

  it('loopback is exactly 127.0.0.0/8, ::1 and localhost', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isLoopbackHost(ip)).toBe(ip.startsWith('127.'));
      }),
    );
  });
});

describe('label values', () => {
  it('escape backslash, quote and newline so that any text reads back the same', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = labelValue(text);
        expect(escaped).not.toMatch(/\n/);
        expect(escaped.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c))).toBe(text);
      }),
    );
  });
});
