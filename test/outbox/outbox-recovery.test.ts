/**
 * A damaged outbox file (cut short, a line of garbage, an old file cut short)
 * loses nothing in silence: every intact entry is kept and this key's texts
 * are sent as usual, once each (counted at the simulator); the damaged file
 * is kept aside byte for byte, private, and the screen and the message log
 * say how many texts were recovered, how many bytes could not be read and
 * where they are kept. An outbox of the previous release is still resumed.
 */
import { mkdir, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/config/key-fingerprint.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { parseOutbox, serializeOutbox } from '../../src/outbox/outbox-format.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import type { OutgoingText } from '../../src/store/app-store.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { storedEntries } from './support/stored-entries.js';

/** When damaged files are set aside (their names end in it). */
const SET_ASIDE_AT = 1_763_726_400_000;

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
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-recovery-'));
  dirs.push(dir);
  return { XDG_STATE_HOME: dir };
}

const outboxOf = (t: TestSim, env: NodeJS.ProcessEnv) =>
  OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write, { now: () => SET_ASIDE_AT });

function session(t: TestSim, env: NodeJS.ProcessEnv): Session {
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens.write,
    outbox: (key) => OutboxFile.forKey(env, t.baseUrl, key, { now: () => SET_ASIDE_AT }),
    client: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 } },
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

/** Texts confirmed in an earlier run (one per contact with a lead), as that run's outbox held them. */
function earlierTexts(t: TestSim, bodies: string[]): OutgoingText[] {
  const shop = t.sim.shops.main;
  const contacts = shop.contacts.filter((c) => shop.leads.some((l) => l.contactId === c.id));
  return bodies.map((body, index) => {
    const contact = contacts[index];
    if (!contact) throw new Error('not enough contacts with a lead');
    return {
      localId: `earlier-${index}`,
      contactId: contact.id,
      contactName: contact.name,
      phone: contact.phone,
      body,
      idempotencyKey: `0b7c2f7e-8f3c-4c55-9d1e-3e2a1b0c9d8${index}`,
      confirmedAt: Date.now() - 60_000,
      state: 'waiting',
      attempts: 1,
    };
  });
}

const sentCount = (t: TestSim, body: string) =>
  t.sim.shops.main.leads
    .flatMap((l) => l.messages)
    .filter((m) => m.direction === 'outbound' && m.body === body).length;

/** Resumes, and waits until every text it took over is sent. */
async function resumeAndSend(s: Session) {
  await s.sender.resume();
  await until(() =>
    s.store.getState().outbox.every((text) => text.state === 'sent' || text.state === 'replayed')
      ? true
      : undefined,
  );
  await s.sender.saved();
}

describe('a damaged outbox file', () => {
  it('cut short in the middle of an entry: the entries before the cut are sent, and the damage is said', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = outboxOf(t, env);
    await outbox.save(earlierTexts(t, ['First', 'Second', 'Third']));
    const whole = await readFile(outbox.path);
    const cutAt = whole.indexOf('Third') + 2;
    await truncate(outbox.path, cutAt);
    const damaged = await readFile(outbox.path);
    const lastLine = damaged.subarray(damaged.lastIndexOf(0x0a) + 1);

    const s = session(t, env);
    await resumeAndSend(s);
    expect([sentCount(t, 'First'), sentCount(t, 'Second'), sentCount(t, 'Third')]).toEqual([1, 1, 0]);
    const keptAt = `${outbox.path}.unreadable-${SET_ASIDE_AT}`;
    const said = `The outbox file was damaged: 2 texts recovered and sent as usual; ${lastLine.byteLength} bytes that could not be read are kept in ${keptAt}. It was cut short: a text confirmed after those may be missing, so check the latest threads. Resuming 2 unconfirmed texts from an earlier session.`;
    expect(s.store.getState().log.map((notice) => notice.text)).toContain(said);
    // Kept byte for byte, private.
    expect(await readFile(keptAt)).toEqual(damaged);
    expect((await stat(keptAt)).mode & 0o777).toBe(0o600);
    // The outbox itself is whole again (and empty once the texts were sent).
    expect(parseOutbox(await readFile(outbox.path))).toEqual({ entries: [] });
  });

  it('a line of garbage: the entries on both sides of it are sent; the bytes are counted', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = outboxOf(t, env);
    await outbox.save(earlierTexts(t, ['Before', 'Lost', 'After']));
    const lines = (await readFile(outbox.path, 'utf8')).split('\n');
    lines[2] = '\u0000'.repeat(143);
    await writeFile(outbox.path, lines.join('\n'));

    const s = session(t, env);
    await resumeAndSend(s);
    expect([sentCount(t, 'Before'), sentCount(t, 'Lost'), sentCount(t, 'After')]).toEqual([1, 0, 1]);
    expect(s.store.getState().log.map((notice) => notice.text)).toContain(
      `The outbox file was damaged: 2 texts recovered and sent as usual; 144 bytes that could not be read are kept in ${outbox.path}.unreadable-${SET_ASIDE_AT}. Resuming 2 unconfirmed texts from an earlier session.`,
    );
  });

  it('found while the inbox runs: another process’s entries are kept, and the damage is said', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = outboxOf(t, env);
    const foreign = { localId: 'foreign-1', body: 'Another key’s text', keyId: '0'.repeat(32) };
    const s = session(t, env);
    await s.sender.resume();
    // The file is damaged while the inbox runs: an intact entry of another key, then a damaged line.
    const [header, entryLine] = serializeOutbox([foreign]).split('\n');
    await mkdir(dirname(outbox.path), { recursive: true, mode: 0o700 });
    await writeFile(outbox.path, `${header}\n${entryLine},\nnot an entry\n`);

    const shop = t.sim.shops.main;
    const contact = shop.contacts.find((c) => shop.leads.some((l) => l.contactId === c.id));
    if (!contact) throw new Error('no contact');
    const text = s.sender.confirm(
      { contactId: contact.id, name: contact.name, phone: contact.phone },
      'Sent while damaged',
    );
    await until(() =>
      s.store.getState().outbox.find((item) => item.localId === text.localId && item.state === 'sent'),
    );
    await s.sender.saved();
    expect(sentCount(t, 'Sent while damaged')).toBe(1);
    expect(await storedEntries(outbox.path)).toEqual([foreign]);
    expect(s.store.getState().log.map((notice) => notice.text)).toContain(
      `The outbox file was damaged: no text of this key could be recovered from it; 13 bytes that could not be read are kept in ${outbox.path}.unreadable-${SET_ASIDE_AT}. It was cut short: a text confirmed after those may be missing, so check the latest threads.`,
    );
  });
});

describe('an outbox of the previous release (version 2)', () => {
  /** Exactly as the previous release wrote it: one JSON document, indented by one space. */
  async function writeVersion2(path: string, texts: object[]) {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, `${JSON.stringify({ version: 2, texts }, null, 1)}\n`, { mode: 0o600 });
  }

  /** Entries as version 2 stored them, left by a process that is gone. */
  const version2Entries = (t: TestSim, bodies: string[]) =>
    earlierTexts(t, bodies).map(({ state: _state, ...text }) => ({
      ...text,
      keyId: keyFingerprint(t.sim.tokens.write),
      owner: { pid: 2 ** 22 + 1, host: hostname(), start: '1' },
    }));

  it('is read and its texts sent once, and the file is then written in the current format', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = outboxOf(t, env);
    await writeVersion2(outbox.path, version2Entries(t, ['Old one', 'Old two']));
    const s = session(t, env);
    await resumeAndSend(s);
    expect([sentCount(t, 'Old one'), sentCount(t, 'Old two')]).toEqual([1, 1]);
    expect(s.store.getState().log.map((notice) => notice.text)).toEqual([
      'Resuming 2 unconfirmed texts from an earlier session.',
      expect.stringMatching(/^Sent to /),
      expect.stringMatching(/^Sent to /),
    ]);
    expect((await readFile(outbox.path, 'utf8')).startsWith('{"version":3,"texts":[\n')).toBe(true);
  });

  it('cut short: the entries complete before the cut are sent', async () => {
    const t = await startSim();
    const env = await stateHome();
    const outbox = outboxOf(t, env);
    await writeVersion2(outbox.path, version2Entries(t, ['Kept old', 'Cut old']));
    const whole = await readFile(outbox.path);
    await truncate(outbox.path, whole.indexOf('Cut old'));
    const s = session(t, env);
    await resumeAndSend(s);
    expect([sentCount(t, 'Kept old'), sentCount(t, 'Cut old')]).toEqual([1, 0]);
    expect(s.store.getState().log[0]?.text).toMatch(
      /^The outbox file was damaged: 1 text recovered and sent as usual; \d+ bytes that could not be read are kept in .*\.unreadable-1763726400000\. It was cut short/,
    );
  });
});
