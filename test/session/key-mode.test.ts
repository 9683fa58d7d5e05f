/**
 * What the key may do, learned by the session before anyone types
 * (src/session/key-mode.ts), against the simulator over a real socket: the
 * probe at start (never in the way of the first reads), the remembered answer
 * in force before the first frame and confirmed after it, answers that say
 * nothing, the mode switched in the shop while the inbox runs, a refused
 * write, a key rotation, and the terminals of one key sharing what one
 * learned.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_ID_PREFIX } from '../../src/api/key-mode-probe.js';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { keyFingerprint } from '../../src/config/key-fingerprint.js';
import { KeyModeFile } from '../../src/config/key-mode-file.js';
import { keyFilePath } from '../../src/config/paths.js';
import { createSession, type Session, type SessionOptions } from '../../src/session/create-session.js';
import { shareSession } from '../../src/session/share-session.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import type { TokenName } from '../../src/sim/world.js';
import { hostile } from '../api/hostile-client.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import { recordWire, startupLoaded } from '../support/write-flows.js';

const dirs: string[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  // A remembered answer may still be being written as the session closes.
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })));
});

async function userHome(): Promise<NodeJS.ProcessEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-key-mode-'));
  dirs.push(dir);
  return {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
}

const isProbe = (request: Pick<LoggedRequest, 'method' | 'path'>) =>
  request.method === 'POST' && request.path.startsWith(`/v1/reviews/${PROBE_ID_PREFIX}`);

const probes = async (t: TestSim) => (await t.requests()).filter(isProbe);

function session(
  t: TestSim,
  options: Partial<SessionOptions> & { token?: TokenName; env?: NodeJS.ProcessEnv } = {},
): Session {
  const { token = 'write', env, ...rest } = options;
  const created = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens[token],
    maxRpm: 120,
    visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
    backoff: { baseMs: 100, maxMs: 400 },
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    keyMode: env ? { memory: (key) => KeyModeFile.forKey(env, t.baseUrl, key, { watchMs: 20 }) } : {},
    ...rest,
  });
  sessions.push(created);
  return created;
}

describe('the key mode, asked at start', () => {
  it('a read key: read-only from the probe; the process then sends nothing else that writes', async () => {
    const t = await startSim();
    const s = session(t, { token: 'read' });
    expect(s.store.getState().keyMode).toEqual({ mode: 'unknown', why: 'not asked yet' });
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'read' ? true : undefined));
    expect(s.store.getState()).toMatchObject({
      readOnly: true,
      readOnlyReason: 'server',
      keyMode: { mode: 'read', how: 'probe' },
    });
    await expect(s.client.draftReply('rev_x')).rejects.toMatchObject({ code: 'read_only', local: true });
    const writes = (await t.requests()).filter((request) => request.method !== 'GET');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ status: 403, token: 'read' });
    expect(isProbe(writes[0] as LoggedRequest)).toBe(true);
  });

  it('a write key: write, nothing blocked', async () => {
    const t = await startSim();
    const s = session(t);
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    expect(s.store.getState()).toMatchObject({ readOnly: false, keyMode: { mode: 'write', how: 'probe' } });
    expect(s.store.getState().readOnlyReason).toBeUndefined();
    expect(await probes(t)).toHaveLength(1);
  });

  it('does not hold up the first reads: they are all on screen while the probe is still on its way', async () => {
    const t = await startSim();
    const wire = recordWire(t.sim);
    wire.hold(isProbe);
    const s = session(t, { token: 'read', intervals: { visibleMs: 60_000, headerMs: 60_000 } });
    s.start();
    await until(() => (wire.held === 1 ? true : undefined));
    await until(() => (s.store.getState().me.data && s.store.getState().inbox.open.data ? true : undefined));
    expect(s.store.getState().keyMode.mode).toBe('unknown');
    expect(s.store.getState().readOnly).toBe(false);
    wire.release();
    await until(() => (s.store.getState().keyMode.mode === 'read' ? true : undefined));
  });

  it('takes its place in the budget after the first reads: with room for only those, it waits', async () => {
    const t = await startSim();
    // Room for two requests a minute: the header and the inbox, read side by side at start. The picture's
    // reads of the threads may go past that as a burst; held off here, they would wait beside the probe.
    const s = session(t, { token: 'read', maxRpm: 2, intervals: { burstMs: 600_000 } });
    s.start();
    await until(() => (s.store.getState().me.data && s.store.getState().inbox.open.data ? true : undefined));
    expect(s.budget.waiting).toBe(1);
    expect(await probes(t)).toEqual([]);
    expect(s.store.getState().keyMode.mode).toBe('unknown');
  });

  it('a process read-only by choice never asks (nothing but GET leaves it)', async () => {
    const t = await startSim();
    const s = session(t, { readOnly: true, readOnlyReason: 'flag' });
    s.start();
    await until(() => (startupLoaded(s.store.getState()) ? true : undefined), 10_000);
    expect((await t.requests()).filter((request) => request.method !== 'GET')).toEqual([]);
    // Kept for a switch to a writable shop, but not asked while this one is shown.
    expect(s.store.getState().keyMode.mode).toBe('unknown');
  });
});

describe('the key mode, remembered per key', () => {
  it('is in force before the first frame, then confirmed (or corrected) by a fresh probe', async () => {
    const t = await startSim();
    const env = await userHome();
    // An earlier run learned that this key was read-only; since then write mode was turned on.
    await KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).remember({
      mode: 'read',
      how: 'probe',
      at: 1,
    });
    const wire = recordWire(t.sim);
    wire.hold(isProbe);
    const s = session(t, { env });
    // Before start(), before any request: the store already says read-only.
    expect(s.store.getState()).toMatchObject({
      readOnly: true,
      readOnlyReason: 'server',
      keyMode: { mode: 'read', how: 'probe', at: 1 },
    });
    s.start();
    await until(() => (wire.held === 1 ? true : undefined));
    expect(s.store.getState().readOnly).toBe(true);
    wire.release();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    expect(s.store.getState().readOnly).toBe(false);
    expect(s.store.getState().notice?.text).toMatch(/Write mode is on for this API key/);
    // Remembered for the next start.
    await until(() =>
      KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).recall()?.mode === 'write' ? true : undefined,
    );
    expect(KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).recall()).toMatchObject({ how: 'probe' });
  });

  it('an answer that says nothing leaves the remembered mode in force, and is asked again soon', async () => {
    const t = await startSim();
    const env = await userHome();
    const server = await hostile({ upstream: t.baseUrl });
    server.behave({ kind: 'html', status: 503 }, 'draftReply');
    await KeyModeFile.forKey(env, server.baseUrl, t.sim.tokens.write).remember({
      mode: 'read',
      how: 'refused',
      at: 1,
    });
    const s = createSession({
      baseUrl: server.baseUrl,
      apiKey: t.sim.tokens.write,
      visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
      keyMode: {
        memory: (key) => KeyModeFile.forKey(env, server.baseUrl, key, { watchMs: 20 }),
        retryMs: 100,
      },
    });
    sessions.push(s);
    s.start();
    const asked = () => server.requests.filter((request) => request.endpoint === 'draftReply').length;
    await until(() => (asked() >= 2 ? true : undefined));
    expect(s.store.getState()).toMatchObject({ readOnly: true, keyMode: { mode: 'read', how: 'refused' } });
    // The shop answers again: the next probe corrects it.
    server.reset();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    expect(s.store.getState().readOnly).toBe(false);
  });

  it('with nothing known, an answer that says nothing leaves the mode unknown and blocks nothing', async () => {
    const t = await startSim();
    const server = await hostile({ upstream: t.baseUrl });
    server.behave({ kind: 'html', status: 404 }, 'draftReply');
    const s = createSession({
      baseUrl: server.baseUrl,
      apiKey: t.sim.tokens.read,
      visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
      keyMode: {},
    });
    sessions.push(s);
    s.start();
    await until(() =>
      s.store.getState().keyMode.mode === 'unknown' &&
      s.store.getState().keyMode.mode === 'unknown' &&
      (s.store.getState().keyMode as { why: string }).why !== 'not asked yet'
        ? true
        : undefined,
    );
    expect(s.store.getState().keyMode).toMatchObject({
      mode: 'unknown',
      why: /HTTP 404 without its error body/,
    });
    expect(s.store.getState().readOnly).toBe(false);
  });
});

describe('the key mode, while the inbox runs', () => {
  it('an older answer written by another terminal changes nothing; a newer one is taken', async () => {
    const t = await startSim();
    const env = await userHome();
    const s = session(t, { env });
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    const file = KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write);
    await until(() => file.recall());
    const stored = (at: number) =>
      `${JSON.stringify({ version: 1, keyId: keyFingerprint(t.sim.tokens.write), mode: 'read', how: 'refused', at })}\n`;
    // A terminal that learned "read" long ago, and wrote it late.
    await writeFile(file.path, stored(1), { mode: 0o600 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.store.getState()).toMatchObject({ readOnly: false, keyMode: { mode: 'write' } });
    // One that learned it just now.
    await writeFile(file.path, stored(Date.now() + 1_000), { mode: 0o600 });
    await until(() => (s.store.getState().readOnly ? true : undefined));
    expect(s.store.getState().keyMode).toMatchObject({ mode: 'read', how: 'refused' });
  });

  it('follows the shop when the key is switched to read-only and back', async () => {
    const t = await startSim();
    const s = session(t, { keyMode: { checkEveryMs: 150 } });
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    t.sim.setTokenMode('write', 'read');
    await until(() => (s.store.getState().readOnly ? true : undefined));
    expect(s.store.getState()).toMatchObject({ readOnlyReason: 'server', keyMode: { mode: 'read' } });
    expect(s.store.getState().notice?.text).toMatch(/read-only now/);
    t.sim.setTokenMode('write', 'write');
    await until(() => (s.store.getState().readOnly ? undefined : true));
    expect(s.store.getState().notice?.text).toMatch(/Write mode is on/);
  });

  it('R asks at once', async () => {
    const t = await startSim();
    const s = session(t);
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    t.sim.setTokenMode('write', 'read');
    s.keyMode?.check();
    await until(() => (s.store.getState().keyMode.mode === 'read' ? true : undefined));
    expect(await probes(t)).toHaveLength(2);
  });

  it('a write carried out says write, before any probe could', async () => {
    const t = await startSim();
    const env = await userHome();
    const wire = recordWire(t.sim);
    wire.hold(isProbe);
    const s = session(t, { env });
    s.start();
    await until(() => (wire.held === 1 ? true : undefined));
    const contact = t.sim.shops.main.contacts[0];
    if (!contact) throw new Error('no contact');
    s.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'Sent');
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    expect(s.store.getState().keyMode).toMatchObject({ how: 'accepted' });
    await until(() =>
      KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).recall()?.how === 'accepted' ? true : undefined,
    );
    wire.release();
  });

  it('a write refused read_only is remembered', async () => {
    const t = await startSim();
    const env = await userHome();
    const s = session(t, { env });
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined));
    const contact = t.sim.shops.main.contacts[0];
    if (!contact) throw new Error('no contact');
    t.sim.setTokenMode('write', 'read');
    s.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'Refused, kept');
    await until(() => (s.store.getState().keyMode.mode === 'read' ? true : undefined));
    expect(s.store.getState()).toMatchObject({ readOnly: true, keyMode: { how: 'refused' } });
    await until(() =>
      KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).recall()?.how === 'refused' ? true : undefined,
    );
    expect(s.store.getState().composed[contact.id]?.text).toBe('Refused, kept');
  });

  it('a new key (rotation) is asked about at once, and what was known of the old one is dropped', async () => {
    const t = await startSim();
    const env = await userHome();
    await writeKeyFile(keyFilePath(env), t.sim.tokens.read);
    await writeConfig(env, { base_url: t.baseUrl });
    const s = session(t, {
      env,
      token: 'read',
      intervals: { visibleMs: 200, headerMs: 200, backgroundMs: 60_000, rareMs: 60_000 },
      keySource: { kind: 'config', env },
      keyWatch: { pollMs: 200, debounceMs: 30 },
    });
    s.start();
    await until(() => (s.store.getState().keyMode.mode === 'read' ? true : undefined));
    // The read key is rotated; the owner saves the write key in its place.
    t.sim.rotateToken('read');
    await until(() => s.store.getState().fatal);
    await writeKeyFile(keyFilePath(env), t.sim.tokens.write);
    await until(() => (s.store.getState().keyMode.mode === 'write' ? true : undefined), 10_000);
    expect(s.store.getState()).toMatchObject({ readOnly: false, fatal: undefined });
    expect((await probes(t)).map((request) => request.token)).toEqual(['read', 'write']);
  });
});

describe('the key mode, shared by the terminals of one key', () => {
  it('a terminal that reads through the hub takes a fresh answer instead of asking; what one learns, all learn', async () => {
    const t = await startSim();
    const env = await userHome();
    const terminal = async () => {
      const s = session(t, { env });
      const sharer = shareSession(s, { env, baseUrl: t.baseUrl, apiKey: t.sim.tokens.write });
      await sharer.ready;
      s.start();
      return s;
    };
    const hub = await terminal();
    await until(() => (hub.store.getState().keyMode.mode === 'write' ? true : undefined));
    await until(() => KeyModeFile.forKey(env, t.baseUrl, t.sim.tokens.write).recall());
    const a = await terminal();
    const b = await terminal();
    expect([a.store.getState().sharing?.role, b.store.getState().sharing?.role]).toEqual([
      'client',
      'client',
    ]);
    expect(a.store.getState().keyMode).toMatchObject({ mode: 'write' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await probes(t)).toHaveLength(1);

    // One terminal's write is refused: every terminal of the key goes read-only.
    t.sim.setTokenMode('write', 'read');
    const contact = t.sim.shops.main.contacts[0];
    if (!contact) throw new Error('no contact');
    b.sender.confirm({ contactId: contact.id, name: contact.name, phone: contact.phone }, 'Refused');
    for (const s of [hub, a, b]) await until(() => (s.store.getState().readOnly ? true : undefined));
    expect(hub.store.getState().keyMode).toMatchObject({ mode: 'read', how: 'refused' });
    expect(await probes(t)).toHaveLength(1);

    // The hub asks again (R): write mode is back, for everyone.
    t.sim.setTokenMode('write', 'write');
    hub.keyMode?.check();
    for (const s of [hub, a, b]) await until(() => (s.store.getState().readOnly ? undefined : true));
  });
});
