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
 * to a socket whose process is gone) becomes the hub, its socket renamed onto
 * the name. So there is never more than one hub. A hub that answers with
 * another protocol version is left alone: this inbox then polls on its own
 * and says so.
 *
 * A hub that stops answering (its process stopped with SIGSTOP, or stuck)
 * still holds its socket: nothing closes, its clients just hear no beat.
 * After `silenceMs` each reads the shop on its own within its share of the
 * budget (1/n, n the terminals it last knew of) and says so; when the hub is
 * heard again, each gives way and reads through it again. When it stays
 * silent for `takeoverMs`, they elect again, and this time a socket that
 * does not answer is taken over (the same happens to a terminal that finds
 * the hub silent at start, `takeoverMs` later). The old hub, if it goes on,
 * finds the name leading elsewhere before it beats or makes any request:
 * it closes and joins the new hub as a client.
 */
import { ApiError } from '../api/errors.js';
import { capText } from '../api/limits.js';
import { DEFAULT_SILENCE_MS, type HubLink, type HubLinkEvents, linkToHub } from '../hub/hub-link.js';
import { checkHubDir, hubDir, hubSocketPath } from '../hub/hub-paths.js';
import { HubServer, setPresence } from '../hub/hub-server.js';
import { PROTOCOL_VERSION } from '../hub/protocol.js';
import { composingContact, type Sharing } from '../store/app-store.js';
import { marksAdded, mergeMarks } from '../store/conversation-marks.js';
import type { Session } from './create-session.js';

/** A client reads again this long after the hub would: the hub's read, handed over, comes first. */
const CLIENT_LAG_MS = 1_500;
/** A hub silent this long is taken over. */
const DEFAULT_TAKEOVER_MS = 12_000;
/** A terminal that finds the hub silent at start does not know how many others read on their own beside it. */
const ASSUMED_TERMINALS = 4;

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
  /** How often a hub tells its terminals it is there. Default 1 s. */
  beatMs?: number;
  /** A client that has not heard its hub for this long reads the shop on its own. Default 4 s. */
  silenceMs?: number;
  /** A hub silent for this long is taken over by another terminal. Default 12 s. */
  takeoverMs?: number;
}

export interface Sharer {
  /** Resolves once this terminal is the hub, its client, or on its own. */
  readonly ready: Promise<Sharing>;
  stop(): void;
}

/** A join elects a hub that answers, or becomes one where none listens; a takeover also replaces one that stays silent. */
type ElectionMode = 'join' | 'take-over';

interface CurrentLink {
  link: HubLink;
  /** Closes it without electing again (this terminal is moving on by itself). */
  retire(): void;
}

const SILENT_HUB = 'The hub terminal is not answering: reading the shop on our own.';

export function shareSession(session: Session, options: ShareOptions): Sharer {
  const { store, poller, budget } = session;
  const socketPath = hubSocketPath(options.env, options.baseUrl, options.apiKey, options.hubRoot);
  const dir = hubDir(options.env, options.hubRoot);
  const silenceMs = options.silenceMs ?? DEFAULT_SILENCE_MS;
  const takeoverMs = Math.max(silenceMs, options.takeoverMs ?? DEFAULT_TAKEOVER_MS);
  let stopped = false;
  let server: HubServer | undefined;
  let link: CurrentLink | undefined;
  let unsubscribeComposer: (() => void) | undefined;
  /** How many terminals the last presence counted (0: never told). */
  let knownTerminals = 0;
  let electAgain: NodeJS.Timeout | undefined;

  const setSharing = (sharing: Sharing) => store.setState({ sharing });
  const tell = (text: string, tone: 'info' | 'warning') =>
    store.setState({ notice: { text: capText(text, 200), tone, at: Date.now(), background: true } });

  const cancelElectAgain = () => {
    if (electAgain) clearTimeout(electAgain);
    electAgain = undefined;
  };

  /** Reads go straight to the shop, this process taking 1/`terminals` of the budget. */
  const readAlone = (terminals: number) => {
    session.hub.route(undefined);
    poller.setLag(0);
    // Standing in for a silent hub (a share of the budget), the picture of the conversations waits for
    // whoever reads for the box next: the hub when it answers again, or the terminal that takes over.
    poller.setReadsPicture(terminals === 1);
    budget.setShare(terminals);
    budget.setGate(undefined);
  };

  const tookOver = () =>
    new ApiError({
      status: 0,
      code: 'network',
      endpoint: 'the request',
      message: 'another terminal took over reading the shop for this box; the request goes through it',
    });

  const alone = (why: string): Sharing => {
    readAlone(1);
    setPresence(store, 1, [], null);
    const sharing: Sharing = { role: 'alone', why };
    setSharing(sharing);
    if (why !== 'closed') tell(why, 'warning');
    return sharing;
  };

  /** The hub does not answer: read on our own within a share, and elect again, taking over, if it stays so. */
  const standIn = (why: string, terminals: number, takeOverInMs: number): Sharing => {
    readAlone(terminals);
    const sharing: Sharing = { role: 'hub-silent', since: Date.now(), why };
    setSharing(sharing);
    tell(why, 'warning');
    cancelElectAgain();
    electAgain = setTimeout(() => void electAgainNow('take-over'), takeOverInMs);
    electAgain.unref?.();
    return sharing;
  };

  const dropLink = () => {
    const current = link;
    link = undefined;
    unsubscribeComposer?.();
    unsubscribeComposer = undefined;
    current?.retire();
  };

  const superseded = async (hub: HubServer) => {
    if (server !== hub) return;
    server = undefined;
    // Until this terminal has joined the new hub, nothing is asked of the shop from here.
    budget.setGate(tookOver);
    if (stopped) return;
    setSharing({ role: 'alone', why: 'another terminal took over as the hub; joining it' });
    // The name may also have been removed (a /tmp cleaner): then nobody took over, and this terminal listens again.
    const joined = await elect('join');
    if (stopped) return;
    if (joined.role === 'client')
      tell(
        'This terminal stopped answering for a while and another took over reading the shop: it now reads through that one.',
        'info',
      );
    poller.refreshVisible();
  };

  const becomeHub = async (): Promise<Sharing> => {
    // Closed while electing (q pressed at start-up): a server listening now would keep the process alive.
    if (stopped) return alone('closed');
    const hub: HubServer = new HubServer({
      socketPath,
      store,
      poller,
      reader: () => session.hub.direct(),
      writer: () => session.hub.writer(),
      onSuperseded: () => void superseded(hub),
      ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}),
      ...(options.beatMs !== undefined ? { beatMs: options.beatMs } : {}),
    });
    await hub.listen();
    if (stopped) {
      hub.close();
      return alone('closed');
    }
    server = hub;
    cancelElectAgain();
    readAlone(1);
    // Once another terminal has taken over (this one had stopped), nothing more is asked of the shop from here.
    budget.setGate(() => {
      if (hub.owns()) return undefined;
      queueMicrotask(() => hub.supersede());
      return tookOver();
    });
    setSharing({ role: 'hub' });
    return { role: 'hub' };
  };

  const routeThrough = (next: HubLink) => {
    session.hub.route(
      next.client(
        options.baseUrl,
        () => session.hub.direct().readOnly,
        (value) => session.hub.direct().setReadOnly(value),
      ),
    );
    poller.setLag(CLIENT_LAG_MS);
    // The hub reads every open lead's thread and hands each to every terminal.
    poller.setReadsPicture(false);
    budget.setShare(1);
    budget.setGate(undefined);
  };

  // Set while marks the hub handed over land in the store: they are not told back to it.
  let applyingHubMarks = false;

  const becomeClient = (
    next: HubLink,
    self: { retired: boolean },
    reads: Array<Parameters<typeof poller.accept>>,
  ): Sharing => {
    link = {
      link: next,
      retire: () => {
        self.retired = true;
        next.close();
      },
    };
    cancelElectAgain();
    for (const read of reads) poller.accept(...read);
    routeThrough(next);
    unsubscribeComposer?.();
    next.composing(store.getState().composer?.contactId ?? null);
    // Read and done made here before joining go to the hub (and through it to every terminal).
    next.marks(store.getState().conversations);
    unsubscribeComposer = store.subscribe((now, before) => {
      if (now.composer?.contactId !== before.composer?.contactId)
        next.composing(now.composer?.contactId ?? null);
      // Marks made here; not those the hub just handed over (it has them).
      if (now.conversations !== before.conversations && !applyingHubMarks) {
        const added = marksAdded(before.conversations, now.conversations);
        if (Object.keys(added.leads).length > 0 || added.since !== undefined) next.marks(added);
      }
    });
    const sharing: Sharing = { role: 'client', since: Date.now() };
    setSharing(sharing);
    return sharing;
  };

  /** The hub stopped answering: read on our own until it answers again, or until it is taken over. */
  const hubSilent = () => {
    if (stopped || !link) return;
    standIn(SILENT_HUB, Math.max(2, knownTerminals), takeoverMs - silenceMs);
    // What waited on the hub failed as a network failure would: read it again now, from the shop.
    const timer = setTimeout(() => {
      if (!stopped) poller.refreshVisible();
    }, 0);
    timer.unref?.();
  };

  /** The hub answers again: give way to it. */
  const hubHeard = () => {
    if (stopped || !link) return;
    cancelElectAgain();
    routeThrough(link.link);
    setSharing({ role: 'client', since: Date.now() });
    tell('The hub terminal answers again: reading the shop through it.', 'info');
  };

  const eventsFor = (self: { retired: boolean }): HubLinkEvents => ({
    onRead: (read) => {
      if (!self.retired) poller.accept(read.slot, read.data, read.at);
    },
    onMarks: (marks) => {
      if (self.retired) return;
      const merged = mergeMarks(store.getState().conversations, marks);
      if (merged === store.getState().conversations) return;
      applyingHubMarks = true;
      try {
        store.setState({ conversations: merged });
      } finally {
        applyingHubMarks = false;
      }
    },
    onPresence: (terminals, composing) => {
      if (self.retired) return;
      knownTerminals = terminals;
      setPresence(store, terminals, composing, composingContact(store.getState()));
    },
    onClose: () => {
      if (!self.retired) void lost();
    },
    onSilent: () => {
      if (!self.retired) hubSilent();
    },
    onHeard: () => {
      if (!self.retired) hubHeard();
    },
  });

  const elect = async (mode: ElectionMode): Promise<Sharing> => {
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
      const self = { retired: false };
      const found = await linkToHub(socketPath, eventsFor(self), { silenceMs });
      switch (found.kind) {
        case 'linked':
          if (stopped) {
            self.retired = true;
            found.link.close();
            return alone('closed');
          }
          return becomeClient(
            found.link,
            self,
            found.reads.map((read) => [read.slot, read.data, read.at] as Parameters<typeof poller.accept>),
          );
        case 'refused':
          return alone(
            `another shop-inbox on this box speaks hub protocol v${found.version} (this one v${PROTOCOL_VERSION}): this terminal polls the shop on its own`,
          );
        case 'silent':
          // Something holds the socket and does not answer: a hub stopped for now, perhaps going on
          // later. Taken over only once it stayed silent; until then, read on our own within a share.
          if (mode === 'take-over') return await becomeHub();
          return standIn(SILENT_HUB, knownTerminals || ASSUMED_TERMINALS, takeoverMs);
        case 'absent':
          return await becomeHub();
      }
    } catch (error) {
      return alone(`no shared poller: ${(error as Error).message}`);
    } finally {
      await release().catch(() => {});
    }
  };

  /** The hub stayed silent: leave it, elect again, and read what is on screen at once. */
  const electAgainNow = async (mode: ElectionMode) => {
    electAgain = undefined;
    if (stopped) return;
    dropLink();
    const now = await elect(mode);
    if (stopped) return;
    // The warning that the hub is silent is over either way: say how it ended.
    if (now.role === 'hub')
      tell('The hub terminal stayed silent: this terminal now reads the shop for the others.', 'info');
    else if (now.role === 'client')
      tell('The hub terminal stayed silent: reading the shop through the hub that answers now.', 'info');
    poller.refreshVisible();
  };

  /** The hub went away: keep the last data on screen, elect again, and read again at once. */
  const lost = async () => {
    link = undefined;
    unsubscribeComposer?.();
    unsubscribeComposer = undefined;
    cancelElectAgain();
    if (stopped) return;
    setSharing({ role: 'alone', why: 'the hub of this box went away; finding another' });
    // Spread the terminals' elections a little; the lock decides anyway.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    if (stopped) return;
    await elect('join');
    if (stopped) return;
    // Reads that failed while the hub was gone are not waited out; a text of the old hub is taken over now.
    poller.refreshVisible();
    // The texts the old hub confirmed are taken over now, and again in case its outbox lock
    // (held when it was killed) was not yet given up as stale: never left for the minute's sweep.
    for (const ms of [0, 3_000, 8_000]) {
      const timer = setTimeout(() => {
        if (!stopped) void session.sender.sweep();
      }, ms);
      timer.unref?.();
    }
  };

  const ready = elect('join');
  const sharer: Sharer = {
    ready,
    stop: () => {
      stopped = true;
      cancelElectAgain();
      dropLink();
      budget.setGate(undefined);
      server?.close();
    },
  };
  session.hub.onClose(sharer.stop);
  return sharer;
}
