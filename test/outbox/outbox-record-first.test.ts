/**
 * A confirmed text always has its record first: when the outbox cannot be
 * written (a directory in its place, a full or read-only disk, a disk error,
 * another process holding its lock), nothing is sent, the text goes back into
 * its contact's composer, and staff are told why in plain words, on the status
 * line and in the message log. Real sessions against the simulator, counted
 * there; the outbox's file calls are node's, failing where a test says so.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxFile, type OutboxFileOptions } from '../../src/outbox/outbox-file.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import type { AppState, ComposerTarget } from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { type DiskStep, faultyDisk } from './support/disk-faults.js';
import { storedEntries } from './support/stored-entries.js';

const dirs: string[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) {
    session.close();
    await session.sender.saved();
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function stateHome(): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-record-'));
  dirs.push(dir);
  return { XDG_STATE_HOME: dir };
}

function session(t: TestSim, env: NodeJS.ProcessEnv, options: OutboxFileOptions = {}): Session {
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens.write,
    outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key, options),
    client: { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 } },
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

function targetOf(t: TestSim, index = 0): ComposerTarget & { sentCount: (body: string) => number } {
  const shop = t.sim.shops.main;
  const contact = shop.contacts.filter((c) => shop.leads.some((l) => l.contactId === c.id))[index];
  if (!contact) throw new Error('no contact with a lead');
  return {
    contactId: contact.id,
    name: contact.name,
    phone: contact.phone,
    sentCount: (body) =>
      shop.leads
        .filter((l) => l.contactId === contact.id)
        .flatMap((l) => l.messages)
        .filter((m) => m.direction === 'outbound' && m.body === body).length,
  };
}

const posts = async (t: TestSim) => (await t.requests()).filter((request) => request.method === 'POST');

/** The text once its record was written or given up on. */
const settled = (s: Session, localId: string) => () =>
  s.store.getState().outbox.find((text) => text.localId === localId && text.state !== 'sending');

function expectNotSent(state: AppState, localId: string, contactId: string, body: string, why: RegExp) {
  const text = state.outbox.find((item) => item.localId === localId);
  expect(text?.state).toBe('failed');
  expect(text?.reason).toMatch(why);
  expect(state.composed[contactId]?.text).toBe(body);
  expect(state.notice?.tone).toBe('error');
  expect(state.notice?.text).toMatch(why);
  // In the message log too, whole.
  expect(state.log.at(-1)).toEqual(state.notice);
}

describe('the outbox cannot be written: nothing is sent, the text goes back to its composer', () => {
  it('a directory in the outbox’s place', async () => {
    const t = await startSim();
    const env = await stateHome();
    const s = session(t, env);
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    await mkdir(outbox.path, { recursive: true });
    const target = targetOf(t);
    const text = s.sender.confirm(target, 'On our way');
    await until(settled(s, text.localId));
    expectNotSent(
      s.store.getState(),
      text.localId,
      target.contactId,
      'On our way',
      new RegExp(`${outbox.path.replaceAll('.', '\\.')} is a directory, not a file`),
    );
    expect(s.store.getState().notice?.text).toBe(
      `Not sent to ${target.name} (${target.phone}): a text is sent only once it is saved in the outbox, and ${outbox.path} is a directory, not a file. The text is back in the composer.`,
    );
    expect(s.store.getState().composer).toEqual(target);
    await s.sender.saved();
    expect(await posts(t)).toEqual([]);
    expect(target.sentCount('On our way')).toBe(0);
  });

  it('a file in the state directory’s place', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    await writeFile(dirname(outbox.path), 'not a directory');
    const s = session(t, env);
    const target = targetOf(t);
    const text = s.sender.confirm(target, 'See you at 3');
    await until(settled(s, text.localId));
    expectNotSent(
      s.store.getState(),
      text.localId,
      target.contactId,
      'See you at 3',
      new RegExp(`${dirname(outbox.path).replaceAll('.', '\\.')} is a file, not a directory`),
    );
    expect(await posts(t)).toEqual([]);
  });

  const faults: Array<{ code: string; step: DiskStep; words: (dir: string, path: string) => string }> = [
    { code: 'ENOSPC', step: 'write', words: (dir) => `the disk holding ${dir} is full` },
    { code: 'ENOSPC', step: 'sync', words: (dir) => `the disk holding ${dir} is full` },
    {
      code: 'EDQUOT',
      step: 'write',
      words: (dir) => `your disk quota on the disk holding ${dir} is used up`,
    },
    { code: 'EROFS', step: 'create', words: (dir) => `${dir} is read-only` },
    { code: 'EACCES', step: 'create', words: (dir) => `${dir} or the outbox in it cannot be written by you` },
    { code: 'EPERM', step: 'rename', words: (dir) => `${dir} or the outbox in it cannot be written by you` },
    { code: 'EIO', step: 'sync', words: (dir) => `the disk holding ${dir} reported an input/output error` },
    {
      code: 'EIO',
      step: 'open-dir',
      words: (dir) => `the disk holding ${dir} reported an input/output error`,
    },
    { code: 'EIO', step: 'read', words: (dir) => `the disk holding ${dir} reported an input/output error` },
  ];
  it.each(faults)('$code at $step: said in plain words', async ({ code, step, words }) => {
    const t = await startSim();
    const env = await stateHome();
    const disk = faultyDisk();
    const s = session(t, env, { fs: disk.fs });
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    disk.fail(step, code);
    const target = targetOf(t);
    const text = s.sender.confirm(target, `Text under ${code}`);
    await until(settled(s, text.localId));
    const said = words(dirname(outbox.path), outbox.path);
    expectNotSent(
      s.store.getState(),
      text.localId,
      target.contactId,
      `Text under ${code}`,
      new RegExp(said.replaceAll('.', '\\.')),
    );
    await s.sender.saved();
    expect(await posts(t)).toEqual([]);
    // Nothing half-written is left behind, and no record of a text staff were told is not sent.
    expect(
      (await readdir(dirname(outbox.path)).catch(() => [])).filter((name) => name.endsWith('.tmp')),
    ).toEqual([]);
    // No record of a text staff were told is not sent (after a rename whose directory sync failed, the
    // entry is taken out again).
    expect((await storedEntries(outbox.path)).map((entry) => entry.localId)).not.toContain(text.localId);

    // Room again: the same text, confirmed again, is sent once.
    disk.heal();
    const again = s.sender.confirm(target, `Text under ${code}`);
    expect(await until(settled(s, again.localId))).toMatchObject({ state: 'sent' });
    expect(target.sentCount(`Text under ${code}`)).toBe(1);
  });

  it('another shop-inbox keeps the lock: said, and nothing sent', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    await mkdir(dirname(outbox.path), { recursive: true, mode: 0o700 });
    // A live holder refreshes its lock: it never goes stale.
    const release = await lockfile.lock(outbox.path, { realpath: false, stale: 2_000, update: 500 });
    try {
      const s = session(t, env, { staleLockMs: 2_000 });
      const target = targetOf(t);
      const text = s.sender.confirm(target, 'Held up');
      await until(settled(s, text.localId), 15_000);
      expectNotSent(
        s.store.getState(),
        text.localId,
        target.contactId,
        'Held up',
        /another shop-inbox of yours has kept the outbox .* locked for over \d+ s/,
      );
      expect(await posts(t)).toEqual([]);
    } finally {
      await release();
    }
  }, 20_000);

  it('what was typed for the contact meanwhile stays, after the text put back', async () => {
    const t = await startSim();
    const env = await stateHome();
    const disk = faultyDisk();
    const s = session(t, env, { fs: disk.fs });
    const target = targetOf(t);
    disk.fail('write', 'ENOSPC', 1);
    const held = disk.hold('create');
    const text = s.sender.confirm(target, 'First thought');
    await held.reached;
    // Staff opened the composer to the same contact again and typed, the cursor inside the word.
    s.store.setState({
      composer: target,
      composed: { [target.contactId]: { text: 'PS: gate code 1234', cursor: 4 } },
    });
    held.release();
    await until(settled(s, text.localId));
    const state = s.store.getState();
    expect(state.composed[target.contactId]).toEqual({
      text: 'First thought\nPS: gate code 1234',
      cursor: 'First thought\n'.length + 4,
    });
    expect(state.composer).toEqual(target);
    expect(state.notice?.text).toMatch(/The text is back in the composer\.$/);
    expect(await posts(t)).toEqual([]);
  });

  it('while something else has the keyboard, the composer is not opened and the notice says how', async () => {
    const t = await startSim();
    const env = await stateHome();
    const disk = faultyDisk();
    const s = session(t, env, { fs: disk.fs });
    const target = targetOf(t);
    disk.fail('write', 'ENOSPC', 1);
    const held = disk.hold('create');
    const text = s.sender.confirm(target, 'Hello');
    await held.reached;
    s.store.setState({ helpOpen: true });
    held.release();
    await until(settled(s, text.localId));
    const state = s.store.getState();
    expect(state.composer).toBeUndefined();
    expect(state.composed[target.contactId]).toEqual(lineOf('Hello'));
    expect(
      state.notice?.text.endsWith(
        `The text is kept in the composer for ${target.name} (${target.phone}): c on them opens it.`,
      ),
    ).toBe(true);
  });

  it('a text whose record failed is never put on disk by another write', async () => {
    const t = await startSim();
    const env = await stateHome();
    const disk = faultyDisk();
    const s = session(t, env, { fs: disk.fs });
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    const [x, y, a] = [targetOf(t, 0), targetOf(t, 1), targetOf(t, 2)];
    // X's record write is held; Y's waits behind it, then A's, which finds the disk full.
    const held = disk.hold('create');
    disk.fail('write', 'ENOSPC', 1, 2);
    // The sends are held at the simulator: what is on disk then is what a crash would leave.
    let letGo: () => void = () => {};
    const sendsHeld = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    t.sim.faults.failNext({ kind: 'hold', until: sendsHeld }, 2);
    s.sender.confirm(x, 'X text');
    await held.reached;
    s.sender.confirm(y, 'Y text');
    const lost = s.sender.confirm(a, 'A text');
    held.release();
    await until(settled(s, lost.localId));
    expect(s.store.getState().outbox.find((text) => text.localId === lost.localId)?.state).toBe('failed');
    expect((await storedEntries(outbox.path)).map((entry) => entry.body).sort()).toEqual([
      'X text',
      'Y text',
    ]);
    letGo();
    await until(() => (x.sentCount('X text') + y.sentCount('Y text') === 2 ? true : undefined));
    await s.sender.saved();
    expect(a.sentCount('A text')).toBe(0);
    expect(await storedEntries(outbox.path)).toEqual([]);
  });
});

describe('a record that was written', () => {
  it('is synced, renamed into place and its directory synced before the first attempt', async () => {
    const t = await startSim();
    const env = await stateHome();
    const disk = faultyDisk();
    const s = session(t, env, { fs: disk.fs });
    const outbox = OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    const target = targetOf(t);
    // Held right after the directory was synced: no request may have gone out by then.
    const held = disk.hold('open-dir');
    const text = s.sender.confirm(target, 'Durable first');
    await held.reached;
    const writeSteps = disk.steps.filter((step) =>
      ['create', 'write', 'sync', 'rename', 'open-dir'].includes(step.step),
    );
    expect(writeSteps.map((step) => step.step)).toEqual(['create', 'write', 'sync', 'rename', 'open-dir']);
    expect(writeSteps[3]?.path).toBe(outbox.path);
    expect(writeSteps[4]?.path).toBe(dirname(outbox.path));
    expect((await storedEntries(outbox.path)).map((entry) => entry.localId)).toEqual([text.localId]);
    expect(await posts(t)).toEqual([]);
    held.release();
    expect(await until(settled(s, text.localId))).toMatchObject({ state: 'sent' });
    expect(target.sentCount('Durable first')).toBe(1);
  });
});
