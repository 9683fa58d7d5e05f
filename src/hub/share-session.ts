/**
 * Joins a session to the hub of its box: the first inbox of a user for a
 * shop API and key becomes the hub (it listens on the socket and polls for
 * everyone); later ones become its clients. When the hub goes (quit, crash,
 * kill -9), its clients elect a new one at once.
 *
 * The election holds a lock shared by the user's processes (proper-lockfile:
 * a `.lock` directory next to the socket, given up as stale after 5 s when
 * its holder died inside it) for a few milliseconds: under it, a process that
 * can reach a hub on the socket becomes its client; one that finds nobody
 * listening (no socket file, or ECONNREFUSED: the kernel refuses connections
 * to a socket whose process is gone) removes the stale file and listens. So
 * there is never more than one hub. A hub that answers with another protocol
 * version, or does not answer, is left alone: this inbox then polls on its
 * own and says so.
 */
import { unlink } from 'node:fs/promises';
import { capText } from '../api/limits.js';
import type { Session } from '../session/create-session.js';
import { composingContact, type Sharing } from '../store/app-store.js';
import { type HubLink, linkToHub } from './hub-link.js';
import { checkHubDir, hubDir, hubSocketPath } from './hub-paths.js';
import { HubServer, setPresence } from './hub-server.js';

/** A client reads again this long after the hub would: the hub's read, handed over, comes first. */
const CLIENT_LAG_MS = 1_500;

export interface ShareOptions {
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  apiKey: string;
  /** A lock not refreshed for this long is taken as left by a dead process. Default 5 s. */
  staleLockMs?: number;
  /** The hub's freshness window for reads it hands out (tests). */
  freshMs?: number;
  /** Where the per-user directory is made instead of /tmp (tests). */
  hubRoot?: string;
}

export interface Sharer {
  /** Resolves once this terminal is the hub, its client, or on its own. */
  readonly ready: Promise<Sharing>;
  stop(): void;
}

export function shareSession(session: Session, options: ShareOptions): Sharer {
  const { store, poller, sender } = session;
  const socketPath = hubSocketPath(options.env, options.baseUrl, options.apiKey, options.hubRoot);
  const dir = hubDir(options.env, options.hubRoot);
  let stopped = false;
  let server: HubServer | undefined;
  let link: HubLink | undefined;
  let unsubscribeComposer: (() => void) | undefined;

  const setSharing = (sharing: Sharing) => store.setState({ sharing });

  const alone = (why: string): Sharing => {
    session.hub.route(undefined);
    setPresence(store, 1, [], null);
    poller.setLag(0);
    const sharing: Sharing = { role: 'alone', why };
    setSharing(sharing);
    if (why !== 'closed')
      store.setState({ notice: { text: capText(why, 200), tone: 'warning', at: Date.now() } });
    return sharing;
  };

  const becomeHub = async (): Promise<Sharing> => {
    // Closed while electing (q pressed at start-up): a server listening now would keep the process alive.
    if (stopped) return alone('closed');
    await unlink(socketPath).catch(() => {});
    if (stopped) return alone('closed');
    const hub = new HubServer({
      socketPath,
      store,
      poller,
      reader: () => session.hub.direct(),
      writer: () => session.hub.writer(),
      ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}),
    });
    await hub.listen();
    if (stopped) {
      hub.close();
      return alone('closed');
    }
    server = hub;
    session.hub.route(undefined);
    poller.setLag(0);
    setSharing({ role: 'hub' });
    return { role: 'hub' };
  };

  const becomeClient = (next: HubLink, reads: Array<Parameters<typeof poller.accept>>): Sharing => {
    link = next;
    for (const read of reads) poller.accept(...read);
    const state = store.getState();
    session.hub.route(
      next.client(
        options.baseUrl,
        () => session.hub.direct().readOnly,
        (value) => session.hub.direct().setReadOnly(value),
      ),
    );
    unsubscribeComposer?.();
    next.composing(state.composer?.contactId ?? null);
    unsubscribeComposer = store.subscribe((now, before) => {
      if (now.composer?.contactId !== before.composer?.contactId)
        next.composing(now.composer?.contactId ?? null);
    });
    poller.setLag(CLIENT_LAG_MS);
    const sharing: Sharing = { role: 'client', since: Date.now() };
    setSharing(sharing);
    return sharing;
  };

  const elect = async (): Promise<Sharing> => {
    try {
      await checkHubDir(dir, socketPath);
    } catch (error) {
      return alone(`no shared poller: ${(error as Error).message}`);
    }
    const { default: lockfile } = await import('proper-lockfile');
    const staleLockMs = Math.max(2_000, options.staleLockMs ?? 5_000);
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(socketPath, {
        realpath: false,
        stale: staleLockMs,
        update: 1_000,
        retries: {
          retries: Math.ceil((staleLockMs * 1.5) / 100) + 6,
          factor: 1.2,
          minTimeout: 10,
          maxTimeout: 100,
          randomize: true,
        },
        onCompromised: () => {},
      });
    } catch (error) {
      return alone(`no shared poller: the hub's lock stayed taken (${(error as Error).message})`);
    }
    try {
      if (stopped) return alone('closed');
      const found = await linkToHub(socketPath, {
        onRead: (read) => poller.accept(read.slot, read.data, read.at),
        onPresence: (terminals, composing) =>
          setPresence(store, terminals, composing, composingContact(store.getState())),
        onClose: () => void lost(),
      });
      switch (found.kind) {
        case 'linked':
          if (stopped) {
            found.link.close();
            return alone('closed');
          }
          return becomeClient(
            found.link,
            found.reads.map((read) => [read.slot, read.data, read.at] as Parameters<typeof poller.accept>),
          );
        case 'refused':
          return alone(
            `another shop-inbox on this box speaks hub protocol v${found.version} (this one v1): this terminal polls the shop on its own`,
          );
        case 'silent':
          return alone('the hub socket of this shop did not answer: this terminal polls the shop on its own');
        case 'absent':
          return await becomeHub();
      }
    } catch (error) {
      return alone(`no shared poller: ${(error as Error).message}`);
    } finally {
      await release().catch(() => {});
    }
  };

  /** The hub went away: keep the last data on screen, elect again, and read again at once. */
  const lost = async () => {
    link = undefined;
    unsubscribeComposer?.();
    unsubscribeComposer = undefined;
    if (stopped) return;
    setSharing({ role: 'alone', why: 'the hub of this box went away; finding another' });
    // Spread the terminals' elections a little; the lock decides anyway.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    if (stopped) return;
    await elect();
    if (stopped) return;
    // Reads that failed while the hub was gone are not waited out; a text of the old hub is taken over now.
    poller.refreshVisible();
    // The texts the old hub confirmed are taken over now, and again in case its outbox lock
    // (held when it was killed) was not yet given up as stale: never left for the minute's sweep.
    for (const ms of [0, 3_000, 8_000]) {
      const timer = setTimeout(() => {
        if (!stopped) void sender.sweep();
      }, ms);
      timer.unref?.();
    }
  };

  const ready = elect();
  const sharer: Sharer = {
    ready,
    stop: () => {
      stopped = true;
      unsubscribeComposer?.();
      link?.close();
      server?.close();
    },
  };
  session.hub.onClose(sharer.stop);
  return sharer;
}
