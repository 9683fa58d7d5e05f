/**
 * A text confirmed just before a crash: its key and body are on disk before
 * the first attempt, and the next run sends it with the same key, so the
 * customer gets it exactly once whether or not the first attempt went out.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import type { Fault } from '../../src/sim/faults.js';
import type { OutgoingText } from '../../src/store/app-store.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';

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

function session(t: TestSim, outbox: OutboxFile, maxAttempts = 4): Session {
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens.write,
    outbox,
    client: { retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 5 } },
    intervals: { visibleMs: 60_000, headerMs: 60_000, backgroundMs: 60_000, rareMs: 60_000 },
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
  const first = session(t, OutboxFile.forShop(env, t.baseUrl), 1);
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
    const outbox = OutboxFile.forShop(env, t.baseUrl);
    const { contact, sentCount } = contactWithLead(t);
    const first = session(t, outbox);
    // The send hangs: what is on disk while it is in flight is what a crash would leave.
    t.sim.faults.failNext({ kind: 'hang' });
    const text = first.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'On our way',
    );
    const onDisk = await until(() => (first.store.getState().outbox[0]?.attempts ? true : undefined)).then(
      () => readFile(outbox.path, 'utf8'),
    );
    const stored = JSON.parse(onDisk) as { texts: OutgoingText[] };
    expect(stored.texts).toEqual([
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
    const { contact, sentCount } = contactWithLead(t);

    // First run: the service sends the text, the answer is lost, and the process dies before retrying.
    const text = await crashAfterFailedSend(t, env, 'Tech is 10 min away', { kind: 'drop_response' });
    expect(sentCount('Tech is 10 min away')).toBe(1);

    // Second run, a new process: it finds the text and tries again with the same key.
    const second = session(t, OutboxFile.forShop(env, t.baseUrl));
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
    const stored = JSON.parse(await readFile(OutboxFile.forShop(env, t.baseUrl).path, 'utf8'));
    expect(stored.texts).toEqual([]);
  });

  it('sends a text that never went out before the crash, once', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    await crashAfterFailedSend(t, env, 'Running late, 15 min', { kind: 'reset' });
    expect(sentCount('Running late, 15 min')).toBe(0);

    const second = session(t, OutboxFile.forShop(env, t.baseUrl));
    second.start();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Running late, 15 min')).toBe(1);
  });

  it('does not retry a text confirmed more than 23 hours ago, and says so', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const outbox = OutboxFile.forShop(env, t.baseUrl);
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
    const s = session(t, OutboxFile.forShop(env, t.baseUrl));
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
    const outbox = OutboxFile.forShop(env, t.baseUrl);
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
      outbox: OutboxFile.forShop(env, t.baseUrl),
    });
    sessions.push(readOnly);
    await readOnly.sender.resume();
    expect(readOnly.store.getState().outbox).toEqual([]);
    expect(JSON.parse(await readFile(outbox.path, 'utf8')).texts).toHaveLength(1);

    await writeFile(outbox.path, '{not json', { mode: 0o600 });
    expect(await OutboxFile.forShop(env, t.baseUrl).load()).toEqual([]);
  });
});

describe('the outbox across a key rotation', () => {
  it('resumes a waiting text with the new key after the old one was rotated', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    await crashAfterFailedSend(t, env, 'Key rotated text', { kind: 'reset' });

    const newKey = t.sim.rotateToken('write');
    const second = createSession({
      baseUrl: t.baseUrl,
      apiKey: newKey,
      outbox: OutboxFile.forShop(env, t.baseUrl),
      client: { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 } },
    });
    sessions.push(second);
    await second.sender.resume();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Key rotated text')).toBe(1);
  });
});

describe('quitting while a text is in flight', () => {
  it('cancels the send at once and leaves the text in the outbox for the next start', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const first = session(t, OutboxFile.forShop(env, t.baseUrl));
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
    const stored = JSON.parse(await readFile(OutboxFile.forShop(env, t.baseUrl).path, 'utf8'));
    expect(stored.texts).toEqual([expect.objectContaining({ body: 'Cancelled on quit' })]);

    const second = session(t, OutboxFile.forShop(env, t.baseUrl));
    await second.sender.resume();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Cancelled on quit')).toBe(1);
  });
});

describe('a text refused because the key was refused', () => {
  it('stays in the outbox (nothing was sent) and goes out with the next key', async () => {
    const t = await startSim();
    const env = { XDG_STATE_HOME: await stateHome() };
    const { contact, sentCount } = contactWithLead(t);
    const first = session(t, OutboxFile.forShop(env, t.baseUrl));
    t.sim.rotateToken('write');
    first.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'Sent after re-login',
    );
    const waiting = await until(() =>
      first.store.getState().outbox.find((text) => text.state === 'waiting' && text.attempts > 0),
    );
    expect(waiting.reason).toMatch(/next start/);
    await first.sender.saved();
    first.close();
    const stored = JSON.parse(await readFile(OutboxFile.forShop(env, t.baseUrl).path, 'utf8'));
    expect(stored.texts).toEqual([expect.objectContaining({ body: 'Sent after re-login' })]);

    const second = createSession({
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.write,
      outbox: OutboxFile.forShop(env, t.baseUrl),
    });
    sessions.push(second);
    await second.sender.resume();
    expect(await until(finished(second))).toMatchObject({ state: 'sent' });
    expect(sentCount('Sent after re-login')).toBe(1);
  });
});
