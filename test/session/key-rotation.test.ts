/**
 * An unattended inbox whose key is rotated: the 401 stops it with an
 * explanation and the refused key is never used again; once a new key is
 * saved where the key came from (the saved login, or --key-file), the
 * session goes on by itself with it, against the simulator over a real
 * socket. Requests are counted per key at the simulator.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import type { KeySource } from '../../src/config/key-watch.js';
import { keyFilePath } from '../../src/config/paths.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { type Arrival, createArrivals } from '../../src/store/arrivals.js';
import { lineOf } from '../../src/store/line-editor.js';
import { targetFromLead } from '../../src/store/selectors.js';
import { storedEntries } from '../outbox/support/stored-entries.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { faultOnNextWrite, startupLoaded } from '../support/write-flows.js';

const dirs: string[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) {
    session.close();
    await session.sender.saved();
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function userHome(): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-rotation-'));
  dirs.push(dir);
  return { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') };
}

function session(t: TestSim, env: NodeJS.ProcessEnv, keySource: KeySource): Session {
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens.write,
    maxRpm: 120,
    // Reads go on every 200 ms, so the rotation is noticed at once.
    intervals: { visibleMs: 200, headerMs: 200, backgroundMs: 60_000, rareMs: 60_000 },
    backoff: { baseMs: 100, maxMs: 400 },
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key),
    keySource,
    // The poll is the fallback; the directory watch should be faster than it.
    keyWatch: { pollMs: 1_000, debounceMs: 30 },
  });
  sessions.push(created);
  return created;
}

const byToken = async (t: TestSim) => {
  const counts: Record<string, number> = {};
  for (const request of await t.requests()) {
    const token = request.token ?? 'none';
    counts[token] = (counts[token] ?? 0) + 1;
  }
  return counts;
};

describe('a rotated key, replaced by shop-inbox login while the inbox runs', () => {
  it('stops on the 401, never uses the refused key again, and resumes with the new key by itself', async () => {
    const t = await startSim();
    const env = await userHome();
    // As `shop-inbox login` leaves it.
    await writeKeyFile(keyFilePath(env), t.sim.tokens.write);
    await writeConfig(env, { base_url: t.baseUrl });
    const s = session(t, env, { kind: 'config', env });
    s.start();
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined));
    const [contact, typingTo] = t.sim.shops.main.contacts;
    if (!contact || !typingTo) throw new Error('no contacts');

    // Staff are typing a text; another text is on its way when the key is rotated (the simulator holds it).
    s.store.setState({ composed: { [typingTo.id]: lineOf('Half-typed, not sent') } });
    faultOnNextWrite(t.sim, { kind: 'hang' });
    s.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'Before rotation');
    await until(() => (t.sim.hangingRequests > 0 ? true : undefined));
    const oldKey = t.sim.tokens.write;
    const oldOutbox = OutboxFile.forKey(env, t.baseUrl, oldKey).path;
    t.sim.rotateToken('write');

    const fatal = await until(() => s.store.getState().fatal);
    expect(fatal).toMatchObject({
      kind: 'unauthorized',
      recovery: { kind: 'watching', via: 'login', where: keyFilePath(env) },
    });
    expect((await byToken(t))['write:rotated']).toBe(1);

    // The same refused key saved again (a login with the old key) resumes nothing.
    await writeKeyFile(keyFilePath(env), (await readFile(keyFilePath(env), 'utf8')).trim());
    // A new key in a file others could read is refused as at start-up, and said why.
    await writeFile(keyFilePath(env), `${t.sim.tokens.write}\n`, { mode: 0o644 });
    await chmod(keyFilePath(env), 0o644);
    const problem = await until(() => {
      const recovery = s.store.getState().fatal?.recovery;
      return recovery?.kind === 'watching' ? recovery.problem : undefined;
    });
    expect(problem).toMatch(/mode 0644/);
    expect(problem).not.toContain(t.sim.tokens.write);
    await sleep(300);
    expect(s.store.getState().fatal).toBeDefined();

    // shop-inbox login saves the new key (an atomic rename, mode 0600).
    const savedAt = Date.now();
    await writeKeyFile(keyFilePath(env), t.sim.tokens.write);
    await until(() => (s.store.getState().fatal ? undefined : true));
    // Noticed by the directory watch, well before the next poll.
    expect(Date.now() - savedAt).toBeLessThan(1_000);
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined));
    await sleep(500);

    const counts = await byToken(t);
    // Exactly one request with the old key after its rotation: the 401. Nothing since.
    expect(counts['write:rotated']).toBe(1);
    expect(counts.write).toBeGreaterThan(10);
    const state = s.store.getState();
    expect(state.connection.state).toBe('ok');
    expect(state.composed[typingTo.id]?.text).toBe('Half-typed, not sent');

    // The text confirmed with the old key stays in the old key's outbox: the new key does not send it.
    const kept = state.outbox.find((text) => text.body === 'Before rotation');
    expect(kept).toMatchObject({ state: 'failed', reason: expect.stringMatching(/key the shop refused/) });
    await s.sender.saved();
    expect(await storedEntries(oldOutbox)).toEqual([expect.objectContaining({ body: 'Before rotation' })]);
    const posts = (await t.requests()).filter((request) => request.method === 'POST');
    expect(posts.map((post) => [post.token, post.status])).toEqual([['write', 0]]);
    const newOutbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write).path;
    expect(newOutbox).not.toBe(oldOutbox);
    // A crash report redacts both keys.
    expect(s.redact(`old ${oldKey} new ${t.sim.tokens.write}`)).toBe('old [redacted] new [redacted]');

    // A text confirmed now goes out with the new key, from the new key's outbox.
    s.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'After rotation');
    await until(() =>
      s.store.getState().outbox.find((text) => text.body === 'After rotation' && text.state === 'sent'),
    );
    const delivered = t.sim.shops.main.leads
      .flatMap((lead) => lead.messages)
      .filter((message) => message.direction === 'outbound');
    expect(delivered.map((message) => message.body)).toContain('After rotation');
    expect(delivered.map((message) => message.body)).not.toContain('Before rotation');
  });

  it('with --key-file, resumes when a new key is written to that file; a second rotation is handled the same way', async () => {
    const t = await startSim();
    const env = await userHome();
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-keyfile-'));
    dirs.push(dir);
    const path = join(dir, 'shop.key');
    await writeFile(path, `${t.sim.tokens.write}\n`, { mode: 0o600 });
    const s = session(t, env, { kind: 'key-file', path });
    s.start();
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined));

    for (const round of [1, 2]) {
      t.sim.rotateToken('write');
      expect(await until(() => s.store.getState().fatal)).toMatchObject({
        recovery: { kind: 'watching', via: 'key-file', where: path },
      });
      // An editor that rewrites the file in place.
      await writeFile(path, `${t.sim.tokens.write}\n`);
      await until(() => (s.store.getState().fatal ? undefined : true));
      await until(() => (s.store.getState().me.data ? true : undefined));
      expect({ round, counts: await byToken(t) }).toMatchObject({
        round,
        counts: { 'write:rotated': round },
      });
    }
  });
});

describe('a key of another shop saved in place of a refused one', () => {
  /** The state as text, with its sets and maps spelled out. */
  const asText = (value: unknown) =>
    JSON.stringify(value, (_key, item) =>
      item instanceof Set ? [...item] : item instanceof Map ? [...item.entries()] : item,
    );

  it('keeps nothing of the first shop: no record, draft, selection, question or mark of it', async () => {
    const t = await startSim();
    const env = await userHome();
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-keyfile-'));
    dirs.push(dir);
    const path = join(dir, 'shop.key');
    await writeFile(path, `${t.sim.tokens.write}\n`, { mode: 0o600 });
    const s = session(t, env, { kind: 'key-file', path });
    const arrivals = createArrivals();
    const news: Arrival[] = [];
    s.store.subscribe((state) => news.push(...arrivals(state)));
    s.start();
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined));

    // Staff at work in the first shop: a reply drafted, a thread open, a lead selected, the composer open.
    const first = t.sim.shops.main;
    const review = first.reviews.find(
      (candidate) =>
        candidate.repliedAt === null &&
        !first.actions.some(
          (action) => action.target.type === 'review_reply' && action.target.reviewId === candidate.id,
        ),
    );
    if (!review) throw new Error('the seed has no review to draft a reply to');
    await s.draft(review.id);
    const drafted = Object.values(s.store.getState().draftedReplies)[0];
    expect(drafted).toMatchObject({ reviewId: review.id });
    const lead = s.store.getState().inbox.open.data?.open_leads[0];
    if (!lead) throw new Error('no open lead');
    s.store.setState((state) => ({
      threadFrom: { list: 'lead', leadId: lead.id },
      selection: { ...state.selection, inbox: { index: 0, id: lead.id } },
    }));
    s.poller.request({ kind: 'lead', id: lead.id });
    const detail = await until(() => s.store.getState().leads[lead.id]?.data);
    s.store.setState({
      composer: targetFromLead(detail),
      composed: { [detail.contact.id]: lineOf('Half-typed') },
    });
    const firstShop = [
      first.identity.businessName,
      first.identity.email,
      drafted?.reply ?? 'no draft',
      ...first.contacts.map((contact) => contact.id),
      ...first.leads.flatMap((item) => [item.id, ...item.messages.map((message) => message.id)]),
      ...first.reviews.map((item) => item.id),
      ...first.actions.map((action) => action.id),
    ];
    const { log: _logBefore, ...before } = s.store.getState();
    expect(firstShop.filter((trace) => asText(before).includes(trace)).length).toBeGreaterThan(50);

    // A call the other shop missed while this inbox ran: there when its key takes over, so no news then.
    const otherShop = t.sim.shops.other;
    const caller = otherShop.contacts[0];
    if (!caller) throw new Error('the other shop has no contact');
    const missed = t.sim.missedCall(caller.id, 'other');
    const missedLead = otherShop.leads.find((item) => item.id === missed);
    if (missedLead) missedLead.urgency = 'same_day';

    // The key is refused; the other shop's key is saved in its place.
    news.length = 0;
    t.sim.rotateToken('write');
    await until(() => s.store.getState().fatal);
    // A thread of the first shop asked for while its key was refused (as a read still under way would land):
    // never read with the next key, never stored beside the next shop.
    s.poller.request({ kind: 'lead', id: lead.id });
    await writeFile(path, `${t.sim.tokens.other_shop}\n`);
    const other = t.sim.shops.other.identity.businessName;
    await until(() => (s.store.getState().me.data?.identity.business_name === other ? true : undefined));
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined));
    await sleep(300);

    // The message log keeps what this terminal did (it says so, with times); nothing else of the first shop stays.
    const { log: _log, composed, ...after } = s.store.getState();
    // Each field of the state, with the traces of the first shop it still holds: the one to mend is named.
    const kept = Object.entries(after).flatMap(([field, value]) => {
      const text = asText(value) ?? '';
      const traces = firstShop.filter((trace) => text.includes(trace));
      return traces.length > 0 ? [{ field, traces }] : [];
    });
    expect(kept).toEqual([]);
    expect(after.draftedReplies).toEqual({});
    expect(after.composer).toBeUndefined();
    expect(after.threadFrom).toEqual({ list: 'inbox' });
    // What staff typed is theirs: kept, under the first shop's contact, where no other shop's contact can reach it.
    expect(composed[detail.contact.id]?.text).toBe('Half-typed');
    // The other shop's lists are a new baseline: none of their records is news.
    expect(after.inbox.callbacks.data?.open_leads.map((row) => row.id)).toContain(missed);
    expect(news).toEqual([]);
  });
});

describe('a key from SHOP_API_KEY', () => {
  it('cannot change while the process runs: the session says so and watches nothing', async () => {
    const t = await startSim();
    const env = await userHome();
    const s = session(t, env, { kind: 'env' });
    s.start();
    await until(() => (s.store.getState().me.data ? true : undefined));
    t.sim.rotateToken('write');
    expect(await until(() => s.store.getState().fatal)).toMatchObject({
      kind: 'unauthorized',
      recovery: { kind: 'env' },
    });
    await sleep(500);
    expect((await byToken(t))['write:rotated']).toBe(1);
  });
});
