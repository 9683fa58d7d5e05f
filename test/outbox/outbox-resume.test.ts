/**
 * A text confirmed just before a crash: its key and body are on disk before
 * the first attempt, and the next run sends it with the same key, so the
 * customer gets it exactly once whether or not the first attempt went out.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint as keyIdOf } from '../../src/config/key-fingerprint.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import type { Fault } from '../../src/sim/faults.js';
import type { OutgoingText } from '../../src/store/app-store.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { storedEntries } from './support/stored-entries.js';

const dirs: string[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  // A text's last outbox write may still be on its way: let it land before the directory goes.
  for (const session of sessions.splice(0)) {
    session.close();
    await session.sender.saved();
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function stateHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-state-'));
  dirs.push(dir);
  return dir;
}

/** The outbox of one key of the simulator's API, in the state directory `env` names. */
const outboxOf = (t: TestSim, env: NodeJS.ProcessEnv, apiKey = t.sim.tokens.write) =>
  OutboxFile.forKey(env, t.baseUrl, apiKey);

/** Puts entries in an outbox file by hand, as another process (or key) would have left them. */
async function writeOutboxFile(path: string, texts: object[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify({ version: 2, texts }), { mode: 0o600 });
}

function session(t: TestSim, env: NodeJS.ProcessEnv, maxAttempts = 4, apiKey = t.sim.tokens.write): Session {
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey,
    outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key),
    client: { retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 5 } },
    intervals: {
      visibleMs: 60_000,
      headerMs: 60_000,
      backgroundMs: 60_000,
      rareMs: 60_000,
      burstMs: 60_000,
      pacedMs: 60_000,
    },
  });
  sessions.push(created);
  return created;
}

function contactWithLead(t: TestSim) {
  const shop = t.sim.shops.main;
  const contact = shop.contacts.find((c) => shop.leads.some((l) => l.contactId === c.id));
  if (!contact) throw new Error('no contact with a lead');
  const sentCount = (body: string) =>
    shop.leads
      .filter((l) => l.contactId === contact.id)
      .flatMap((l) => l.messages)
      .filter((m) => m.direction === 'outbound' && m.body === body).length;
  return { contact, sentCount };
}

/**
 * A first run that dies after its send failed on the wire (the fault decides
 * whether the text went out): it leaves the text waiting in the outbox file.
 */
async function crashAfterFailedSend(t: TestSim, env: NodeJS.ProcessEnv, body: string, fault: Fault) {
  const { contact } = contactWithLead(t);
  const first = session(t, env, 1);
  t.sim.faults.failNext(fault);
  const text = first.sender.confirm(
    { contactId: contact.id, name: contact.name, phone: contact.phone },
    body,
  );
  await until(() => first.store.getState().outbox.find((item) => item.state === 'waiting'));
  await first.sender.saved();
  first.close();
  return text;
}

const finished = (s: Session) => () =>
  s.store.getState().outbox.find((text) => text.state !== 'sending' && text.state !== 'waiting');

describe('the outbox on disk', () => {
  it('holds the key and body before the first attempt, in a 0600 file, and forgets the text once sent', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const outbox = outboxOf(t, env);
    const { contact, sentCount } = contactWithLead(t);
    const first = session(t, env);
    // The send hangs: what is on disk while it is in flight is what a crash would leave.
    t.sim.faults.failNext({ kind: 'hang' });
    const text = first.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'On our way',
    );
    const onDisk = await until(() => (first.store.getState().outbox[0]?.attempts ? true : undefined)).then(
      () => readFile(outbox.path, 'utf8'),
    );
    expect(await storedEntries(outbox.path)).toEqual([
      expect.objectContaining({
        idempotencyKey: text.idempotencyKey,
        body: 'On our way',
        contactId: contact.id,
      }),
    ]);
    expect((await stat(outbox.path)).mode & 0o777).toBe(0o600);
    expect(onDisk).not.toContain(t.sim.tokens.write);
    expect(outbox.path).not.toContain(t.sim.tokens.write);
    first.close();
    await t.sim.close();
    expect(sentCount('On our way')).toBe(0);
  });

  it('resumes after a crash with the same key: the text sent before the crash is not sent again', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { sentCount } = contactWithLead(t);

    // First run: the service sends the text, the answer is lost, and the process dies before retrying.
    const text = await crashAfterFailedSend(t, env, 'Tech is 10 min away', { kind: 'drop_response' });
    expect(sentCount('Tech is 10 min away')).toBe(1);

    // Second run, a new process: it finds the text and tries again with the same key.
    const second = session(t, env);
    second.start();
    const outcome = await until(finished(second));
    expect(outcome).toMatchObject({
      state: 'replayed',
      idempotencyKey: text.idempotencyKey,
      body: 'Tech is 10 min away',
    });
    expect(sentCount('Tech is 10 min away')).toBe(1);
    const posts = (await t.requests()).filter((request) => request.method === 'POST');
    expect(posts.map((post) => post.status)).toEqual([0, 200]);
    await second.sender.saved();
    expect(await storedEntries(outboxOf(t, env).path)).toEqual([]);
  });

  it('sends a text that never went out before the crash, once', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { sentCount } = contactWithLead(t);
    await crashAfterFailedSend(t, env, 'Running late, 15 min', { kind: 'reset' });
    expect(sentCount('Running late, 15 min')).toBe(0);

    const second = session(t, env);
    second.start();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Running late, 15 min')).toBe(1);
  });

  it('does not retry a text confirmed more than 23 hours ago, and says so', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const outbox = outboxOf(t, env);
    const { contact, sentCount } = contactWithLead(t);
    const old: OutgoingText = {
      localId: 'old-1',
      contactId: contact.id,
      contactName: contact.name,
      phone: contact.phone,
      body: 'Yesterday text',
      idempotencyKey: '0b7c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8e',
      confirmedAt: Date.now() - 23.5 * 60 * 60 * 1000,
      state: 'waiting',
      attempts: 1,
    };
    await outbox.save([old]);
    const s = session(t, env);
    s.start();
    const outcome = await until(finished(s));
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toMatch(/23 h/);
    expect(sentCount('Yesterday text')).toBe(0);
    expect((await t.requests()).filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('leaves the outbox alone in a read-only process, and survives a corrupt file', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const outbox = outboxOf(t, env);
    const { contact } = contactWithLead(t);
    await outbox.save([
      {
        localId: 'pending-1',
        contactId: contact.id,
        contactName: contact.name,
        phone: contact.phone,
        body: 'Pending text',
        idempotencyKey: '5d7c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8e',
        confirmedAt: Date.now(),
        state: 'waiting',
        attempts: 1,
      },
    ]);
    const readOnly = createSession({
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.write,
      readOnly: true,
      outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key),
    });
    sessions.push(readOnly);
    await readOnly.sender.resume();
    expect(readOnly.store.getState().outbox).toEqual([]);
    expect(await storedEntries(outbox.path)).toHaveLength(1);

    // A file that is not an outbox is set aside, never overwritten: whatever it holds stays readable.
    await writeFile(outbox.path, '{not json', { mode: 0o600 });
    expect(await outboxOf(t, env).load()).toEqual([]);
    const names = await readdir(dirname(outbox.path));
    const aside = names.find((name) => name.startsWith(`${basename(outbox.path)}.unreadable-`));
    expect(aside).toBeDefined();
    expect(await readFile(join(dirname(outbox.path), aside ?? ''), 'utf8')).toBe('{not json');
  });
});

describe('a text belongs to one shop and one key', () => {
  it('another shop’s key and a read key of the same API never send, drop or show it; its own key sends it once', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const text = await crashAfterFailedSend(t, env, 'Shop A only', { kind: 'reset' });
    const fileA = outboxOf(t, env).path;
    const storedA = await readFile(fileA, 'utf8');

    for (const token of ['other_shop', 'read'] as const) {
      const other = session(t, env, 4, t.sim.tokens[token]);
      await other.sender.resume();
      await other.sender.saved();
      const state = other.store.getState();
      expect(state.outbox).toEqual([]);
      // At most a neutral count: never the customer, the number or the text.
      expect(state.notice?.text).toBe(
        `1 text confirmed with another key of this API is kept in ${dirname(fileA)}, for that key only.`,
      );
      expect(JSON.stringify(state)).not.toContain(contact.name);
      expect(JSON.stringify(state)).not.toContain('Shop A only');
      other.close();
      // Shop A's file is exactly as it was: nothing taken, nothing dropped.
      expect(await readFile(fileA, 'utf8')).toBe(storedA);
    }
    const posts = (await t.requests()).filter((request) => request.method === 'POST');
    expect(posts.map((post) => post.token)).toEqual(['write']);

    const again = session(t, env);
    await again.sender.resume();
    expect(await until(finished(again))).toMatchObject({
      state: 'sent',
      idempotencyKey: text.idempotencyKey,
    });
    expect(sentCount('Shop A only')).toBe(1);
    await again.sender.saved();
    expect(await storedEntries(fileA)).toEqual([]);
  });

  it('is kept in a 0600 file of a 0700 directory whose name and content hold no key material', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    await crashAfterFailedSend(t, env, 'Private text', { kind: 'reset' });
    const key = t.sim.tokens.write;
    const { path } = outboxOf(t, env);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path))).mode & 0o777).toBe(0o700);
    // One file per API and key: the other keys of the same API get other files.
    expect(basename(path)).toMatch(/^outbox-[0-9a-f]{16}-[0-9a-f]{16}\.json$/);
    expect(outboxOf(t, env, t.sim.tokens.other_shop).path).not.toBe(path);
    expect(outboxOf(t, env, t.sim.tokens.read).path).not.toBe(path);
    const content = await readFile(path, 'utf8');
    for (let at = 0; at + 8 <= key.length; at += 1) {
      expect(basename(path)).not.toContain(key.slice(at, at + 8));
      expect(content).not.toContain(key.slice(at, at + 8));
    }
    const [entry] = await storedEntries(path);
    expect(entry).toMatchObject({
      keyId: expect.stringMatching(/^[0-9a-f]{32}$/),
      owner: { pid: process.pid },
    });
  });

  it('an entry of another key found in this key’s file is neither sent nor removed', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const file = outboxOf(t, env);
    const foreign = {
      localId: 'foreign-1',
      contactId: contact.id,
      contactName: contact.name,
      phone: contact.phone,
      body: 'Copied here by hand',
      idempotencyKey: '7e1c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8e',
      confirmedAt: Date.now(),
      attempts: 0,
      keyId: '0'.repeat(32),
    };
    await writeOutboxFile(file.path, [foreign]);
    const s = session(t, env);
    await s.sender.resume();
    s.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'Own text');
    await until(finished(s));
    await s.sender.saved();
    expect(sentCount('Copied here by hand')).toBe(0);
    expect(sentCount('Own text')).toBe(1);
    expect(s.store.getState().outbox.map((text) => text.body)).toEqual(['Own text']);
    expect(await storedEntries(file.path)).toEqual([foreign]);
  });
});

describe('texts of a process that still runs', () => {
  it('are left to it, and taken over (once) when it stops', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    // Another shop-inbox of this user, alive: a process that only waits.
    const writer = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    try {
      const file = outboxOf(t, env);
      const entry = {
        localId: 'live-1',
        contactId: contact.id,
        contactName: contact.name,
        phone: contact.phone,
        body: 'Its own text',
        idempotencyKey: '8f1c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8e',
        confirmedAt: Date.now(),
        attempts: 1,
        keyId: keyIdOf(t.sim.tokens.write),
        owner: { pid: writer.pid, host: hostname() },
      };
      await writeOutboxFile(file.path, [entry]);

      const created = createSession({
        baseUrl: t.baseUrl,
        apiKey: t.sim.tokens.write,
        outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key),
        outboxSweepMs: 50,
        intervals: {
          visibleMs: 60_000,
          headerMs: 60_000,
          backgroundMs: 60_000,
          rareMs: 60_000,
          burstMs: 60_000,
          pacedMs: 60_000,
        },
      });
      sessions.push(created);
      const notices: string[] = [];
      created.store.subscribe((state, previous) => {
        if (state.notice && state.notice !== previous.notice) notices.push(state.notice.text);
      });
      created.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(created.store.getState().outbox).toEqual([]);
      expect(sentCount('Its own text')).toBe(0);

      writer.kill('SIGKILL');
      await exited;
      expect(await until(finished(created))).toMatchObject({ state: 'sent', localId: 'live-1' });
      expect(notices).toContain('Sending 1 unconfirmed text left by a shop-inbox that stopped.');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sentCount('Its own text')).toBe(1);
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe('quitting while a text is in flight', () => {
  it('cancels the send at once and leaves the text in the outbox for the next start', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const first = session(t, env);
    t.sim.faults.failNext({ kind: 'hang' });
    first.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'Cancelled on quit',
    );
    // The send has reached the simulator, which holds it unanswered.
    await until(() => (t.sim.hangingRequests > 0 ? true : undefined));
    const closedAt = Date.now();
    first.close();
    const after = await until(() => first.store.getState().outbox.find((text) => text.state === 'waiting'));
    expect(Date.now() - closedAt).toBeLessThan(1_000);
    expect(after.reason).toMatch(/next start/);
    await first.sender.saved();
    expect(await storedEntries(outboxOf(t, env).path)).toEqual([
      expect.objectContaining({ body: 'Cancelled on quit' }),
    ]);

    const second = session(t, env);
    await second.sender.resume();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Cancelled on quit')).toBe(1);
  });
});

describe('a text refused because the key was refused', () => {
  it('stays in the refused key’s outbox (nothing was sent) and is never sent with the next key', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const oldKey = t.sim.tokens.write;
    const first = session(t, env);
    t.sim.rotateToken('write');
    first.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'Confirmed before re-login',
    );
    const waiting = await until(() =>
      first.store.getState().outbox.find((text) => text.state === 'waiting' && text.attempts > 0),
    );
    expect(waiting.reason).toMatch(/stays in this key’s outbox/);
    await first.sender.saved();
    first.close();
    const oldFile = outboxOf(t, env, oldKey).path;
    const stored = await readFile(oldFile, 'utf8');
    expect(await storedEntries(oldFile)).toEqual([
      expect.objectContaining({ body: 'Confirmed before re-login' }),
    ]);

    const second = session(t, env, 4, t.sim.tokens.write);
    await second.sender.resume();
    await second.sender.saved();
    expect(second.store.getState().outbox).toEqual([]);
    expect(second.store.getState().notice?.text).toMatch(
      /^1 text confirmed with another key of this API is kept in/,
    );
    expect(sentCount('Confirmed before re-login')).toBe(0);
    expect(await readFile(oldFile, 'utf8')).toBe(stored);
    const posts = (await t.requests()).filter((request) => request.method === 'POST');
    expect(posts.map((post) => [post.token, post.status])).toEqual([['write:rotated', 401]]);
  });
});
