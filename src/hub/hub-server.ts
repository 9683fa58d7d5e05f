/**
 * The hub: the first inbox of a user for a shop and key. It runs the one
 * poller and the one request budget of the box, hands every read it makes to
 * the other terminals, reads for them what their screens need (from what it
 * read moments ago when it can), performs their writes through its budget,
 * and tells everyone how many terminals are open and which contacts are
 * being written to. Protocol: docs/hub-protocol.md.
 */
import { chmod } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { ShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Poller } from '../poller/poller.js';
import { readSlot } from '../poller/read-slot.js';
import { type Slot, slotKey } from '../poller/refresh-plan.js';
import type { SlotData } from '../poller/store-writes.js';
import { type AppStore, composingContact } from '../store/app-store.js';
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
  now?: () => number;
}

/** Terminals beyond this are refused: a box has a few desks, not hundreds. */
const MAX_PEERS = 64;
/** A terminal that does not read what it is sent is dropped before it fills this process's memory. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/** Threads kept to hand out: as many as a store keeps. */
const MAX_CACHED_LEADS = 50;

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
  private readonly now: () => number;
  private unsubscribe: (() => void) | undefined;
  private lastPresence = '';
  private closed = false;

  constructor(private readonly options: HubServerOptions) {
    this.freshMs = options.freshMs ?? 3_000;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 2_000;
    this.now = options.now ?? Date.now;
    this.server = createServer((socket) => this.accept(socket));
    this.server.maxConnections = MAX_PEERS;
  }

  /** Listens on the socket path (which must not exist), 0600 before anyone else is told it exists. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.server.on('error', () => {});
    await chmod(this.options.socketPath, 0o600);
    this.options.poller.onData = (slot, data, at) => this.remember(slot, data, at);
    // A terminal asking for what this hub's poller is reading right now gets that read, not a second one.
    this.options.poller.onReading = (slot, reading) => this.track(slot, reading);
    this.unsubscribe = this.options.store.subscribe((state, previous) => {
      if (composingContact(state) !== composingContact(previous)) this.sendPresence();
    });
    this.sendPresence();
  }

  get terminals(): number {
    return 1 + [...this.peers].filter((peer) => peer.ready).length;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.options.poller.onData = undefined;
    this.options.poller.onReading = undefined;
    // Closing the listener unlinks the socket file; the terminals see their hub go and elect another.
    this.server.close();
    for (const peer of this.peers) peer.socket.destroy();
    this.peers.clear();
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
            });
            this.sendPresence(true);
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
    // Contacts searches are per terminal: only the terminal that asked gets its answer.
    if (slot.kind === 'contacts' && slot.query !== '') return;
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
          pending = this.track(
            slot,
            readSlot(this.options.reader(), slot, { maxAttempts: 1 }).then((data) => {
              // Stored here as well, which sends it to every terminal.
              this.options.poller.accept(slot, data, this.now());
              return data;
            }),
          );
        }
        read = await pending;
      }
      this.send(peer, { t: 'result', id, ok: true, data: read.data });
    } catch (error) {
      this.send(peer, { t: 'result', id, ok: false, error: wireError(error) });
    }
  }

  /** A read under way, for terminals that ask for the same slot meanwhile. */
  private track(slot: Slot, reading: Promise<SlotData>): Promise<Cached> {
    const key = slotKey(slot);
    const pending = reading.then((data) => ({ slot, data, at: this.now() }));
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
