/**
 * The shapes of the simulator's answers, over raw HTTP: the `{ data }` and
 * `{ error, code }` envelopes, ISO 8601 UTC timestamps everywhere, list order,
 * and every answer parsing with the contract's own schema.
 */
import { describe, expect, it } from 'vitest';
import { type EndpointName, endpoints } from '../../src/contract/endpoints.js';
import { ErrorBody, successEnvelope } from '../../src/contract/envelopes.js';
import type { SimShop, TokenName } from '../../src/sim/world.js';
import { manualClock, startSim, type TestSim } from '../support/sim.js';

type Json = Record<string, unknown>;
type Answer = { endpoint: EndpointName; label: string; status: number; json: unknown };

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const NAMED_TIMESTAMPS = new Set([
  'created_at_google',
  'occurred_at',
  'generated_at',
  'forwarding_verified_at',
  'recorded_at',
]);
const isTimestampKey = (key: string) =>
  key.endsWith('_at') || key.endsWith('_end') || NAMED_TIMESTAMPS.has(key);
/** Timestamps the contract allows to be null (replied_at by the reference, the rest as documented assumptions). */
const CONTRACT_NULLABLE = new Set([
  'replied_at',
  'forwarding_verified_at',
  'current_period_end',
  'last_contact_at',
]);
/** Timestamps the reference itself marks nullable. */
const REFERENCE_NULLABLE = new Set(['replied_at']);

/** Every timestamp-named field in a JSON value, with its path. */
function timestamps(value: unknown, path = '$'): { path: string; key: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => timestamps(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(isTimestampKey(key) ? [{ path: `${path}.${key}`, key, value: child }] : []),
    ...timestamps(child, `${path}.${key}`),
  ]);
}

const SHOP_OF: Partial<Record<TokenName, keyof TestSim['sim']['shops']>> = {
  write: 'main',
  read: 'main',
  other_shop: 'other',
  no_number: 'noNumber',
  texting_inactive: 'textingInactive',
};

/** Every read endpoint for the token, every lead of its shop, and (write tokens) every write. */
async function everyAnswer(t: TestSim, token: TokenName): Promise<Answer[]> {
  const shopName = SHOP_OF[token];
  if (!shopName) throw new Error(`no shop for ${token}`);
  const shop: SimShop = t.sim.shops[shopName];
  const answers: Answer[] = [];
  const call = async (endpoint: EndpointName, path: string, init: RequestInit = {}) => {
    const res = await t.fetch(path, { ...init, token });
    answers.push({
      endpoint,
      label: `${token} ${init.method ?? 'GET'} ${path}`,
      status: res.status,
      json: await res.json(),
    });
  };
  await call('getMe', '/me');
  await call('getToday', '/today?limit=100');
  await call('getToday', '/today');
  await call('getBilling', '/billing');
  await call('getTexting', '/texting');
  await call('getInbox', '/inbox?limit=100');
  await call('getInbox', '/inbox?filter=callbacks&limit=100');
  await call('getContacts', '/contacts?limit=100');
  await call('getContacts', '/contacts?q=zzzz-nobody');
  for (const lead of shop.leads) await call('getLead', `/leads/${lead.id}?limit=100`);
  await call('getReviews', '/reviews?limit=100');
  await call('getActions', '/actions?limit=100');
  for (const status of ['pending_approval', 'published', 'declined', 'failed']) {
    await call('getActions', `/actions?status=${status}&limit=100`);
  }
  if (token === 'read') return answers;

  const json = { 'content-type': 'application/json' };
  const contact = shop.contacts[0];
  const review = shop.reviews[0];
  const pending = shop.actions.find((a) => a.status === 'pending_approval');
  if (contact && (token === 'write' || token === 'other_shop')) {
    const init = {
      method: 'POST',
      headers: { ...json, 'idempotency-key': 'shape-1' },
      body: '{"body":"Hello!"}',
    };
    await call('sendText', `/contacts/${contact.id}/messages`, init);
    await call('sendText', `/contacts/${contact.id}/messages`, init); // replayed
  }
  if (review) await call('draftReply', `/reviews/${review.id}/draft`, { method: 'POST' });
  if (pending) {
    const init = { method: 'POST', headers: json, body: '{"status":"approved"}' };
    await call('decideAction', `/actions/${pending.id}/decide`, init);
    await call('decideAction', `/actions/${pending.id}/decide`, init); // already published
  }
  // Reads again, now that writes added messages, actions and activity.
  await call('getToday', '/today?limit=100');
  await call('getActions', '/actions?limit=100');
  if (contact) {
    for (const lead of shop.leads.filter((l) => l.contactId === contact.id)) {
      await call('getLead', `/leads/${lead.id}?limit=100`);
    }
  }
  return answers;
}

const TOKENS: TokenName[] = ['write', 'read', 'other_shop', 'no_number', 'texting_inactive'];

async function allAnswers(): Promise<Answer[]> {
  const t = await startSim({ now: manualClock().now });
  const answers: Answer[] = [];
  for (const token of TOKENS) answers.push(...(await everyAnswer(t, token)));
  return answers;
}

function isNonIncreasing(values: number[]): boolean {
  return values.every((v, i) => i === 0 || (values[i - 1] ?? v) >= v);
}

describe('sim rules: response shapes', () => {
  it('every endpoint answers 200 with exactly { data } that parses with the contract schema', async () => {
    const answers = await allAnswers();
    const covered = new Set(answers.map((a) => a.endpoint));
    expect([...covered].sort()).toEqual(
      Object.keys(endpoints)
        .filter((name) => name !== 'getOpenApi')
        .sort(),
    );
    for (const answer of answers) {
      expect(answer.status, answer.label).toBe(200);
      expect(Object.keys(answer.json as Json), answer.label).toEqual(['data']);
      const schema = endpoints[answer.endpoint];
      if (!('data' in schema)) throw new Error(`${answer.endpoint} has no data schema`);
      const parsed = successEnvelope(schema.data).safeParse(answer.json);
      expect(parsed.success ? 'ok' : parsed.error.message, answer.label).toBe('ok');
    }
  });

  it('every timestamp in every answer is ISO 8601 UTC, or null only where the contract allows it', async () => {
    const answers = await allAnswers();
    let checked = 0;
    const nulls = new Set<string>();
    for (const answer of answers) {
      for (const found of timestamps(answer.json)) {
        checked += 1;
        const where = `${answer.label} ${found.path}`;
        if (found.value === null) {
          expect(CONTRACT_NULLABLE.has(found.key), `${where} is null`).toBe(true);
          nulls.add(found.key);
          continue;
        }
        expect(typeof found.value, where).toBe('string');
        expect(found.value as string, where).toMatch(ISO_UTC);
        expect(new Date(found.value as string).toISOString(), where).toBe(found.value);
      }
    }
    expect(checked).toBeGreaterThan(300);
    // Both forms were seen: unreplied reviews and a shop without forwarding set up.
    expect(nulls.has('replied_at')).toBe(true);
    expect(nulls.has('forwarding_verified_at')).toBe(true);
  });

  it('timestamps the reference does not mark nullable are never null (last_contact_at, current_period_end, …)', async () => {
    const answers = await allAnswers();
    const nulls = answers.flatMap((answer) =>
      timestamps(answer.json)
        .filter((found) => found.value === null && !REFERENCE_NULLABLE.has(found.key))
        .filter((found) => found.key !== 'forwarding_verified_at') // documented assumption: no forwarding yet
        .map((found) => `${answer.label} ${found.path}`),
    );
    expect(nulls).toEqual([]);
  });

  it('GET /actions, /reviews and /today lists are newest first', async () => {
    const t = await startSim();
    for (const path of [
      '/actions?limit=100',
      ...['pending_approval', 'published', 'declined', 'failed'].map((s) => `/actions?status=${s}&limit=100`),
    ]) {
      const { data } = (await (await t.fetch(path)).json()) as {
        data: { items: { generated_at: string }[] };
      };
      const times = data.items.map((a) => Date.parse(a.generated_at));
      expect(isNonIncreasing(times), path).toBe(true);
    }
    const all = (await (await t.fetch('/actions?limit=100')).json()) as { data: { items: { id: string }[] } };
    const expected = [...t.sim.shops.main.actions]
      .sort((a, b) => b.generatedAt - a.generatedAt)
      .map((a) => a.id);
    expect(all.data.items.map((a) => a.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(5);

    const reviews = (await (await t.fetch('/reviews?limit=100')).json()) as {
      data: { items: { id: string; created_at_google: string }[] };
    };
    const reviewTimes = reviews.data.items.map((r) => Date.parse(r.created_at_google));
    expect(reviewTimes.length).toBeGreaterThan(5);
    expect(isNonIncreasing(reviewTimes)).toBe(true);
    expect(new Set(reviewTimes).size).toBeGreaterThan(1);

    const today = (await (await t.fetch('/today?limit=100')).json()) as {
      data: { pending_actions: { generated_at: string }[]; activity: { created_at: string }[] };
    };
    const pending = today.data.pending_actions.map((a) => Date.parse(a.generated_at));
    const activity = today.data.activity.map((a) => Date.parse(a.created_at));
    expect(pending.length).toBeGreaterThan(1);
    expect(activity.length).toBeGreaterThan(5);
    expect(isNonIncreasing(pending)).toBe(true);
    expect(isNonIncreasing(activity)).toBe(true);
  });

  it('a newly drafted action comes first in GET /actions and GET /today', async () => {
    const clock = manualClock();
    const t = await startSim({ now: clock.now });
    const shop = t.sim.shops.main;
    const review = shop.reviews.find(
      (r) => !shop.actions.some((a) => a.target.type === 'review_reply' && a.target.reviewId === r.id),
    );
    if (!review) throw new Error('seed has no review without an action');
    clock.advance(60_000);
    expect((await t.fetch(`/reviews/${review.id}/draft`, { method: 'POST' })).status).toBe(200);
    const queued = shop.actions.find(
      (a) => a.target.type === 'review_reply' && a.target.reviewId === review.id,
    );
    const actions = (await (await t.fetch('/actions')).json()) as { data: { items: { id: string }[] } };
    expect(actions.data.items[0]?.id).toBe(queued?.id);
    const today = (await (await t.fetch('/today')).json()) as { data: { pending_actions: { id: string }[] } };
    expect(today.data.pending_actions[0]?.id).toBe(queued?.id);
  });

  it('GET /leads/{id} messages are oldest first, for every lead', async () => {
    const t = await startSim();
    let threads = 0;
    for (const lead of t.sim.shops.main.leads) {
      const { data } = (await (await t.fetch(`/leads/${lead.id}?limit=100`)).json()) as {
        data: { messages: { id: string; occurred_at: string }[] };
      };
      const times = data.messages.map((m) => Date.parse(m.occurred_at));
      expect(isNonIncreasing([...times].reverse()), lead.id).toBe(true);
      expect(data.messages.map((m) => m.id)).toEqual(
        [...lead.messages].sort((a, b) => a.occurredAt - b.occurredAt).map((m) => m.id),
      );
      if (times.length >= 2) threads += 1;
    }
    expect(threads).toBeGreaterThan(5);
  });

  it('every error answers exactly { error, code } (plus issues for invalid) that parses as the contract Error', async () => {
    const t = await startSim();
    const contact = t.sim.shops.main.contacts[0];
    const json = { 'content-type': 'application/json' };
    const cases: [string, RequestInit & { token?: TokenName | null }, number, string][] = [
      ['/me', { token: null }, 401, 'unauthorized'],
      ['/me', { token: 'no_subscription' }, 403, 'no_subscription'],
      [
        `/contacts/${contact?.id}/messages`,
        { token: 'read', method: 'POST', headers: json, body: '{"body":"x"}' },
        403,
        'read_only',
      ],
      ['/leads/lead_0000000000', {}, 404, 'not_found'],
      ['/reviews?limit=0', {}, 422, 'invalid'],
      [
        `/contacts/${t.sim.shops.noNumber.contacts[0]?.id}/messages`,
        { token: 'no_number', method: 'POST', headers: json, body: '{"body":"x"}' },
        422,
        'no_number',
      ],
      [
        `/contacts/${t.sim.shops.textingInactive.contacts[0]?.id}/messages`,
        { token: 'texting_inactive', method: 'POST', headers: json, body: '{"body":"x"}' },
        422,
        'texting_inactive',
      ],
    ];
    for (const [path, init, status, code] of cases) {
      const res = await t.fetch(path, init);
      expect(res.status, path).toBe(status);
      const body = (await res.json()) as Json;
      expect(ErrorBody.safeParse(body).success, path).toBe(true);
      expect(Object.keys(body).sort(), path).toEqual(
        code === 'invalid' ? ['code', 'error', 'issues'] : ['code', 'error'],
      );
      expect(body.code).toBe(code);
      expect((body.error as string).length).toBeGreaterThan(0);
    }
  });
});
