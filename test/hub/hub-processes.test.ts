/**
 * The hub across real processes (headless inbox terminals, support/hub-terminal.ts)
 * and the real simulator: takeover after kill -9 with every confirmed text
 * delivered exactly once (counted in the simulator's world), presence, a
 * terminal of another protocol version refused and polling on its own, and
 * hostile peers on the socket.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHubDir, hubDir, hubSocketPath } from '../../src/hub/hub-paths.js';
import { PROTOCOL_VERSION } from '../../src/hub/protocol.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import {
  bundleTerminal,
  customerTexts,
  requestsOf,
  roleOf,
  shows,
  spawned,
  startTerminal,
  type Terminal,
} from './support/terminals.js';

let work = '';
let script = '';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hub-processes-'));
  script = await bundleTerminal(work);
});

afterAll(async () => {
  for (const child of spawned) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

let users = 0;
function userEnv(): NodeJS.ProcessEnv {
  users += 1;
  const home = join(work, `u${users}`);
  return { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_RUNTIME_DIR: join(home, 'run') };
}

const FAST = { visibleMs: 1_000, headerMs: 2_000, backgroundMs: 30_000, rareMs: 300_000 };

/** Stands for /tmp, where the hubs meet: removed with the rest, no stale socket is left in the real one. */
const hubRoot = () => join(work, 't');

/** A terminal meeting the others in the stand-in /tmp, or in the real one (`real`). */
function open(test: TestSim, env: NodeJS.ProcessEnv, real = false): Terminal {
  return startTerminal(
    script,
    { baseUrl: test.baseUrl, intervals: FAST, staleLockMs: 2_000, ...(real ? {} : { hubRoot: hubRoot() }) },
    test.sim.tokens.write,
    env,
  );
}

function outboundCount(test: TestSim, body: string): number {
  return [...test.sim.world.shops.values()]
    .flatMap((shop) => shop.leads.flatMap((lead) => lead.messages))
    .filter((m) => m.direction === 'outbound' && m.body === body).length;
}

function mainContact(test: TestSim): string {
  const shop = [...test.sim.world.shops.values()].find((s) => s.leads.length > 20);
  return shop?.contacts[0]?.id ?? '';
}

describe('terminals of one user, shop and key', () => {
  it('a client takes over within seconds of a kill -9 of the hub, and every confirmed text reaches the customer once', async () => {
    const test = await startSim();
    // Long enough to kill the hub while a send is in flight.
    test.sim.faults.setRates({ latencyMs: 300 });
    const env = userEnv();
    const contact = mainContact(test);
    let terminals = [open(test, env)];
    await roleOf(terminals[0] as Terminal);
    terminals.push(open(test, env), open(test, env));
    await Promise.all(terminals.map(roleOf));
    const bodies: string[] = [];
    for (let round = 1; round <= 3; round += 1) {
      const hub = terminals.find((t) => t.role() === 'hub');
      const client = terminals.find((t) => t.role() === 'client');
      if (!hub || !client) throw new Error(`roles: ${terminals.map((t) => t.role()).join(',')}`);
      const fromClient = `hub test ${round} from a client`;
      const fromHub = `hub test ${round} from the hub`;
      bodies.push(fromClient, fromHub);
      client.send({ c: 'send', contactId: contact, body: fromClient });
      hub.send({ c: 'send', contactId: contact, body: fromHub });
      await Promise.all([
        client.next((e) => e.e === 'confirmed' && e.body === fromClient, 'confirmed'),
        hub.next((e) => e.e === 'confirmed' && e.body === fromHub, 'confirmed'),
      ]);
      // Round 1: killed with both sends in flight at the hub; later rounds at other moments.
      await new Promise((resolve) => setTimeout(resolve, [50, 0, 400][round - 1]));
      const before = test.sim.requests.list().length;
      const killedAt = Date.now();
      hub.process.kill('SIGKILL');
      await hub.exited;
      const survivors = terminals.filter((t) => t !== hub);
      const newHub = await Promise.race(
        survivors.map((t) =>
          t
            .next((e) => e.e === 'sharing' && e.role === 'hub' && e.t >= killedAt, 'a new hub', 10_000)
            .then(() => t),
        ),
      );
      // The survivors poll again (through the new hub) within a few seconds.
      await until(
        () =>
          test.sim.requests
            .list()
            .slice(before)
            .some((r) => r.method === 'GET')
            ? true
            : undefined,
        5_000,
      );
      expect(Date.now() - killedAt).toBeLessThan(5_000);
      const other = survivors.find((t) => t !== newHub) as Terminal;
      await other.next(
        (e) => e.e === 'sharing' && e.role === 'client' && e.t >= killedAt,
        'client of the new hub',
      );
      terminals = [...survivors, open(test, env)];
      await roleOf(terminals[2] as Terminal);
    }
    await until(() => (bodies.every((body) => outboundCount(test, body) >= 1) ? true : undefined), 20_000);
    // Time for a second copy to arrive if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(bodies.map((body) => [body, outboundCount(test, body)])).toEqual(bodies.map((body) => [body, 1]));
    for (const t of terminals) t.process.kill('SIGKILL');
  }, 90_000);

  it('each terminal sees how many others are open and which contact another is writing to', async () => {
    const test = await startSim();
    const env = userEnv();
    const a = open(test, env);
    await roleOf(a);
    const b = open(test, env);
    const c = open(test, env);
    await Promise.all([roleOf(b), roleOf(c)]);
    for (const t of [a, b, c]) await t.next((e) => e.e === 'presence' && e.others === 2, 'two others');
    b.send({ c: 'compose', contactId: 'ct_writing' });
    await a.next(
      (e) => e.e === 'presence' && (e.composingElsewhere ?? []).includes('ct_writing'),
      'composing at the hub',
    );
    await c.next(
      (e) => e.e === 'presence' && (e.composingElsewhere ?? []).includes('ct_writing'),
      'composing at a client',
    );
    // The one writing is not told about itself.
    expect(
      b.events.some((e) => e.e === 'presence' && (e.composingElsewhere ?? []).includes('ct_writing')),
    ).toBe(false);
    b.send({ c: 'compose', contactId: null });
    await c.next(
      (e) => e.e === 'presence' && e.others === 2 && (e.composingElsewhere ?? []).length === 0 && e.t > 0,
      'done writing',
    );
    c.process.kill('SIGKILL');
    await a.next((e) => e.e === 'presence' && e.others === 1, 'one other after a close');
    for (const t of [a, b]) t.process.kill('SIGKILL');
  }, 30_000);

  it('a terminal refused by a hub of another protocol version polls on its own and says so', async () => {
    const test = await startSim();
    const env = userEnv();
    const socketPath = hubSocketPath(env, test.baseUrl, test.sim.tokens.write, hubRoot());
    await checkHubDir(hubDir(env, hubRoot()), socketPath);
    // A hub of the next version, as a later shop-inbox would run.
    const next = PROTOCOL_VERSION + 1;
    const hellos: unknown[] = [];
    const future: Server = createServer((socket) => {
      socket.once('data', (chunk) => {
        hellos.push(JSON.parse(chunk.toString('utf8').split('\n')[0] ?? 'null'));
        socket.end(
          `${JSON.stringify({ t: 'refused', v: next, reason: `this hub speaks protocol v${next}` })}\n`,
        );
      });
    });
    await new Promise<void>((resolve) => future.listen(socketPath, resolve));
    const t = open(test, env);
    const said = await t.next(
      (e) => e.e === 'sharing' && e.role === 'alone' && e.why?.includes(`v${next}`) === true,
      'refusal',
    );
    expect(said.why).toMatch(/polls the shop on its own/);
    expect(hellos).toEqual([expect.objectContaining({ t: 'hello', v: PROTOCOL_VERSION })]);
    // The key never crosses the socket.
    expect(JSON.stringify(hellos)).not.toContain(test.sim.tokens.write);
    // It reads the shop itself.
    await t.next((e) => e.e === 'inbound', 'its own inbox');
    expect(test.sim.requests.list().filter((r) => r.path.endsWith('/inbox')).length).toBeGreaterThan(0);
    t.process.kill('SIGKILL');
    future.close();
  }, 30_000);

  it('a hub drops a peer that sends garbage or a line without end, and goes on serving its terminals', async () => {
    const test = await startSim();
    const env = userEnv();
    const hub = open(test, env);
    await roleOf(hub);
    const socketPath = hubSocketPath(env, test.baseUrl, test.sim.tokens.write, hubRoot());
    const closedAfter = (payload: Buffer | string) =>
      new Promise<number>((resolve, reject) => {
        const socket = connect(socketPath);
        let received = 0;
        socket.on('data', (chunk) => {
          received += chunk.length;
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(received));
        socket.on('connect', () => {
          socket.write(payload, () => {});
        });
        setTimeout(() => reject(new Error('the hub kept the connection')), 5_000);
      });
    // Not JSON; JSON of no known message; a message before hello; a 2 MiB line with no end.
    expect(await closedAfter('garbage\u001b]52;c;aGk=\u0007\n')).toBe(0);
    expect(await closedAfter(`${JSON.stringify({ t: 'read', id: 1, slot: { kind: 'me' } })}\n`)).toBe(0);
    // An unknown call after hello (the welcome may or may not arrive first): closed all the same.
    await closedAfter(
      `${JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION })}\n${JSON.stringify({ t: 'call', id: 1, call: { op: 'rm -rf' } })}\n`,
    );
    expect(await closedAfter(Buffer.alloc(2 * 1024 * 1024, 0x61))).toBe(0);
    // The same after a proper hello (which clears the hello timer): only the 64 KiB cap can end it. The
    // welcome may or may not arrive before the hub drops the line; the connection must end either way.
    const hello = Buffer.from(`${JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION })}\n`);
    await closedAfter(Buffer.concat([hello, Buffer.alloc(2 * 1024 * 1024, 0x61)]));
    // Silence after connecting: dropped after the hello timeout.
    expect(await closedAfter('')).toBe(0);
    // A terminal of the previous version (v1, which had no beats) is refused in one line, and the hub ends it.
    const refusal = await new Promise<string>((resolve, reject) => {
      const socket = connect(socketPath);
      let said = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        said += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(said));
      socket.on('connect', () => socket.write(`${JSON.stringify({ t: 'hello', v: 1, pid: 1 })}\n`));
    });
    expect(
      refusal
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { t: 'refused', v: PROTOCOL_VERSION, reason: `this hub speaks protocol v${PROTOCOL_VERSION}` },
    ]);
    const client = open(test, env);
    await client.next((e) => e.e === 'sharing' && e.role === 'client', 'a client of the same hub');
    await client.next((e) => e.e === 'inbound', 'data through the hub');
    expect(hub.role()).toBe('hub');
    for (const t of [hub, client]) t.process.kill('SIGKILL');
  }, 30_000);

  it('a hub directory others can enter is never used: the terminal polls on its own and says why', async () => {
    const test = await startSim();
    const env = userEnv();
    // Standing for /tmp, where another user made shop-inbox-UID first, open to all.
    const hostileRoot = join(work, 'h');
    const { mkdir, chmod } = await import('node:fs/promises');
    await mkdir(hubDir(env, hostileRoot), { recursive: true });
    await chmod(hubDir(env, hostileRoot), 0o777);
    const t = startTerminal(
      script,
      { baseUrl: test.baseUrl, intervals: FAST, staleLockMs: 2_000, hubRoot: hostileRoot },
      test.sim.tokens.write,
      env,
    );
    const said = await t.next((e) => e.e === 'sharing' && e.role === 'alone', 'alone');
    expect(said.why).toMatch(/can be entered by other users/);
    await t.next((e) => e.e === 'inbound', 'its own inbox');
    t.process.kill('SIGKILL');
  }, 30_000);
});

describe('the rendezvous of a user', () => {
  it('terminals started with, without and with another XDG_RUNTIME_DIR share one hub and one poller', async () => {
    const test = await startSim();
    // One user (one uid), three sessions: XDG_RUNTIME_DIR set by one login, unset in another (su, cron, an
    // SSH session without pam_systemd), another in a third.
    const home = join(work, 'xdg');
    const base = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
    // In the real /tmp/shop-inbox-UID: the place itself is what is tested.
    const first = open(test, { ...base, XDG_RUNTIME_DIR: join(home, 'run-a') }, true);
    expect((await roleOf(first)).role).toBe('hub');
    const terminals = [
      first,
      open(test, base, true),
      open(test, { ...base, XDG_RUNTIME_DIR: join(home, 'run-b') }, true),
    ];
    for (const t of terminals.slice(1)) expect((await roleOf(t)).role).toBe('client');
    for (const t of terminals) await t.next((e) => e.e === 'presence' && e.others === 2, 'two others');
    const from = test.sim.requests.list().length;
    const body = customerTexts(test, 'for three terminals');
    for (const t of terminals) await shows(t, body);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // One poller: the hub's.
    expect(requestsOf(test, terminals[0] as Terminal, from).length).toBeGreaterThan(0);
    for (const t of terminals.slice(1)) expect(requestsOf(test, t, from)).toEqual([]);
    // The clients quit, then the hub, which removes its socket.
    const socketPath = hubSocketPath({}, test.baseUrl, test.sim.tokens.write);
    for (const t of [...terminals].reverse()) {
      t.send({ c: 'quit' });
      await t.exited;
    }
    await expect(stat(socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);
});
