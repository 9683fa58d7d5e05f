/**
 * The hub's heartbeat and what rests on it, in one process over real Unix
 * sockets: a link calls a hub that stops beating silent (failing what waited
 * on it as a network failure) and says when it is heard again; a terminal
 * that was itself stuck reads what arrived meanwhile before judging; a hub
 * whose socket name another hub took over closes at its next beat without
 * removing the new socket; and a terminal that finds it was taken over asks
 * nothing of the shop itself while it joins the new hub.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { type HubLinkEvents, linkToHub } from '../../src/hub/hub-link.js';
import { checkHubDir, hubDir, hubSocketPath } from '../../src/hub/hub-paths.js';
import { HubServer } from '../../src/hub/hub-server.js';
import { PROTOCOL_VERSION } from '../../src/hub/protocol.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { shareSession } from '../../src/session/share-session.js';
import { startSim } from '../support/sim.js';
import { until } from '../support/until.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A directory standing for /tmp, removed after the test. */
async function tmpRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hub-beat-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function socketDir(): Promise<string> {
  const dir = hubDir({}, await tmpRoot());
  await checkHubDir(dir, join(dir, 'hub-test.sock'));
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether anything accepts a connection on the path. */
const listening = (path: string) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function recorder() {
  const said: string[] = [];
  const events: HubLinkEvents = {
    onRead: () => {},
    onPresence: () => {},
    onClose: () => said.push('closed'),
    onSilent: () => said.push('silent'),
    onHeard: () => said.push('heard'),
  };
  return { said, events };
}

const welcome = `${JSON.stringify({ t: 'welcome', v: PROTOCOL_VERSION, reads: [], beatMs: 50 })}\n`;
const beat = `${JSON.stringify({ t: 'beat' })}\n`;

describe('a link to its hub', () => {
  it('calls a hub that stops beating silent, fails what waited on it, and says when it is heard again', async () => {
    const socketPath = join(await socketDir(), 'hub-test.sock');
    let beating = true;
    // A hub of this version that welcomes, never answers a read, and beats every 50 ms while told to.
    const hub: Server = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        socket.write(welcome);
        const timer = setInterval(() => {
          if (beating) socket.write(beat);
        }, 50);
        socket.on('close', () => clearInterval(timer));
      });
    });
    await new Promise<void>((resolve) => hub.listen(socketPath, resolve));
    cleanups.push(() => hub.close());
    const { said, events } = recorder();
    const found = await linkToHub(socketPath, events, { silenceMs: 300 });
    if (found.kind !== 'linked') throw new Error(found.kind);
    cleanups.push(() => found.link.close());
    await sleep(500);
    expect(said).toEqual([]);
    const waiting = found.link.read({ kind: 'me' });
    beating = false;
    await expect(waiting).rejects.toMatchObject({
      code: 'network',
      message: expect.stringMatching(/not answering/),
    });
    expect(said).toEqual(['silent']);
    expect(found.link.isSilent).toBe(true);
    // Asked while it is silent: fails at once, not after the 45 s a call may take.
    await expect(found.link.read({ kind: 'me' })).rejects.toMatchObject({ code: 'network' });
    beating = true;
    await until(() => (said.length === 2 ? true : undefined));
    expect(said).toEqual(['silent', 'heard']);
    expect(found.link.isSilent).toBe(false);
  });

  it('a terminal that was itself stuck reads what its hub sent meanwhile before calling it silent', async () => {
    const socketPath = join(await socketDir(), 'hub-test.sock');
    // The hub beats from another thread, on while this one is stuck.
    const worker = new Worker(
      `const { createServer } = require('node:net');
       const { workerData, parentPort } = require('node:worker_threads');
       const server = createServer((socket) => {
         socket.on('error', () => {});
         socket.once('data', () => {
           socket.write(workerData.welcome);
           const timer = setInterval(() => socket.write(workerData.beat), 50);
           socket.on('close', () => clearInterval(timer));
         });
       });
       server.listen(workerData.socketPath, () => parentPort.postMessage('listening'));`,
      { eval: true, workerData: { socketPath, welcome, beat } },
    );
    cleanups.push(() => worker.terminate());
    await new Promise((resolve) => worker.once('message', resolve));
    const { said, events } = recorder();
    const found = await linkToHub(socketPath, events, { silenceMs: 300 });
    if (found.kind !== 'linked') throw new Error(found.kind);
    cleanups.push(() => found.link.close());
    await sleep(200);
    // Stuck for a second (a stopped process, a long synchronous write), three times the threshold.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
    await sleep(400);
    expect(said).toEqual([]);
  });
});

describe('a hub whose socket name another hub took over', () => {
  async function hubOf(session: Session, socketPath: string, onSuperseded?: () => void) {
    const hub = new HubServer({
      socketPath,
      store: session.store,
      poller: session.poller,
      reader: () => session.client,
      writer: () => session.client,
      beatMs: 50,
      ...(onSuperseded ? { onSuperseded } : {}),
    });
    await hub.listen();
    cleanups.push(() => hub.close());
    return hub;
  }

  it('closes at its next beat and says so, leaving the new hub its socket; the new one removes it when it closes', async () => {
    const test = await startSim();
    const socketPath = join(await socketDir(), 'hub-test.sock');
    const sessions = [0, 1].map(() => {
      const session = createSession({ baseUrl: test.baseUrl, apiKey: test.sim.tokens.write });
      cleanups.push(() => session.close());
      return session;
    });
    let superseded = 0;
    const old = await hubOf(sessions[0] as Session, socketPath, () => {
      superseded += 1;
    });
    expect(old.owns()).toBe(true);
    // What a terminal taking over does: its own socket renamed onto the name, in one step.
    const taking = await hubOf(sessions[1] as Session, socketPath);
    expect([old.owns(), taking.owns()]).toEqual([false, true]);
    await until(() => (superseded === 1 ? true : undefined));
    // The old hub closed without removing the name, which leads to the new hub.
    expect(await listening(socketPath)).toBe(true);
    const found = await linkToHub(socketPath, recorder().events);
    expect(found.kind).toBe('linked');
    if (found.kind === 'linked') found.link.close();
    taking.close();
    expect(existsSync(socketPath)).toBe(false);
    expect(superseded).toBe(1);
  });

  it('a terminal that was the hub finds it at its next request, and asks nothing of the shop until it joined the new hub', async () => {
    const test = await startSim();
    const root = await tmpRoot();
    const session = createSession({
      baseUrl: test.baseUrl,
      apiKey: test.sim.tokens.write,
      visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
      client: { userAgent: 'first' },
    });
    cleanups.push(() => session.close());
    const sharer = shareSession(session, {
      env: {},
      hubRoot: root,
      baseUrl: test.baseUrl,
      apiKey: test.sim.tokens.write,
      // No beat comes in the test's time: its next request is what finds the name taken.
      beatMs: 60_000,
    });
    expect(await sharer.ready).toEqual({ role: 'hub' });
    // Its poller is not started: every request of this terminal is one the test makes.
    await session.client.getMe();
    expect(test.sim.requests.list().map((r) => r.userAgent)).toEqual(['first']);
    // While it joins the new hub, a read it makes is refused before it reaches the shop.
    let refusal: Promise<unknown> | undefined;
    session.store.subscribe((state) => {
      if (state.sharing?.role === 'alone' && !refusal)
        refusal = session.client.getMe().then(
          () => 'read from the shop',
          (error: unknown) => error,
        );
    });
    const atTakeover = test.sim.requests.list().length;
    const other = createSession({ baseUrl: test.baseUrl, apiKey: test.sim.tokens.write });
    cleanups.push(() => other.close());
    const taking = await hubOf(other, hubSocketPath({}, test.baseUrl, test.sim.tokens.write, root));
    await expect(session.client.getMe()).rejects.toMatchObject({
      code: 'network',
      message: expect.stringMatching(/took over/),
    });
    await until(() => (session.store.getState().sharing?.role === 'client' ? true : undefined));
    expect(await refusal).toMatchObject({ code: 'network', message: expect.stringMatching(/took over/) });
    // Said once the election's lock is given back, a moment after the role changed (under load, more than one).
    await until(() => session.store.getState().notice?.text.match(/another took over/) ?? undefined);
    expect(taking.terminals).toBe(2);
    // Through the new hub now: what it reads, the new hub asks for.
    await session.client.getMe();
    const since = test.sim.requests.list().slice(atTakeover);
    expect(since.length).toBeGreaterThan(0);
    expect(since.filter((r) => r.userAgent === 'first')).toEqual([]);
  });

  it('a hub whose socket was removed (a /tmp cleaner) listens again, and its terminals come back to it', async () => {
    const test = await startSim();
    const root = await tmpRoot();
    const terminal = () => {
      const session = createSession({
        baseUrl: test.baseUrl,
        apiKey: test.sim.tokens.write,
        visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
      });
      const sharer = shareSession(session, {
        env: {},
        hubRoot: root,
        baseUrl: test.baseUrl,
        apiKey: test.sim.tokens.write,
        beatMs: 50,
      });
      cleanups.push(() => session.close());
      return { session, sharer };
    };
    const hub = terminal();
    expect(await hub.sharer.ready).toEqual({ role: 'hub' });
    const client = terminal();
    expect((await client.sharer.ready).role).toBe('client');
    const socketPath = hubSocketPath({}, test.baseUrl, test.sim.tokens.write, root);
    await rm(socketPath);
    await until(() => (existsSync(socketPath) ? true : undefined));
    const roles = () => [hub, client].map((t) => t.session.store.getState().sharing?.role);
    // It elects at once, the client after its connection closed and a random wait: it is the hub again
    // (were the client quicker, the client would be the hub and it its client; one hub either way).
    await until(() =>
      roles().sort().join() === 'client,hub' &&
      [hub, client].some((t) => t.session.store.getState().presence.others === 1)
        ? true
        : undefined,
    );
    expect(await listening(socketPath)).toBe(true);
    // Nobody took over from it: it does not say so.
    if (roles()[0] === 'hub')
      expect(hub.session.store.getState().notice?.text ?? '').not.toMatch(/took over/);
  });
});
