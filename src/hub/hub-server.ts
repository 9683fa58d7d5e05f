/**
 * The hub: the first inbox of a user for a shop and key. It runs the one
 * poller and the one request budget of the box, hands every read it makes to
 * the other terminals, reads for them what their screens need (from what it
 * read moments ago when it can), performs their writes through its budget,
 * and tells everyone how many terminals are open and which contacts are
 * being written to. It beats (a line to every terminal every second), so
 * that they notice when it stops answering. Protocol: docs/hub-protocol.md.
 *
 * It listens on a socket of its own name and then renames it onto the
 * shared one: a stale file, or the socket of a hub that stopped answering,
 * is replaced in one step, and closing a listener (which removes the name it
 * was bound to) never removes another hub's socket. A hub stopped long
 * enough for another terminal to take over finds, when it goes on, that the
 * name leads elsewhere (checked at every beat, and by the owner before every
 * request it makes, when its slot is granted and again just before it is
 * written): it closes and says so.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { chmod, lstat, rename, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { ShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Poller } from '../poller/poller.js';
import { readOf, readSlot, type Slot, type SlotData, slotKey } from '../poller/reads.js';
import { type AppStore, composingContact } from '../store/app-store.js';
import { marksAdded, marksFrom, mergeMarks } from '../store/conversation-marks.js';
import { LIST_LIMIT } from '../store/counts.js';
import { MAX_CACHED_LEADS as MAX_OTHER_LEADS } from '../store/read-slices.js';
import { hubListenPath } from './hub-paths.js';
import {
  ClientMessage,
  type HubCall,
  type HubMessage,
  jsonLine,
  lineSplitter,
  MAX_CLIENT_LINE_BYTES,
  PROTOCOL_VERSION,
  type WireError,
} from './protocol.js';

export interface HubServerOptions {
  socketPath: string;
  store: AppStore;
  poller: Poller;
  /** The client reads are made with (through this process's budget). */
  reader: () => ShopClient;
  /** The client writes of other terminals are made with: writable even when this terminal is read-only. */
  writer: () => ShopClient;
  /** A read this recent is handed out instead of reading again. Default 3 s. */
  freshMs?: number;
  /** A terminal that has not said hello by then is dropped. Default 2 s. */
  helloTimeoutMs?: number;
  /** How often every terminal is told this hub is there. Default 1 s. */
  beatMs?: number;
  /** Another terminal took the socket's name over (this hub had stopped answering): this hub has closed. */
  onSuperseded?: () => void;
  now?: () => number;
}

export const DEFAULT_BEAT_MS = 1_000;

/** Terminals beyond this are refused: a box has a few desks, not hundreds. */
const MAX_PEERS = 64;
/** A terminal that does not read what it is sent is dropped before it fills this process's memory. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** Threads kept to hand out: as many as a store keeps (every open lead's, a page of them, and others). */
const MAX_CACHED_LEADS = LIST_LIMIT + MAX_OTHER_LEADS;

interface Peer {
  socket: Socket;
  ready: boolean;
  composing: string | null;
}

interface Cached {
  slot: Slot;
  data: SlotData;
  at: number;
}

export class HubServer {
  private readonly server: Server;
  private readonly peers = new Set<Peer>();
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<Cached>>();
  private readonly freshMs: number;
  private readonly helloTimeoutMs: number;
  private readonly beatMs: number;
  private readonly now: () => number;
  private unsubscribe: (() => void) | undefined;
  private lastPresence = '';
  private closed = false;
  /** The socket this hub listens on, as the file system knows it: the shared name leads here while this is the hub. */
  private identity: { dev: number; ino: number } | undefined;
  private beatTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: HubServerOptions) {
    this.freshMs = options.freshMs ?? 3_000;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 2_000;
    this.beatMs = options.beatMs ?? DEFAULT_BEAT_MS;
    this.now = options.now ?? Date.now;
    this.server = createServer((socket) => this.accept(socket));
    this.server.maxConnections = MAX_PEERS;
  }

  /**
   * Listens on a socket of this process's own name, 0600, then renames it
   * onto the shared socket path, replacing whatever was there (call it under
   * the election's lock, once nothing answers there).
   */
  async listen(): Promise<void> {
    const own = hubListenPath(this.options.socketPath);
    // Named after this process: a file of that name was left by a dead process that had this pid.
    await unlink(own).catch(() => {});
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(own, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.server.on('error', () => {});
    try {
      await chmod(own, 0o600);
      const info = await lstat(own);
      this.identity = { dev: info.dev, ino: info.ino };
      await rename(own, this.options.socketPath);
    } catch (error) {
      this.identity = undefined;
      this.server.close();
      throw error;
    }
    this.beatTimer = setInterval(() => this.beat(), this.beatMs);
    this.beatTimer.unref?.();
    this.options.poller.onData = (slot, data, at) => this.remember(slot, data, at);
    // A terminal asking for what this hub's poller is reading right now gets that read, not a second one.
    this.options.poller.onReading = (slot, reading) => this.track(slot, reading);
    this.unsubscribe = this.options.store.subscribe((state, previous) => {
      if (composingContact(state) !== composingContact(previous)) this.sendPresence();
      // Read and done marked here, or by a terminal (merged below): every terminal gets what changed.
      if (state.conversations !== previous.conversations) {
        const added = marksAdded(previous.conversations, state.conversations);
        if (Object.keys(added.leads).length > 0 || added.since !== undefined)
          for (const peer of this.peers) if (peer.ready) this.send(peer, { t: 'marks', marks: added });
      }
    });
    this.sendPresence();
  }

  get terminals(): number {
    return 1 + [...this.peers].filter((peer) => peer.ready).length;
  }

  /**
   * Whether the shared socket path still leads to this hub. Another terminal
   * renames its own socket onto it when this hub stopped answering.
   */
  owns(): boolean {
    if (this.closed || !this.identity) return false;
    try {
      const info = lstatSync(this.options.socketPath);
      return info.dev === this.identity.dev && info.ino === this.identity.ino;
    } catch {
      return false;
    }
  }

  /** Another terminal took over: this hub closes, leaving the name to it, and says so. */
  supersede(): void {
    if (this.closed) return;
    this.close();
    this.options.onSuperseded?.();
  }

  close(): void {
    if (this.closed) return;
    // The shared name is removed only while it leads here, never when it is another hub's.
    const named = this.owns();
    this.closed = true;
    clearInterval(this.beatTimer);
    this.unsubscribe?.();
    this.options.poller.onData = undefined;
    this.options.poller.onReading = undefined;
    if (named) {
      try {
        unlinkSync(this.options.socketPath);
      } catch {
        // Gone already.
      }
    }
    // Closing the listener removes the name it was bound to, which was renamed away: nothing.
    // The terminals see their hub go and elect another.
    this.server.close();
    for (const peer of this.peers) peer.socket.destroy();
    this.peers.clear();
  }

  /** Tells every terminal this hub is there; first checks that it still is the hub. */
  private beat(): void {
    if (this.closed) return;
    // A hub that goes on after a stop says nothing once another has taken over.
    if (!this.owns()) {
      this.supersede();
      return;
    }
    for (const peer of this.peers) if (peer.ready) this.send(peer, { t: 'beat' });
  }

  private accept(socket: Socket): void {
    if (this.closed) return void socket.destroy();
    const peer: Peer = { socket, ready: false, composing: null };
    this.peers.add(peer);
    const helloTimer = setTimeout(() => socket.destroy(), this.helloTimeoutMs);
    helloTimer.unref?.();
    const drop = () => {
      clearTimeout(helloTimer);
      if (this.peers.delete(peer)) this.sendPresence();
    };
    socket.on('close', drop);
    socket.on('error', () => socket.destroy());
    socket.on(
      'data',
      lineSplitter(
        MAX_CLIENT_LINE_BYTES,
        (line) => {
          const parsed = ClientMessage.safeParse(jsonLine(line));
          // A peer that does not speak the protocol is not argued with.
          if (!parsed.success) return void socket.destroy();
          const message = parsed.data;
          if (!peer.ready) {
            if (message.t !== 'hello') return void socket.destroy();
            clearTimeout(helloTimer);
            if (message.v !== PROTOCOL_VERSION) {
              this.send(peer, {
                t: 'refused',
                v: PROTOCOL_VERSION,
                reason: `this hub speaks protocol v${PROTOCOL_VERSION}`,
              });
              socket.end();
              return;
            }
            peer.ready = true;
            this.send(peer, {
              t: 'welcome',
              v: PROTOCOL_VERSION,
              reads: [...this.cache.values()].map(({ slot, data, at }) => ({ slot, data, at })),
              beatMs: this.beatMs,
            });
            this.sendPresence(true);
            this.send(peer, { t: 'marks', marks: this.options.store.getState().conversations });
            return;
          }
          switch (message.t) {
            case 'hello':
              return void socket.destroy();
            case 'read':
              return void this.read(peer, message.id, message.slot);
            case 'call':
              return void this.call(peer, message.id, message.call);
            case 'composing':
              peer.composing = message.contactId;
              return this.sendPresence();
            case 'marks': {
              const store = this.options.store;
              const merged = mergeMarks(store.getState().conversations, marksFrom(message.marks));
              if (merged !== store.getState().conversations) store.setState({ conversations: merged });
              return;
            }
          }
        },
        () => socket.destroy(),
      ),
    );
  }

  private send(peer: Peer, message: HubMessage): void {
    if (peer.socket.destroyed) return;
    if (peer.socket.writableLength > MAX_BUFFERED_BYTES) return void peer.socket.destroy();
    peer.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Every read this hub stores, its own or made for a terminal: kept to hand out, and sent to every terminal. */
  private remember(slot: Slot, data: SlotData, at: number): void {
    const key = slotKey(slot);
    this.cache.delete(key);
    this.cache.set(key, { slot, data, at });
    const leads = [...this.cache.keys()].filter((k) => k.startsWith('lead:'));
    for (const old of leads.slice(0, Math.max(0, leads.length - MAX_CACHED_LEADS))) this.cache.delete(old);
    // A read that is one terminal's own (a contacts search) goes only to the terminal that asked.
    if (readOf(slot.kind).shared?.(slot) === false) return;
    for (const peer of this.peers) if (peer.ready) this.send(peer, { t: 'data', slot, data, at });
  }

  private async read(peer: Peer, id: number, slot: Slot): Promise<void> {
    const key = slotKey(slot);
    try {
      const cached = this.cache.get(key);
      let read: Cached;
      if (cached && this.now() - cached.at < this.freshMs) read = cached;
      else {
        let pending = this.inFlight.get(key);
        if (!pending) {
          const sentAt = this.now();
          pending = this.track(
            slot,
            readSlot(this.options.reader(), slot, { maxAttempts: 1 }).then((data) => {
              // Stored here as well, which sends it to every terminal.
              this.options.poller.accept(slot, data, sentAt);
              return data;
            }),
          );
        }
        read = await pending;
      }
      // With when it was read: a kept copy, or a read under way when this terminal asked, is older than the ask.
      this.send(peer, { t: 'result', id, ok: true, data: read.data, at: read.at });
    } catch (error) {
      this.send(peer, { t: 'result', id, ok: false, error: wireError(error) });
    }
  }

  /** A read under way, for terminals that ask for the same slot meanwhile; dated when it was sent. */
  private track(slot: Slot, reading: Promise<SlotData>): Promise<Cached> {
    const key = slotKey(slot);
    const sentAt = this.now();
    const pending = reading.then((data) => ({ slot, data, at: sentAt }));
    this.inFlight.set(key, pending);
    const done = () => {
      if (this.inFlight.get(key) === pending) this.inFlight.delete(key);
    };
    pending.then(done, done);
    return pending;
  }

  private async call(peer: Peer, id: number, call: HubCall): Promise<void> {
    const client = this.options.writer();
    try {
      let data: unknown;
      switch (call.op) {
        case 'sendText':
          data = await client.sendText(call.contactId, call.body, { idempotencyKey: call.idempotencyKey });
          break;
        case 'decideAction':
          data = await client.decideAction(call.actionId);
          break;
        case 'draftReply':
          data = await client.draftReply(call.reviewId);
          break;
      }
      this.send(peer, { t: 'result', id, ok: true, data });
    } catch (error) {
      this.send(peer, { t: 'result', id, ok: false, error: wireError(error) });
    }
  }

  /** How many terminals are open, and which contacts are being written to in which. */
  private sendPresence(force = false): void {
    const own = composingContact(this.options.store.getState());
    const ready = [...this.peers].filter((peer) => peer.ready);
    const composing = [own, ...ready.map((peer) => peer.composing)].filter(
      (contactId): contactId is string => contactId !== null,
    );
    const summary = JSON.stringify([ready.length, composing]);
    if (summary === this.lastPresence && !force) return;
    this.lastPresence = summary;
    const terminals = ready.length + 1;
    for (const peer of ready) this.send(peer, { t: 'presence', terminals, composing });
    setPresence(this.options.store, terminals, composing, own);
  }
}

/** What this terminal shows of the others: how many, and who is being written to elsewhere. */
export function setPresence(
  store: AppStore,
  terminals: number,
  composing: string[],
  own: string | null,
): void {
  const elsewhere = [...composing];
  // One of those is this terminal's own composer, if open.
  if (own !== null) {
    const index = elsewhere.indexOf(own);
    if (index !== -1) elsewhere.splice(index, 1);
  }
  const presence = { others: Math.max(0, terminals - 1), composingElsewhere: [...new Set(elsewhere)] };
  const current = store.getState().presence;
  if (
    current.others === presence.others &&
    current.composingElsewhere.join('\u0000') === presence.composingElsewhere.join('\u0000')
  )
    return;
  store.setState({ presence });
}

export function wireError(error: unknown): WireError {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      ...(error.issues ? { issues: error.issues } : {}),
    };
  }
  return { status: 0, code: 'server', message: 'the hub could not make this request' };
}
