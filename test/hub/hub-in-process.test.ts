/**
 * The hub and its clients in one test process, over the real Unix socket
 * and the real simulator: election, reads handed out, a client's read asked
 * of the hub, a client's write made through the hub's budget, presence, and
 * a new hub when the first one closes.
 */

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadDetail } from '../../src/contract/resources.js';
import { hubDir, hubListenPath, hubSocketPath } from '../../src/hub/hub-paths.js';
import { PROTOCOL_VERSION } from '../../src/hub/protocol.js';
import { readTimeOf, slotKey } from '../../src/poller/reads.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { type ShareOptions, type Sharer, shareSession } from '../../src/session/share-session.js';
import { threadsToRead } from '../../src/store/conversation-picture.js';
import { INBOUND_SHOWN, previewSender } from '../../src/store/inbound-match.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';

const open: Array<{ session: Session; sharer: Sharer }> = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const { session } of open.splice(0)) session.close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Place {
  env: NodeJS.ProcessEnv;
  /** Stands for /tmp, so that each test's hubs are apart from every other's; none: the real place. */
  hubRoot?: string;
}

/** A user's environment, and a directory standing for /tmp unless `real`. */
async function runtimeDir(real = false): Promise<Place> {
  const dir = await mkdtemp(join(tmpdir(), 'hub-'));
  dirs.push(dir);
  const env = { XDG_RUNTIME_DIR: join(dir, 'run'), XDG_STATE_HOME: join(dir, 'state'), HOME: dir };
  return real ? { env } : { env, hubRoot: join(dir, 'tmp') };
}

const socketOf = (place: Place, test: TestSim) =>
  hubSocketPath(place.env, test.baseUrl, test.sim.tokens.write, place.hubRoot);

async function terminal(
  test: TestSim,
  place: Place,
  extra: Partial<Parameters<typeof createSession>[0]> = {},
  timing: Partial<ShareOptions> = {},
) {
  const session = createSession({
    baseUrl: test.baseUrl,
    apiKey: test.sim.tokens.write,
    visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
    intervals: { visibleMs: 1_000, headerMs: 2_000, backgroundMs: 60_000, rareMs: 300_000 },
    ...extra,
  });
  const sharer = shareSession(session, {
    env: place.env,
    ...(place.hubRoot ? { hubRoot: place.hubRoot } : {}),
    baseUrl: test.baseUrl,
    apiKey: test.sim.tokens.write,
    ...timing,
  });
  open.push({ session, sharer });
  const sharing = await sharer.ready;
  session.start();
  return { session, sharer, sharing };
}

describe('the hub of a box', () => {
  it('the first terminal becomes the hub on a 0600 socket in /tmp/shop-inbox-UID (0700); the next ones its clients', async () => {
    const test = await startSim();
    const place = await runtimeDir(true);
    const a = await terminal(test, place);
    const b = await terminal(test, place);
    const c = await terminal(test, place);
    expect([a.sharing.role, b.sharing.role, c.sharing.role]).toEqual(['hub', 'client', 'client']);
    const socket = socketOf(place, test);
    expect(hubDir(place.env)).toBe(`/tmp/shop-inbox-${process.getuid?.()}`);
    expect(socket.startsWith(`${hubDir(place.env)}/`)).toBe(true);
    expect((await stat(socket)).mode & 0o777).toBe(0o600);
    expect((await stat(hubDir(place.env))).mode & 0o777).toBe(0o700);
    // The key never appears in the socket's name.
    expect(socket).not.toContain(test.sim.tokens.write);
    // The clients show what the hub read, and see the two other terminals.
    await until(() => (c.session.store.getState().inbox.open.data ? true : undefined));
    await until(() => (a.session.store.getState().presence.others === 2 ? true : undefined));
    expect(b.session.store.getState().presence.others).toBe(2);
  });

  it('when the hub quits, a client becomes the hub, and the other follows it', async () => {
    const test = await startSim();
    const place = await runtimeDir();
    const a = await terminal(test, place);
    const b = await terminal(test, place);
    const c = await terminal(test, place);
    expect(a.sharing.role).toBe('hub');
    a.session.close();
    const roles = () => [b, c].map((t) => t.session.store.getState().sharing?.role).sort();
    await until(() => (roles().join() === 'client,hub' ? true : undefined));
    const [hub, client] = b.session.store.getState().sharing?.role === 'hub' ? [b, c] : [c, b];
    // The client reads through the new hub: a new inbound text reaches it.
    const before = client.session.store.getState().inbox.open.updatedAt ?? 0;
    await until(
      () => ((client.session.store.getState().inbox.open.updatedAt ?? 0) > before ? true : undefined),
      5_000,
    );
    await until(() => (hub.session.store.getState().presence.others === 1 ? true : undefined));
  });

  it('hands every terminal what it reads, but a contacts search only to the terminal that searched', async () => {
    const { linkToHub } = await import('../../src/hub/hub-link.js');
    const test = await startSim();
    const place = await runtimeDir();
    const hub = await terminal(test, place, {
      visibleSlots: () => [
        { kind: 'inbox', filter: 'open' },
        { kind: 'contacts', query: '' },
      ],
    });
    expect(hub.sharing.role).toBe('hub');
    const received: string[] = [];
    const watcher = await linkToHub(socketOf(place, test), {
      onRead: (read) => received.push(slotKey(read.slot)),
      onPresence: () => {},
      onClose: () => {},
    });
    if (watcher.kind !== 'linked') throw new Error(`no hub: ${watcher.kind}`);
    const searcher = await terminal(test, place, {
      visibleSlots: () => [{ kind: 'contacts', query: 'a' }],
    });
    searcher.session.store.setState({
      contacts: { ...searcher.session.store.getState().contacts, query: 'a' },
    });
    await until(() => (searcher.session.store.getState().contacts.loadedQuery === 'a' ? true : undefined));
    await until(() => (received.includes('contacts:') ? true : undefined));
    expect(received).toContain('inbox:open');
    expect(received).not.toContain('contacts:a');
    watcher.link.close();
  });

  it('three terminals read the shop about as often as one', async () => {
    const test = await startSim();
    const place = await runtimeDir();
    await terminal(test, place);
    await terminal(test, place);
    await terminal(test, place);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const shared = (await test.requests()).length;
    const alone = await startSim();
    await terminal(alone, await runtimeDir());
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const single = (await alone.requests()).length;
    expect(shared).toBeLessThanOrEqual(Math.ceil(single * 1.25));
  }, 20_000);
});

describe('matching the latest inbound texts to their leads', () => {
  it("two terminals of one hub read each open lead's thread at most once between them, and stop once every text is matched", async () => {
    const test = await startSim();
    const place = await runtimeDir();
    const intervals = {
      visibleMs: 60_000,
      headerMs: 60_000,
      backgroundMs: 60_000,
      rareMs: 300_000,
      burstMs: 50,
    };
    const a = await terminal(test, place, { intervals });
    const b = await terminal(test, place, { intervals });
    expect([a.sharing.role, b.sharing.role].sort()).toEqual(['client', 'hub']);
    const matched = (session: Session) => {
      const state = session.store.getState();
      const shown = (state.inbox.open.data?.latest_inbound ?? []).slice(0, INBOUND_SHOWN);
      return shown.length > 0 && shown.every((preview) => previewSender(state, preview).kind === 'matched');
    };
    await until(() => (matched(a.session) && matched(b.session) ? true : undefined), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reads = (await test.requests())
      .filter((request) => request.method === 'GET' && request.path.startsWith('/v1/leads/'))
      .map((request) => request.path);
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads).size).toBe(reads.length);
    const open = a.session.store.getState().inbox.open.data?.open_leads.length ?? 0;
    expect(reads.length).toBeLessThanOrEqual(open);
  }, 20_000);
});

describe('a new text in an inbox read for a client', () => {
  it("is followed up by the hub like its own read: the contacts list, then the writer's thread before any other", async () => {
    const test = await startSim();
    const place = await runtimeDir();
    // Slow enough that in the window below only the client's r reads the inbox.
    const intervals = {
      visibleMs: 120_000,
      headerMs: 120_000,
      backgroundMs: 120_000,
      rareMs: 300_000,
      burstMs: 50,
      pacedMs: 600_000,
    };
    // The hub hands a client its kept copy for a while; here every ask of the client is a read of the shop.
    const a = await terminal(test, place, { intervals }, { freshMs: 0 });
    const b = await terminal(test, place, { intervals }, { freshMs: 0 });
    const [hub, client] = a.sharing.role === 'hub' ? [a, b] : [b, a];
    expect(client.sharing.role).toBe('client');
    await until(() => (threadsToRead(hub.session.store.getState()).length === 0 ? true : undefined), 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const openLeads = hub.session.store.getState().inbox.open.data?.open_leads ?? [];
    const writer = openLeads.at(-1);
    if (!writer || openLeads.length < 10) throw new Error('the seed has too few open leads');
    const since = (await test.requests()).length;

    test.sim.receiveText(writer.id, 'Is the tech still coming today?');
    client.session.poller.refreshVisible();
    await until(() => {
      const state = hub.session.store.getState();
      const preview = state.inbox.open.data?.latest_inbound.find((each) =>
        each.body_preview.startsWith('Is the tech still coming today?'),
      );
      return preview && previewSender(state, preview).kind === 'matched' ? true : undefined;
    }, 10_000);
    const paths = (await test.requests())
      .slice(since)
      .filter((request) => request.method === 'GET')
      .map((request) => request.path);
    const contacts = paths.indexOf('/v1/contacts');
    const firstThread = paths.findIndex((path) => path.startsWith('/v1/leads/'));
    expect(paths.indexOf('/v1/inbox')).toBeGreaterThanOrEqual(0);
    expect(contacts).toBeGreaterThan(paths.indexOf('/v1/inbox'));
    expect(firstThread).toBeGreaterThan(contacts);
    // The writer's open leads are read first (a customer may have several); no other customer's before.
    const writersLeads = openLeads
      .filter((lead) => lead.caller_phone === writer.caller_phone)
      .map((lead) => `/v1/leads/${lead.id}`);
    const threads = paths.filter((path) => path.startsWith('/v1/leads/'));
    expect(threads.slice(0, writersLeads.length).sort()).toEqual([...writersLeads].sort());
  }, 30_000);
});

describe('a copy the hub hands over', () => {
  it('is dated when the hub read it from the shop, so a thread kept from before a text does not pass for one read after it', async () => {
    const { linkToHub } = await import('../../src/hub/hub-link.js');
    const test = await startSim();
    const place = await runtimeDir();
    const lead = (await test.client().getInbox({ filter: 'open', limit: 100 })).open_leads[3];
    if (!lead) throw new Error('too few open leads');
    const slot = { kind: 'lead', id: lead.id } as const;
    // The hub shows the thread (it reads it at once) and keeps its copies a minute. Its own reads for a new
    // text are held off too: the thread it shows would be the first of them, read again at once.
    const quiet = {
      visibleMs: 60_000,
      headerMs: 60_000,
      backgroundMs: 60_000,
      rareMs: 300_000,
      burstMs: 600_000,
      pacedMs: 600_000,
    };
    const hub = await terminal(
      test,
      place,
      { visibleSlots: () => [{ kind: 'inbox', filter: 'open' }, slot], intervals: quiet },
      { freshMs: 60_000 },
    );
    expect(hub.sharing.role).toBe('hub');
    await until(() => hub.session.store.getState().leads[lead.id]?.updatedAt);
    const readAt = hub.session.store.getState().leads[lead.id]?.updatedAt ?? 0;
    const threadReads = async () =>
      (await test.requests()).filter((request) => request.path === `/v1/leads/${lead.id}`).length;
    const readsBefore = await threadReads();

    // The customer writes; later a terminal asks the hub for the thread, and gets the copy kept from before.
    test.sim.receiveText(lead.id, 'Are you still coming?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const watcher = await linkToHub(socketOf(place, test), {
      onRead: () => {},
      onPresence: () => {},
      onClose: () => {},
    });
    if (watcher.kind !== 'linked') throw new Error(`no hub: ${watcher.kind}`);
    const askedAt = Date.now();
    const kept = await watcher.link.read(slot);
    watcher.link.close();
    expect(await threadReads()).toBe(readsBefore);
    expect((kept as LeadDetail).messages.some((message) => message.body === 'Are you still coming?')).toBe(
      false,
    );
    expect(readTimeOf(kept)).toBe(readAt);
    expect(readAt).toBeLessThan(askedAt);

    // A terminal's poller dates it so: the thread is still to be read for the text its inbox lists.
    const client = await terminal(test, place, {
      visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
      intervals: quiet,
    });
    expect(client.sharing.role).toBe('client');
    // The hub reads the inbox again, and hands the list with the text to the terminal.
    hub.session.poller.request({ kind: 'inbox', filter: 'open' });
    await until(() =>
      client.session.store
        .getState()
        .inbox.open.data?.latest_inbound.some((text) => text.body_preview === 'Are you still coming?')
        ? true
        : undefined,
    );
    // The copy the hub handed over with its welcome, then asked for: the hub answers with the copy it kept.
    const answered = new Promise<void>((resolve) => {
      const stop = client.session.store.subscribe((state, before) => {
        if (before.leads[lead.id]?.loading && state.leads[lead.id]?.loading === false) {
          stop();
          resolve();
        }
      });
    });
    client.session.poller.request(slot);
    await answered;
    expect(await threadReads()).toBe(readsBefore);
    expect(client.session.store.getState().leads[lead.id]?.updatedAt).toBe(readAt);
    expect(threadsToRead(client.session.store.getState())).toContain(lead.id);
  });
});

describe('a terminal closed while it elects (q at start-up)', () => {
  /** Whether anything accepts a connection on the socket path. */
  const listening = (path: string) =>
    new Promise<boolean>((resolve) => {
      const socket = createConnection(path);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });

  it('never leaves a hub listening, which would keep the process from exiting', async () => {
    const test = await startSim();
    let leftListening = 0;
    // Closed at every moment of an election: before the lock, while linking, while listening.
    for (let round = 0; round < 80; round++) {
      const place = await runtimeDir();
      const session = createSession({
        baseUrl: test.baseUrl,
        apiKey: test.sim.tokens.write,
        visibleSlots: () => [],
      });
      const sharer = shareSession(session, {
        env: place.env,
        hubRoot: place.hubRoot as string,
        baseUrl: test.baseUrl,
        apiKey: test.sim.tokens.write,
      });
      // An election takes a few milliseconds: close at 0–4 ms, and at every turn of the event loop in between.
      const closeAt = Date.now() + (round % 5);
      while (Date.now() < closeAt) await new Promise((resolve) => setImmediate(resolve));
      for (let turn = 0; turn < Math.floor(round / 5); turn++)
        await new Promise((resolve) => setImmediate(resolve));
      session.close();
      await sharer.ready;
      // Neither on the shared name nor on the hub's own (before it is renamed onto the shared one).
      const socket = socketOf(place, test);
      if ((await listening(socket)) || (await listening(hubListenPath(socket)))) leftListening++;
    }
    expect(leftListening).toBe(0);
  });
});

describe('a hostile hub', () => {
  async function fakeHub(lines: (socket: import('node:net').Socket) => void) {
    const place = await runtimeDir();
    const { createServer } = await import('node:net');
    const { checkHubDir } = await import('../../src/hub/hub-paths.js');
    const dir = hubDir(place.env, place.hubRoot);
    const socketPath = join(dir, 'hub-test.sock');
    await checkHubDir(dir, socketPath);
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => lines(socket));
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return { socketPath, close: () => server.close() };
  }

  it('passes on only shop data that fits the API contract, and drops the link on garbage or an endless line', async () => {
    const { linkToHub } = await import('../../src/hub/hub-link.js');
    const me = (await (await startSim()).client().getMe()) as Record<string, unknown>;
    const hostileName = '\u001b]0;owned\u0007\u001b[2J Evil \u202e shop';
    const hub = await fakeHub((socket) => {
      socket.write(
        `${JSON.stringify({
          t: 'welcome',
          v: PROTOCOL_VERSION,
          beatMs: 1_000,
          reads: [
            { slot: { kind: 'me' }, data: { ...me, business_name: hostileName }, at: 1 },
            // Not an inbox at all: dropped.
            { slot: { kind: 'inbox', filter: 'open' }, data: { open_leads: 'rm -rf /' }, at: 1 },
          ],
        })}\n`,
      );
      socket.write(
        `${JSON.stringify({ t: 'data', slot: { kind: 'reviews' }, data: { items: 42 }, at: 2 })}\n`,
      );
      socket.write(`${JSON.stringify({ t: 'presence', terminals: 3, composing: ['ct_1'] })}\n`);
      // A line that never ends, past the 4 MiB cap.
      socket.write(Buffer.alloc(5 * 1024 * 1024, 0x7b));
    });
    const reads: unknown[] = [];
    const presence: number[] = [];
    let closed = false;
    const found = await linkToHub(hub.socketPath, {
      onRead: (read) => reads.push(read),
      onPresence: (terminals) => presence.push(terminals),
      onClose: () => {
        closed = true;
      },
    });
    expect(found.kind).toBe('linked');
    if (found.kind !== 'linked') return;
    // The shop's own answer with a hostile name passes the contract, as it would from the API
    // (the screen's sanitizer takes it from there); the shapes that do not fit never arrive.
    expect(found.reads.map((read) => read.slot.kind)).toEqual(['me']);
    await until(() => (closed ? true : undefined));
    expect(reads).toEqual([]);
    expect(presence).toEqual([3]);
    // A link that closed fails its calls as a network failure would: a text is retried with its key.
    await expect(found.link.read({ kind: 'me' })).rejects.toMatchObject({ code: 'network' });
    hub.close();
  });

  it('a hub that answers with garbage is not followed: the terminal polls on its own', async () => {
    const { linkToHub } = await import('../../src/hub/hub-link.js');
    const hub = await fakeHub((socket) => socket.write('HTTP/1.1 200 OK\r\n\r\n\n'));
    const found = await linkToHub(hub.socketPath, {
      onRead: () => {},
      onPresence: () => {},
      onClose: () => {},
    });
    expect(found.kind).toBe('silent');
    hub.close();
  });
});
