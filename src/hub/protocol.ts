/**
 * The hub protocol, version 3 (docs/hub-protocol.md): newline-delimited JSON
 * over a Unix socket between the terminals of one user, shop and key. Every
 * line is parsed with these schemas, and every piece of shop data with the
 * API's own contract, exactly as if it came from the API: nothing from the
 * socket is trusted more than the shop's answers.
 */
import * as z from 'zod';
import { endpoints } from '../contract/endpoints.js';
import { READS, readOf, type Slot, type SlotData } from '../poller/reads.js';
import { type ConversationMarks, ConversationMarksSchema } from '../store/conversation-marks.js';

/**
 * 2: the hub beats (a line every `beatMs`), so that a client tells a hub that stopped from one with nothing to say.
 * 3: read and done marks (`marks`) go both ways: a terminal's new marks to the hub, the hub's to every terminal.
 */
export const PROTOCOL_VERSION = 3;

/** Longest line a hub reads from a terminal: a text's body is at most 1600 characters. */
export const MAX_CLIENT_LINE_BYTES = 64 * 1024;
/** Longest line a terminal reads from its hub: one answer of the API (4 MiB) and its envelope. */
export const MAX_HUB_LINE_BYTES = 4 * 1024 * 1024 + 64 * 1024;

const Id = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const ShortText = (max: number) => z.string().max(max);

/** A slot as a terminal names it: one of the reads' slot schemas (src/poller/reads.ts). */
export const SlotSchema = z.discriminatedUnion(
  'kind',
  nonEmpty(Object.values(READS).map((read) => read.slot)),
);
SlotSchema satisfies z.ZodType<Slot>;

function nonEmpty<T>(items: readonly T[]): [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new TypeError('no reads');
  return [first, ...rest];
}

const Call = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('sendText'),
    contactId: ShortText(200).min(1),
    body: ShortText(2_000),
    idempotencyKey: ShortText(255).min(1),
  }),
  z.object({ op: z.literal('decideAction'), actionId: ShortText(200).min(1) }),
  z.object({ op: z.literal('draftReply'), reviewId: ShortText(200).min(1) }),
]);
export type HubCall = z.infer<typeof Call>;

/** What a terminal says to its hub. */
export const ClientMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), v: z.int(), pid: z.int().optional() }),
  z.object({ t: z.literal('read'), id: Id, slot: SlotSchema }),
  z.object({ t: z.literal('call'), id: Id, call: Call }),
  z.object({ t: z.literal('composing'), contactId: ShortText(200).nullable() }),
  // Read and done marks this terminal made (at most MARKS_PER_LINE leads a line).
  z.object({ t: z.literal('marks'), marks: ConversationMarksSchema }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** The first line of a hub's answer to a hello, read before the rest: its version decides everything else. */
export const Greeting = z.looseObject({ t: z.enum(['welcome', 'refused']), v: z.int() });

const Timestamp = z.number().finite().nonnegative();

/** An error as the hub's client saw it: rebuilt as an ApiError on the terminal, capped again there. */
export const WireError = z.object({
  status: z.int().min(0).max(999),
  code: ShortText(64),
  message: ShortText(2_000),
  retryAfter: z.number().finite().nonnegative().optional(),
  issues: z.array(z.unknown()).max(20).optional(),
});
export type WireError = z.infer<typeof WireError>;

const Read = z.object({ slot: SlotSchema, data: z.unknown(), at: Timestamp });

/** What a hub says to a terminal (after the greeting). */
export const HubMessage = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('welcome'),
    v: z.literal(PROTOCOL_VERSION),
    reads: z.array(Read).max(200),
    /** How often this hub beats. */
    beatMs: z.int().min(10).max(60_000),
  }),
  // The hub is there: sent to every terminal every `beatMs`, whatever else it sends.
  z.object({ t: z.literal('beat') }),
  z.object({ t: z.literal('refused'), v: z.int(), reason: ShortText(200) }),
  z.object({ t: z.literal('data'), ...Read.shape }),
  // ok: the call's answer in `data`; not ok: `error`. A read's answer has `at`: when the copy was read from the
  // shop (its request sent), a copy kept a few seconds or a read already under way when the terminal asked.
  z.object({
    t: z.literal('result'),
    id: Id,
    ok: z.boolean(),
    data: z.unknown().optional(),
    at: Timestamp.optional(),
    error: WireError.optional(),
  }),
  // Read and done marks of the user's terminals on this shop (every one, after the welcome; then what changed).
  z.object({ t: z.literal('marks'), marks: ConversationMarksSchema }),
  z.object({
    t: z.literal('presence'),
    terminals: z.int().min(1).max(10_000),
    composing: z.array(ShortText(200)).max(1_000),
  }),
]);
export type HubMessage = z.infer<typeof HubMessage>;

/** Leads of read and done marks in one line from a terminal: well under MAX_CLIENT_LINE_BYTES. */
export const MARKS_PER_LINE = 200;

/** Marks in lines a hub reads (the first carries the start). */
export function marksInLines(marks: ConversationMarks): ConversationMarks[] {
  const ids = Object.keys(marks.leads);
  const lines: ConversationMarks[] = [];
  for (let at = 0; at === 0 || at < ids.length; at += MARKS_PER_LINE) {
    const leads = Object.fromEntries(
      ids.slice(at, at + MARKS_PER_LINE).map((id) => [id, marks.leads[id] ?? {}]),
    );
    lines.push({ ...(at === 0 && marks.since !== undefined ? { since: marks.since } : {}), leads });
  }
  return lines;
}

/** The slot's data parsed with the API contract (the read's schema in src/poller/reads.ts), or undefined when it does not fit. */
export function parseSlotData(slot: Slot, data: unknown): SlotData | undefined {
  const parsed = readOf(slot.kind).data.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

export function parseCallResult(call: HubCall, data: unknown): unknown {
  const schema =
    call.op === 'sendText'
      ? z.object({ sent: z.boolean(), replayed: z.boolean() })
      : call.op === 'decideAction'
        ? endpoints.decideAction.data
        : endpoints.draftReply.data;
  const parsed = schema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Splits a byte stream into lines of at most `maxBytes`; a longer line (or
 * a stream that never ends one) calls `onOverflow` once and stops, so a peer
 * can never make this process hold more than `maxBytes` of it.
 */
export function lineSplitter(
  maxBytes: number,
  onLine: (line: string) => void,
  onOverflow: () => void,
): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let stopped = false;
  return (chunk) => {
    if (stopped) return;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      if (pendingBytes + (end - start) > maxBytes) {
        stopped = true;
        return onOverflow();
      }
      pending.push(chunk.subarray(start, end));
      const line = Buffer.concat(pending).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = end + 1;
      onLine(line);
      if (stopped) return;
    }
    const rest = chunk.length - start;
    if (pendingBytes + rest > maxBytes) {
      stopped = true;
      return onOverflow();
    }
    if (rest > 0) {
      pending.push(Buffer.from(chunk.subarray(start)));
      pendingBytes += rest;
    }
  };
}

/** One JSON line, or undefined when it is not JSON. */
export function jsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
