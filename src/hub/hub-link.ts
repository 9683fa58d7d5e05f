/**
 * A terminal's link to the hub of its box: it says hello with its protocol
 * version, takes the hub's reads as they come (parsed with the API contract,
 * like the API's own answers), and gives the session a ShopClient whose
 * reads and writes the hub makes through the one budget. A write keeps its
 * Idempotency-Key: if the hub goes away during it, the call fails as a
 * network failure would, and the sender tries again with the same key.
 *
 * The hub beats every second. A hub not heard for `silenceMs` (stopped,
 * SIGSTOP, or its process stuck) is reported silent, and every call waiting
 * on it fails the same way: its outcome is unknown, and a text is tried
 * again with its key, by this terminal itself. A line from it later reports
 * it heard again.
 */
import { connect, type Socket } from 'node:net';
import type { CallOptions, SendTextOptions, SendTextResult, ShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { DecisionResult, ReplyDraft } from '../contract/resources.js';
import { noteReadTime, type Slot, type SlotData } from '../poller/reads.js';
import { type ConversationMarks, marksFrom } from '../store/conversation-marks.js';
import {
  Greeting,
  type HubCall,
  HubMessage,
  jsonLine,
  lineSplitter,
  MAX_HUB_LINE_BYTES,
  marksInLines,
  PROTOCOL_VERSION,
  parseCallResult,
  parseSlotData,
} from './protocol.js';

export interface HubRead {
  slot: Slot;
  data: SlotData;
  at: number;
}

export interface HubLinkEvents {
  onRead(read: HubRead): void;
  onPresence(terminals: number, composing: string[]): void;
  /** Read and done marks of the user's terminals (all of them after the welcome, then what changed). */
  onMarks?(marks: ConversationMarks): void;
  /** The hub went away (exited, killed, or broke the protocol). */
  onClose(): void;
  /** Nothing from the hub for the silence threshold: it may be stopped (its socket still open). */
  onSilent?(): void;
  /** A line from the hub after it was silent. */
  onHeard?(): void;
}

export interface LinkOptions {
  /** A hub not heard for this long is silent. Default 4 s; never under three of the hub's beats. */
  silenceMs?: number;
}

export const DEFAULT_SILENCE_MS = 4_000;

export type LinkResult =
  | { kind: 'linked'; link: HubLink; reads: HubRead[] }
  /** Nobody listens there (no socket, or the hub that made it is gone). */
  | { kind: 'absent' }
  /** Something listens but speaks another version of the protocol. */
  | { kind: 'refused'; version: number }
  /** Something listens but did not answer as a hub (busy, stopped, or not a hub). */
  | { kind: 'silent' };

/** Longest wait for a hub's welcome. */
const WELCOME_TIMEOUT_MS = 1_500;
/** Longest wait for a hub's answer to one read or write (the hub's own call deadline is 30 s). */
const CALL_TIMEOUT_MS = 45_000;

const endpointOf = (call: HubCall['op'] | 'read') =>
  call === 'sendText'
    ? 'POST /contacts/{id}/messages'
    : call === 'decideAction'
      ? 'PATCH /actions/{id}'
      : call === 'draftReply'
        ? 'POST /reviews/{id}/draft'
        : 'GET (through the hub)';

function hubGone(endpoint: string): ApiError {
  return new ApiError({
    status: 0,
    code: 'network',
    endpoint,
    message: "the inbox that read the shop for this terminal (the box's hub) went away",
  });
}

function hubSilent(endpoint: string): ApiError {
  return new ApiError({
    status: 0,
    code: 'network',
    endpoint,
    message: "the inbox that reads the shop for this terminal (the box's hub) is not answering",
  });
}

/** Connects and says hello; resolves with the link, or with why there is none. */
export function linkToHub(
  socketPath: string,
  events: HubLinkEvents,
  options: LinkOptions = {},
): Promise<LinkResult> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let settled = false;
    const settle = (result: LinkResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result.kind !== 'linked') socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => settle({ kind: 'silent' }), WELCOME_TIMEOUT_MS);
    socket.once('error', (error: NodeJS.ErrnoException) => {
      settle(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? { kind: 'absent' } : { kind: 'silent' },
      );
    });
    socket.once('close', () => settle({ kind: 'absent' }));
    socket.once('connect', () =>
      socket.write(`${JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, pid: process.pid })}\n`),
    );
    let link: HubLink | undefined;
    const onData = lineSplitter(
      MAX_HUB_LINE_BYTES,
      (line) => {
        const json = jsonLine(line);
        if (!link) {
          const greeting = Greeting.safeParse(json);
          if (!greeting.success) return settle({ kind: 'silent' });
          if (greeting.data.t === 'refused' || greeting.data.v !== PROTOCOL_VERSION)
            return settle({ kind: 'refused', version: greeting.data.v });
          const welcome = HubMessage.safeParse(json);
          if (!welcome.success || welcome.data.t !== 'welcome') return settle({ kind: 'silent' });
          link = new HubLink(
            socket,
            events,
            Math.max(options.silenceMs ?? DEFAULT_SILENCE_MS, 3 * welcome.data.beatMs),
          );
          const reads = welcome.data.reads.flatMap((read) => {
            const data = parseSlotData(read.slot, read.data);
            return data === undefined ? [] : [{ slot: read.slot, data, at: read.at }];
          });
          return settle({ kind: 'linked', link, reads });
        }
        link.receive(json);
      },
      () => (link ? link.close() : settle({ kind: 'silent' })),
    );
    socket.on('data', onData);
  });
}

interface Pending {
  resolve: (answer: { data: unknown; at?: number }) => void;
  reject: (error: ApiError) => void;
  endpoint: string;
}

export class HubLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  private lastHeard = Date.now();
  private silent = false;
  private readonly watchdog: NodeJS.Timeout;
  private lastWatch = Date.now();
  private readonly watchEveryMs: number;

  constructor(
    private readonly socket: Socket,
    private readonly events: HubLinkEvents,
    private readonly silenceMs: number = DEFAULT_SILENCE_MS,
  ) {
    socket.on('close', () => this.close());
    socket.on('error', () => socket.destroy());
    this.watchEveryMs = Math.max(20, Math.min(500, Math.floor(silenceMs / 4)));
    this.watchdog = setInterval(() => this.watch(), this.watchEveryMs);
    this.watchdog.unref?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Not heard for the silence threshold, and not heard since. */
  get isSilent(): boolean {
    return this.silent;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    this.socket.destroy();
    this.failPending(hubGone);
    this.events.onClose();
  }

  private failPending(why: (endpoint: string) => ApiError): void {
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      call.reject(why(call.endpoint));
    }
  }

  private watch(): void {
    const now = Date.now();
    const sinceLastWatch = now - this.lastWatch;
    this.lastWatch = now;
    // This terminal was itself stopped or stuck: what the hub sent meanwhile is read before judging it.
    if (sinceLastWatch > this.watchEveryMs + this.silenceMs / 2) return;
    if (this.silent || this.closed || now - this.lastHeard <= this.silenceMs) return;
    this.silent = true;
    // Whatever was asked of it may or may not have been done: its callers try again (a text with its key).
    this.failPending(hubSilent);
    this.events.onSilent?.();
  }

  composing(contactId: string | null): void {
    this.write({ t: 'composing', contactId });
  }

  /** Tells the hub of read and done marks made here (it merges them and tells every terminal). */
  marks(marks: ConversationMarks): void {
    for (const line of marksInLines(marks)) this.write({ t: 'marks', marks: line });
  }

  /** One line from the hub: anything that does not parse ends the link (the terminal then finds another hub). */
  receive(json: unknown): void {
    const parsed = HubMessage.safeParse(json);
    if (!parsed.success) {
      this.close();
      return;
    }
    this.lastHeard = Date.now();
    if (this.silent) {
      this.silent = false;
      this.events.onHeard?.();
    }
    const message = parsed.data;
    if (message.t === 'beat') return;
    if (message.t === 'data') {
      const data = parseSlotData(message.slot, message.data);
      // Shop data that does not fit the contract is dropped, as the API client drops it.
      if (data !== undefined) this.events.onRead({ slot: message.slot, data, at: message.at });
    } else if (message.t === 'result') {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      if (message.ok) {
        call.resolve({ data: message.data, ...(message.at !== undefined ? { at: message.at } : {}) });
        return;
      }
      const error = message.error ?? { status: 0, code: 'bad_response', message: 'the hub gave no reason' };
      call.reject(
        new ApiError({
          ...error,
          endpoint: call.endpoint,
          ...(error.retryAfter !== undefined ? { retryAfter: Math.min(error.retryAfter, 3_600) } : {}),
        }),
      );
    } else if (message.t === 'presence') {
      this.events.onPresence(message.terminals, message.composing);
    } else if (message.t === 'marks') {
      this.events.onMarks?.(marksFrom(message.marks));
    } else {
      // A second welcome, or a refusal now: not a hub this terminal can follow.
      this.close();
    }
  }

  private write(message: unknown): void {
    if (!this.closed) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  private request(
    message: Record<string, unknown>,
    endpoint: string,
    signal?: AbortSignal,
  ): Promise<{ data: unknown; at?: number }> {
    if (this.closed) return Promise.reject(hubGone(endpoint));
    if (this.silent) return Promise.reject(hubSilent(endpoint));
    if (signal?.aborted)
      return Promise.reject(
        new ApiError({ status: 0, code: 'aborted', endpoint, message: 'the request was cancelled' }),
      );
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new ApiError({
            status: 0,
            code: 'timeout',
            endpoint,
            message: 'the hub of this box did not answer',
          }),
        );
      }, CALL_TIMEOUT_MS);
      timer.unref?.();
      const onAbort = () => {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new ApiError({ status: 0, code: 'aborted', endpoint, message: 'the request was cancelled' }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, {
        endpoint,
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.write({ ...message, id });
    });
  }

  async read(slot: Slot, options?: CallOptions): Promise<SlotData> {
    const endpoint = endpointOf('read');
    const answer = await this.request({ t: 'read', slot }, endpoint, options?.signal);
    const data = parseSlotData(slot, answer.data);
    if (data === undefined)
      throw new ApiError({
        status: 0,
        code: 'bad_response',
        endpoint,
        message: 'the hub passed on an answer of an unexpected shape',
      });
    if (answer.at !== undefined) noteReadTime(data, answer.at);
    return data;
  }

  async call(call: HubCall, signal?: AbortSignal): Promise<unknown> {
    const endpoint = endpointOf(call.op);
    const data = parseCallResult(call, (await this.request({ t: 'call', call }, endpoint, signal)).data);
    if (data === undefined) {
      throw new ApiError({
        status: 0,
        code: 'bad_response',
        endpoint,
        message: `the hub passed on an answer of an unexpected shape${call.op === 'sendText' ? '; the text may have been sent: check the thread before sending again' : ''}`,
      });
    }
    return data;
  }

  /** A ShopClient whose every call the hub makes. */
  client(baseUrl: string, readOnly: () => boolean, setReadOnly: (value: boolean) => void): ShopClient {
    const local = (endpoint: string) => {
      if (readOnly())
        throw new ApiError({
          status: 0,
          code: 'read_only',
          local: true,
          endpoint,
          message: `read-only mode: ${endpoint} was not sent`,
        });
    };
    const read = <T>(slot: Slot, options?: CallOptions) => this.read(slot, options) as Promise<T>;
    return {
      baseUrl,
      get readOnly() {
        return readOnly();
      },
      setReadOnly,
      getMe: (o) => read({ kind: 'me' }, o),
      getToday: (_p, o) => read({ kind: 'today' }, o),
      getBilling: (o) => read({ kind: 'billing' }, o),
      getTexting: (o) => read({ kind: 'texting' }, o),
      getInbox: (p, o) => read({ kind: 'inbox', filter: p?.filter ?? 'open' }, o),
      getContacts: (p, o) => read({ kind: 'contacts', query: p?.q ?? '' }, o),
      getLead: (leadId, _p, o) => read({ kind: 'lead', id: leadId }, o),
      getReviews: (_p, o) => read({ kind: 'reviews' }, o),
      getActions: (p, o) => read({ kind: 'actions', status: p?.status ?? 'pending_approval' }, o),
      getOpenApi: (o) => read({ kind: 'apiSpec' }, o),
      sendText: async (contactId: string, body: string, o?: SendTextOptions) => {
        const endpoint = endpointOf('sendText');
        local(endpoint);
        if (!o?.idempotencyKey)
          throw new ApiError({
            status: 0,
            code: 'invalid',
            local: true,
            endpoint,
            message: 'a text goes through the hub only with its Idempotency-Key',
          });
        return (await this.call(
          { op: 'sendText', contactId, body, idempotencyKey: o.idempotencyKey },
          o.signal,
        )) as SendTextResult;
      },
      decideAction: async (actionId, _status, o) => {
        local(endpointOf('decideAction'));
        return (await this.call({ op: 'decideAction', actionId }, o?.signal)) as DecisionResult;
      },
      draftReply: async (reviewId, o) => {
        local(endpointOf('draftReply'));
        return (await this.call({ op: 'draftReply', reviewId }, o?.signal)) as ReplyDraft;
      },
    };
  }
}
