/**
 * Plain http to loopback only reaches a service of this user's (or root's):
 * on a shared box, another user can listen on a loopback port the moment the
 * shop's local service leaves it. The real client, over real sockets, against
 * a listener run by another uid (a child process as nobody) and against the
 * simulator run by this one.
 */
import { mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShopClient, type ShopClientOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { checkLoopbackService, trustLoopbackFromEnv } from '../../src/api/loopback-guard.js';
import { createSimulator } from '../../src/sim/simulator.js';
import { type ForeignListener, OTHER_UID, startForeignListener } from '../support/foreign-listener.js';
import { startSim } from '../support/sim.js';

const KEY = 'shk_live_do_not_leak_4f9a2c';
const asRoot = process.geteuid?.() === 0;

const strangers: ForeignListener[] = [];
afterEach(async () => {
  await Promise.all(strangers.splice(0).map((stranger) => stranger.stop()));
});

async function stranger(host: string, port?: number): Promise<ForeignListener> {
  const listener = await startForeignListener({ host, ...(port ? { port } : {}) });
  strangers.push(listener);
  return listener;
}

/** A client whose attempts end soon: if a request were ever written to a silent listener, the test would see it. */
function clientFor(baseUrl: string, options: Partial<ShopClientOptions> = {}) {
  return createShopClient({
    baseUrl,
    apiKey: KEY,
    attemptTimeoutMs: 1_500,
    deadlineMs: 4_000,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => expect.fail('the call went through'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe.skipIf(!asRoot)('a loopback port held by another user', () => {
  it('gets no byte, the key least of all: the call fails at once, not retried, saying whose it is', async () => {
    const other = await stranger('127.0.0.1');
    const error = await refusal(clientFor(`http://127.0.0.1:${other.port}/v1`).getMe());
    expect(error).toMatchObject({ code: 'untrusted_service', status: 0, local: true, attempts: 1 });
    expect(error.message).toBe(
      `the service on 127.0.0.1:${other.port} belongs to user ${OTHER_UID}, not you: the key was not sent. Check that your own service runs there, or use https`,
    );
    expect(error.transient).toBe(false);
    await other.closedConnections(1);
    expect(other.connections).toBe(1);
    expect(other.received).toBe('');
  });

  it('a text is not sent there, and not retried with its Idempotency-Key', async () => {
    const other = await stranger('127.0.0.1');
    const error = await refusal(
      clientFor(`http://127.0.0.1:${other.port}/v1`).sendText('ct_1', 'Your quote is ready', {
        idempotencyKey: '6f1c9d6e-2b1d-4c3e-9a55-0d5f3f0a4b21',
      }),
    );
    expect(error.code).toBe('untrusted_service');
    await other.closedConnections(1);
    expect(other.connections).toBe(1);
    expect(other.received).toBe('');
  });

  it('on ::1 too', async () => {
    const other = await stranger('::1');
    const error = await refusal(clientFor(`http://[::1]:${other.port}/v1`).getMe());
    expect(error.message).toMatch(
      new RegExp(`^the service on \\[::1\\]:${other.port} belongs to user ${OTHER_UID}`),
    );
    await other.closedConnections(1);
    expect(other.received).toBe('');
  });

  it('when it listens on [::] and takes IPv4 clients as IPv4-mapped addresses', async () => {
    const other = await stranger('::');
    const error = await refusal(clientFor(`http://127.0.0.1:${other.port}/v1`).getMe());
    expect(error.message).toMatch(new RegExp(`belongs to user ${OTHER_UID}, not you: the key was not sent`));
    await other.closedConnections(1);
    expect(other.received).toBe('');
  });

  it('and by name: localhost, whichever of ::1 and 127.0.0.1 it resolves to', async () => {
    const other = await stranger('::');
    const error = await refusal(clientFor(`http://localhost:${other.port}/v1`).getMe());
    expect(error.code).toBe('untrusted_service');
    await other.closedConnections(1);
    expect(other.received).toBe('');
  });

  it('the service the inbox was using stops, a stranger takes its port: the next call sends them nothing', async () => {
    const sim = createSimulator();
    const { baseUrl } = await sim.listen({ host: '127.0.0.1', port: 0 });
    const client = clientFor(baseUrl, { apiKey: sim.tokens.read });
    expect((await client.getMe()).identity.business_name).toBeTruthy();
    await sim.close();
    const port = Number(new URL(baseUrl).port);
    const other = await stranger('127.0.0.1', port);
    const error = await refusal(client.getMe());
    expect(error.code).toBe('untrusted_service');
    await other.closedConnections(1);
    expect(other.received).toBe('');
    expect(other.received).not.toContain(sim.tokens.read);
  });
});

describe('a loopback service of this user', () => {
  it('is used, on 127.0.0.1 and on ::1', async () => {
    const s = await startSim();
    expect((await s.client('read').getMe()).identity.business_name).toBeTruthy();
    const sim6 = createSimulator();
    const { baseUrl } = await sim6.listen({ host: '::1', port: 0 });
    try {
      expect(baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/v1$/);
      const client = createShopClient({ baseUrl, apiKey: sim6.tokens.read });
      expect((await client.getMe()).identity.business_name).toBeTruthy();
    } finally {
      await sim6.close();
    }
  });

  it.skipIf(!asRoot)(
    "is told apart from root's: root's services are trusted, as ssh trusts root's files",
    async () => {
      // This process is root: as seen by a user 4242, the simulator here is root's.
      const s = await startSim();
      expect((await s.client('read', { loopbackGuard: { uid: 4242 } }).getMe()).identity).toBeTruthy();
    },
  );
});

describe('where the socket tables cannot be read', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-inbox-tables-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const noTables = () => ({ tables: { tcp: join(dir, 'no-tcp'), tcp6: join(dir, 'no-tcp6') } });

  it('refuses plain http, saying how to go on, and sends nothing', async () => {
    const s = await startSim();
    const error = await refusal(s.client('read', { loopbackGuard: { socketTables: noTables() } }).getMe());
    expect(error.code).toBe('untrusted_service');
    expect(error.message).toBe(
      `cannot tell which user runs the service on 127.0.0.1:${new URL(s.baseUrl).port} (this system has no /proc/net/tcp), so the key is not sent over plain http: use https, or set SHOP_INBOX_TRUST_LOOPBACK=1 if no other user can run programs on this machine`,
    );
    expect(await s.requests()).toEqual([]);
  });

  it('goes on when the user says no other user runs programs here (SHOP_INBOX_TRUST_LOOPBACK=1)', async () => {
    const s = await startSim();
    const client = s.client('read', { loopbackGuard: { socketTables: noTables(), trustWhenUnknown: true } });
    expect((await client.getMe()).identity).toBeTruthy();
    expect(trustLoopbackFromEnv({ SHOP_INBOX_TRUST_LOOPBACK: '1' })).toBe(true);
    expect(trustLoopbackFromEnv({ SHOP_INBOX_TRUST_LOOPBACK: 'yes' })).toBe(false);
    expect(trustLoopbackFromEnv({})).toBe(false);
  });

  it('a table too long to read to its end counts as unknown, not as trusted', async () => {
    const s = await startSim();
    const tcp = join(dir, 'tcp');
    await writeFile(
      tcp,
      `${'   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1\n'.repeat(2000)}`,
    );
    const client = s.client('read', {
      loopbackGuard: { socketTables: { tables: { tcp, tcp6: join(dir, 'no-tcp6') }, maxBytes: 64 * 1024 } },
    });
    expect((await refusal(client.getMe())).message).toMatch(/is too long to read\), so the key is not sent/);
    expect(await s.requests()).toEqual([]);
  });
});

describe('a connection is checked once, when it is made', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-inbox-tables-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a kept-alive connection is not checked again; a new one is', async () => {
    // The guard reads the tables through links this test can point elsewhere.
    const tables = { tcp: join(dir, 'tcp'), tcp6: join(dir, 'tcp6') };
    await symlink('/proc/net/tcp', tables.tcp);
    await symlink('/proc/net/tcp6', tables.tcp6);
    const s = await startSim();
    const client = s.client('read', { loopbackGuard: { socketTables: { tables } } });
    await client.getMe();
    // From now on no connection can be found in the tables: a new check would refuse.
    for (const path of Object.values(tables)) {
      await unlink(path);
      await writeFile(path, '');
    }
    await client.getToday();
    await client.getBilling();
    expect((await s.requests()).map((request) => request.path)).toEqual([
      '/v1/me',
      '/v1/today',
      '/v1/billing',
    ]);
    // The shop restarts on its port (closing its connections): the next call connects again, and is checked.
    const port = Number(new URL(s.baseUrl).port);
    await s.sim.close();
    const restarted = createSimulator();
    await restarted.listen({ host: '127.0.0.1', port });
    try {
      const error = await refusal(client.getMe());
      expect(error.message).toBe(
        `cannot tell which user runs the service on 127.0.0.1:${port} (the connection is not listed in /proc/net/tcp): the key was not sent`,
      );
    } finally {
      await restarted.close();
    }
  });
});

describe('checkLoopbackService', () => {
  it('refuses a connection whose other end is not on this machine (localhost pointed elsewhere)', async () => {
    const socket = {
      remoteAddress: '10.20.30.40',
      remotePort: 8080,
      localAddress: '10.20.30.1',
      localPort: 51000,
    } as Socket;
    await expect(checkLoopbackService(socket)).rejects.toThrow(
      'plain http reached 10.20.30.40:8080, which is not this machine: the key was not sent. Use https',
    );
  });
});
