/**
 * A loopback HTTP server that misbehaves on purpose, for tests of the client
 * and of the inbox against everything a broken or hostile shop API (or a proxy
 * in front of it) can do: bodies that never end or are huge, megabyte error
 * strings, HTML error pages, answers trickled byte by byte, redirects to
 * another origin, malformed JSON, hung requests, and schema-valid answers whose
 * every string carries terminal-injection payloads.
 *
 *   const hostile = await startHostileServer({ upstream: sim.baseUrl });  // or no upstream
 *   hostile.behave({ kind: 'endless' }, 'getInbox');   // one endpoint (or several)
 *   hostile.behave({ kind: 'injection' });             // every endpoint
 *   hostile.reset();                                   // back to normal answers
 *   ...point the client / the CLI at hostile.baseUrl...
 *   hostile.requests, hostile.elsewhere.requests      // what reached it, what followed a redirect
 *
 * Behaviour can change at any time; a request takes the behaviour in force
 * when it arrives. "normal" proxies to `upstream` (e.g. the simulator) when one
 * is given, and otherwise serves plain schema-valid answers made here.
 *
 * The payload list and the answer maker are exported too, so display and pty
 * tests can reuse them without a server.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { createBrotliCompress, createDeflate, createGzip, constants as zlibConstants } from 'node:zlib';
import { type EndpointName, endpointList } from '../../src/contract/endpoints.js';

// ---------------------------------------------------------------------------------------------
// Payloads

export interface InjectionPayload {
  /** Short name for test titles and failure messages. */
  name: string;
  text: string;
  /**
   * "control": must never reach a terminal as it is (escape sequences, C0/C1
   * controls, bidi overrides). "text": what people write (emoji, scripts,
   * combining marks): must be kept and shown.
   */
  kind: 'control' | 'text';
  /**
   * For a control payload: the raw characters whose presence in a program's
   * terminal output proves the payload got through unsanitized. Absent for
   * the control payloads that a program's own drawing also uses (CSI H, CR,
   * BEL …), whose effect must be checked on the screen instead.
   */
  evidence?: string;
}

const ESC = '\u001B';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Base64 of "HIJACKED": what an OSC 52 payload tries to put on the clipboard. */
export const CLIPBOARD_PAYLOAD_BASE64 = 'SElKQUNLRUQ=';
/** The window title the title payloads try to set. */
export const TITLE_PAYLOAD = 'PWNED-TITLE';

export const INJECTION_PAYLOADS: readonly InjectionPayload[] = [
  {
    name: 'OSC 52 clipboard write (BEL)',
    text: `${ESC}]52;c;${CLIPBOARD_PAYLOAD_BASE64}${BEL}`,
    kind: 'control',
    evidence: `${ESC}]52;`,
  },
  {
    name: 'OSC 52 clipboard write (ST)',
    text: `${ESC}]52;c;${CLIPBOARD_PAYLOAD_BASE64}${ST}`,
    kind: 'control',
    evidence: `${ESC}]52;`,
  },
  { name: 'OSC 0 title', text: `${ESC}]0;${TITLE_PAYLOAD}${BEL}`, kind: 'control', evidence: `${ESC}]0;` },
  { name: 'OSC 2 title', text: `${ESC}]2;${TITLE_PAYLOAD}${ST}`, kind: 'control', evidence: TITLE_PAYLOAD },
  {
    name: 'OSC 8 hyperlink',
    text: `${ESC}]8;;https://evil.example/${BEL}click me${ESC}]8;;${BEL}`,
    kind: 'control',
    evidence: `${ESC}]8;`,
  },
  { name: 'CSI 2J clear screen, CSI H home', text: `${ESC}[2J${ESC}[H`, kind: 'control' },
  { name: 'CSI 3J clear scrollback', text: `${ESC}[3J`, kind: 'control', evidence: `${ESC}[3J` },
  { name: 'CSI cursor up 10', text: `${ESC}[10A`, kind: 'control', evidence: `${ESC}[10A` },
  { name: 'SGR conceal', text: `${ESC}[8mhidden${ESC}[0m`, kind: 'control', evidence: `${ESC}[8m` },
  { name: 'leave the alternate screen', text: `${ESC}[?1049l`, kind: 'control' },
  { name: 'DCS string', text: `${ESC}Pq#0;2;0;0;0${ST}`, kind: 'control', evidence: `${ESC}Pq` },
  { name: 'BEL', text: BEL, kind: 'control' },
  { name: 'bare CR (overwrites the line)', text: `looks fine\rOVERWRITTEN`, kind: 'control' },
  { name: 'backspace and DEL', text: 'abc\b\b\b\u007Fxyz', kind: 'control', evidence: '\b\b\b' },
  { name: 'NUL, VT and FF', text: 'a\u0000b\u000Bc\u000Cd', kind: 'control', evidence: '\u000B' },
  { name: 'lone ESC', text: `${ESC}`, kind: 'control' },
  { name: 'C1 CSI (U+009B) without ESC', text: '\u009B2J\u009BH', kind: 'control', evidence: '\u009B' },
  {
    name: 'C1 OSC (U+009D) without ESC',
    text: `\u009D0;${TITLE_PAYLOAD}${BEL}`,
    kind: 'control',
    evidence: '\u009D',
  },
  { name: 'C1 NEL, RI, DCS, ST', text: '\u0085\u008D\u0090x\u009C', kind: 'control', evidence: '\u008D' },
  { name: 'bidi RLO override', text: '\u202Etxet.exe\u202C', kind: 'control', evidence: '\u202E' },
  { name: 'bidi isolates', text: '\u2067abc\u2069\u2066def\u2069', kind: 'control', evidence: '\u2067' },
  { name: 'LRM, RLM, ALM', text: 'a\u200Eb\u200Fc\u061Cd', kind: 'control', evidence: '\u200F' },
  {
    name: 'line and paragraph separators',
    text: 'one\u2028two\u2029three',
    kind: 'control',
    evidence: '\u2028',
  },
  { name: 'tab', text: 'a\tb', kind: 'control' },
  { name: 'emoji with skin tone', text: '👍🏽👋🏿', kind: 'text' },
  { name: 'ZWJ family', text: '👨‍👩‍👧‍👦', kind: 'text' },
  { name: 'flags', text: '🇺🇦🇯🇵🏳️‍🌈🏴󠁧󠁢󠁥󠁮󠁧󠁿', kind: 'text' },
  { name: 'keycap', text: '1️⃣', kind: 'text' },
  { name: 'CJK', text: '東京の配管工', kind: 'text' },
  { name: 'full-width Latin', text: 'ＦＵＬＬ', kind: 'text' },
  { name: 'combining marks', text: 'e\u0301 Z\u0324\u0354\u0367a\u0308\u0356lgo', kind: 'text' },
  { name: 'RTL Arabic', text: 'مرحبا بالعالم', kind: 'text' },
  { name: 'RTL Hebrew', text: 'שלום', kind: 'text' },
];

/** Every payload, one after another: for long fields (message bodies, review text). */
export const ALL_PAYLOADS_TEXT = INJECTION_PAYLOADS.map((payload) => payload.text).join(' ');

/** The `index`-th payload (cycling) in front of a readable label, e.g. "␛]52;…␇Lead 3". */
export function hostileString(label: string, index: number): string {
  const payload = INJECTION_PAYLOADS[index % INJECTION_PAYLOADS.length];
  return `${payload?.text ?? ''}${label}`;
}

// ---------------------------------------------------------------------------------------------
// Schema-valid answers

export interface AnswerOptions {
  /** "hostile": every string carries a payload; "plain": ordinary strings. */
  strings: 'hostile' | 'plain';
  /** Items per list (at most the request's `limit`). Default 12. */
  listLength?: number;
  /** Timestamps valid ISO 8601 even in hostile answers (default: hostile like every other string). */
  validTimestamps?: boolean;
}

/**
 * The `data` of a schema-valid v1 answer for `endpoint` (the whole document for
 * getOpenApi, which has no envelope). In hostile mode, every string field, ids,
 * kinds, statuses and URLs included, starts with an injection payload.
 */
export function makeAnswer(
  endpoint: EndpointName,
  params: { id?: string; limit?: number; filter?: string } = {},
  options: AnswerOptions = { strings: 'hostile' },
): unknown {
  let counter = 0;
  const hostile = options.strings === 'hostile';
  const s = (label: string) => (hostile ? hostileString(label, counter++) : label);
  const long = (label: string) => (hostile ? `${label}: ${ALL_PAYLOADS_TEXT} (end)` : label);
  const time = (minutesAgo: number) => {
    const iso = new Date(Date.now() - minutesAgo * 60_000).toISOString();
    return hostile && !options.validTimestamps ? hostileString(iso, counter++) : iso;
  };
  const count = Math.max(0, Math.min(params.limit ?? 25, options.listLength ?? 12));
  const list = <T>(make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));
  const action = (i: number) => ({
    id: s(`act_${i}`),
    kind: s('review_reply'),
    status: s('pending_approval'),
    generated_at: time(i * 7),
    summary: s(`Reply to review ${i}`),
  });
  switch (endpoint) {
    case 'getMe':
      return {
        identity: {
          email: s('owner@shop.example'),
          first_name: s('Dana'),
          business_name: s('Hostile Plumbing'),
        },
        gaps: [s('gap: no website'), s('gap: no hours')],
        billing_pulse: { status: s('active'), current_period_end: time(-43_200) },
        texting_pulse: { texting_status: s('active'), texting_number: s('+15550100000') },
        google_pulse: { connected: true },
        inbox_pulse: { open_leads: count, needs_callback: Math.min(count, 3) },
        reviews_pulse: { unreplied: Math.min(count, 4) },
        credits_pulse: { used: 12, included: 500, remaining: 488 },
        pending_actions: count,
        links: { today: s('https://shop.example/today'), inbox: s('https://shop.example/inbox') },
        motd: s('an unknown extra field'),
      };
    case 'getToday':
      return {
        pending_actions: list(action),
        activity: list((i) => ({
          kind: s('sms_inbound'),
          summary: long(`Activity ${i}`),
          created_at: time(i * 3),
        })),
      };
    case 'getBilling':
      return {
        subscription: { status: s('active'), plan: s('Pro'), current_period_end: time(-43_200) },
        payment_method: { brand: s('visa'), last4: s('4242') },
      };
    case 'getTexting':
      return {
        texting_number: s('+15550100000'),
        texting_status: s('active'),
        campaign_approved: true,
        forwarding_verified_at: time(10_000),
      };
    case 'getInbox':
      return {
        filter: s(params.filter ?? 'open'),
        open_leads: list((i) => ({
          id: s(`lead_${i}`),
          status: s('new'),
          urgency: s('same_day'),
          contact_name: s(`Customer ${i}`),
          caller_phone: s(`+1555010${String(i).padStart(4, '0')}`),
          job_type: s(`Leaking tap ${i}`),
          created_at: time(i * 11),
        })),
        latest_inbound: list((i) => ({ occurred_at: time(i * 5), body_preview: long(`Preview ${i}`) })),
      };
    case 'getContacts':
      return {
        items: list((i) => ({
          id: s(`con_${i}`),
          name: s(`Contact ${i}`),
          phone: s(`+1555020${String(i).padStart(4, '0')}`),
          email: s(`c${i}@mail.example`),
          stage: s('lead'),
          last_contact_at: time(i * 60),
        })),
      };
    case 'getLead': {
      const id = params.id ?? s('lead_0');
      return {
        lead: {
          id,
          status: s('new'),
          urgency: s('same_day'),
          contact_id: s('con_0'),
          source: s('missed_call'),
          created_at: time(90),
        },
        contact: {
          id: s('con_0'),
          name: s('Customer in thread'),
          phone: s('+15550300000'),
          stage: s('lead'),
        },
        messages: list((i) => ({
          id: s(`msg_${i}`),
          direction: s(i % 2 === 0 ? 'inbound' : 'outbound'),
          body: long(`Message ${i}`),
          occurred_at: time(90 - i),
        })),
        consent_latest: { phone: s('+15550300000'), sms_initial: true, recorded_at: time(100) },
      };
    }
    case 'sendText':
      return { sent: true, replayed: false, message_id: s('msg_sent') };
    case 'getReviews':
      return {
        items: list((i) => ({
          id: s(`rev_${i}`),
          reviewer_name: s(`Reviewer ${i}`),
          rating: (i % 5) + 1,
          review_text: long(`Review ${i}`),
          created_at_google: time(i * 1_440),
          replied_at: i % 3 === 0 ? time(i * 1_000) : null,
        })),
        unreplied_in_page: count,
      };
    case 'draftReply':
      return { reply: long('Thank you'), is_negative: false, review_id: params.id ?? s('rev_0') };
    case 'getActions':
      return { items: list(action) };
    case 'decideAction':
      return { status: s('published') };
    case 'getOpenApi':
      return { openapi: s('3.1.0'), info: { title: s('Shop API'), version: s('v1') }, paths: {} };
  }
}

// ---------------------------------------------------------------------------------------------
// Behaviours

export type HostileBehaviour =
  /** Proxy to `upstream` when given, otherwise plain schema-valid answers. */
  | { kind: 'normal' }
  /** Schema-valid answers whose every string carries a payload (see makeAnswer). */
  | { kind: 'injection'; listLength?: number; validTimestamps?: boolean }
  /**
   * HTTP 200 (or `status`), a JSON-looking body that never ends. As fast as the
   * client reads, or `bytesPerSecond`.
   */
  | { kind: 'endless'; bytesPerSecond?: number; status?: number }
  /** A complete, valid JSON body of `bytes` (default 50 MiB), with Content-Length unless told not to. */
  | { kind: 'huge'; bytes?: number; contentLength?: boolean }
  /**
   * An error envelope with megabyte strings: `messageBytes` of error (default
   * 1 MiB), `codeBytes` of code (default: "invalid"), `issues` items of
   * `issueBytes` each, and a `retryAfter` header if given.
   */
  | {
      kind: 'bigError';
      status?: number;
      messageBytes?: number;
      codeBytes?: number;
      issues?: number;
      issueBytes?: number;
      retryAfter?: string;
    }
  /** An error envelope whose error, code and issues carry payloads (default 422). */
  | { kind: 'hostileError'; status?: number; retryAfter?: string }
  /** A proxy's HTML error page (default 502), with Retry-After if given. */
  | { kind: 'html'; status?: number; retryAfter?: string }
  /**
   * A normal answer sent byte by byte with `delayMs` (default 50) between bytes:
   * the headers, or (headers at once) the body. `endless` with part "body":
   * the body trickles forever.
   */
  | { kind: 'trickle'; part: 'headers' | 'body'; delayMs?: number; endless?: boolean }
  /** A redirect (default 307) to `location`, by default the same path on the `elsewhere` server. */
  | { kind: 'redirect'; status?: number; location?: string }
  /** HTTP 200, application/json, a body cut in the middle of an object. */
  | { kind: 'malformed' }
  /** Never answers; the connection stays open. */
  | { kind: 'hang' }
  /**
   * Forwards the request to `upstream`, where it is carried out (a text is really sent), then never
   * answers: the answer lost on the way back.
   */
  | { kind: 'swallow' }
  /**
   * A compressed answer (Content-Encoding `encoding`): a plain one by default;
   * with `inflatesTo`, a small body that inflates to that many bytes (a "zip
   * bomb"); with `corrupt`, bytes that are not what the encoding says.
   */
  | { kind: 'compressed'; encoding: 'gzip' | 'deflate' | 'br'; inflatesTo?: number; corrupt?: boolean }
  /** Any status, headers and body. */
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> };

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  /** The endpoint the path and method match, when one does. */
  endpoint: EndpointName | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** The request body (at most 1 MiB of it). */
  body: string;
  /** The behaviour that answered it. */
  behaviour: HostileBehaviour['kind'];
  /** Bytes of response body written so far (counted by the streaming behaviours and the proxy). */
  bytesSent: number;
  /** The connection closed (by either side) before this answer was complete. */
  closedEarly: boolean;
}

export interface RecordingServer {
  origin: string;
  /** Everything that reached it. */
  requests: RecordedRequest[];
}

export interface HostileServer {
  /** `http://127.0.0.1:PORT/v1`: give this to the client or the CLI (SHOP_API_BASE_URL). */
  baseUrl: string;
  origin: string;
  port: number;
  /** The other loopback origin redirects point at by default: it records whatever reaches it. */
  elsewhere: RecordingServer;
  /** Every request that reached this server, in order. */
  requests: RecordedRequest[];
  /**
   * How this server answers from now on. Without `where`: everywhere (per-endpoint behaviours are
   * dropped). With `where`: on those endpoints only, whatever the behaviour everywhere else.
   */
  behave(behaviour: HostileBehaviour, where?: EndpointName | readonly EndpointName[]): void;
  /** Back to normal answers everywhere (or on the given endpoints only). */
  reset(where?: EndpointName | readonly EndpointName[]): void;
  /** Connections open right now (a client that drops a body closes its connection). */
  openConnections(): number;
  close(): Promise<void>;
}

export interface HostileServerOptions {
  /** Where "normal" requests are proxied, e.g. a simulator's base URL (only its origin is used). */
  upstream?: string;
  /** The behaviour everywhere at start. Default "normal". */
  behaviour?: HostileBehaviour;
}

const BASE_PATH = '/v1';
const LOG_BODY_MAX = 1024 * 1024;
const CHUNK = 64 * 1024;

function matchEndpoint(method: string, path: string): { name: EndpointName; id?: string } | undefined {
  if (!path.startsWith(`${BASE_PATH}/`)) return undefined;
  const rest = path.slice(BASE_PATH.length);
  for (const endpoint of endpointList) {
    if (endpoint.method !== method) continue;
    const [before, after] = endpoint.path.split('{id}');
    if (after === undefined) {
      if (rest === endpoint.path) return { name: endpoint.name };
      continue;
    }
    if (!rest.startsWith(before ?? '') || !rest.endsWith(after)) continue;
    const raw = rest.slice((before ?? '').length, rest.length - after.length);
    if (raw === '' || raw.includes('/')) continue;
    try {
      return { name: endpoint.name, id: decodeURIComponent(raw) };
    } catch {
      return { name: endpoint.name, id: raw };
    }
  }
  return undefined;
}

function collectBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size < LOG_BODY_MAX) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').slice(0, LOG_BODY_MAX)));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

/** A JSON-looking stream: the start of an inbox answer, then lead after lead, never closed. */
const ENDLESS_PREFIX = '{"data":{"filter":"open","latest_inbound":[],"open_leads":[';
const ENDLESS_ITEM =
  '{"id":"lead_endless","status":"new","urgency":"same_day","contact_name":"Endless Customer","caller_phone":"+15550199999","job_type":"Flooded basement","created_at":"2026-11-21T12:00:00Z"},';
function endlessChunk(size: number): Buffer {
  return Buffer.from(ENDLESS_ITEM.repeat(Math.ceil(size / ENDLESS_ITEM.length)).slice(0, size));
}

export async function startHostileServer(options: HostileServerOptions = {}): Promise<HostileServer> {
  const upstream = options.upstream ? new URL(options.upstream) : undefined;
  let everywhere: HostileBehaviour = options.behaviour ?? { kind: 'normal' };
  const perEndpoint = new Map<EndpointName, HostileBehaviour>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  /** Timers of trickling and paced answers, stopped on close. */
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  // The other origin: whatever reaches it is recorded, and answered like a success, so that a
  // client that follows a redirect would look as if it had worked.
  const elsewhereRequests: RecordedRequest[] = [];
  const elsewhereServer = createServer(async (req, res) => {
    const body = await collectBody(req);
    elsewhereRequests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      endpoint: matchEndpoint(req.method ?? '', new URL(req.url ?? '/', 'http://x').pathname)?.name,
      headers: { ...req.headers },
      body,
      behaviour: 'normal',
      bytesSent: 0,
      closedEarly: false,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"sent":true,"replayed":false}}');
  });
  const elsewherePort = await listen(elsewhereServer);
  const elsewhereOrigin = `http://127.0.0.1:${elsewherePort}`;

  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://hostile.invalid');
    const match = matchEndpoint(method, url.pathname);
    const behaviour = (match && perEndpoint.get(match.name)) ?? everywhere;
    const body = await collectBody(req);
    const record: RecordedRequest = {
      method,
      url: req.url ?? '',
      endpoint: match?.name,
      headers: { ...req.headers },
      body,
      behaviour: behaviour.kind,
      bytesSent: 0,
      closedEarly: false,
    };
    requests.push(record);
    // Raw-socket answers never finish `res`: they say so through done().
    let rawDone = false;
    res.on('close', () => {
      if (!res.writableFinished && !rawDone) record.closedEarly = true;
    });
    const done = () => {
      rawDone = true;
    };
    answer(behaviour, { req, res, record, match, url, body, done });
  });

  interface Exchange {
    req: IncomingMessage;
    res: ServerResponse;
    record: RecordedRequest;
    match: { name: EndpointName; id?: string } | undefined;
    url: URL;
    body: string;
    /** For answers written on the raw socket: the answer is complete. */
    done: () => void;
  }

  const sendJson = (x: Exchange, status: number, value: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(value);
    x.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    x.res.end(text);
    x.record.bytesSent = Buffer.byteLength(text);
  };

  const notFound = (x: Exchange) => sendJson(x, 404, { error: 'no such endpoint', code: 'not_found' });

  const answerData = (x: Exchange, strings: 'hostile' | 'plain', extra: Partial<AnswerOptions> = {}) => {
    if (!x.match) return notFound(x);
    const limit = Number(x.url.searchParams.get('limit') ?? Number.NaN);
    const data = makeAnswer(
      x.match.name,
      {
        ...(x.match.id !== undefined ? { id: x.match.id } : {}),
        ...(Number.isInteger(limit) ? { limit } : {}),
        ...(x.url.searchParams.get('filter') ? { filter: x.url.searchParams.get('filter') ?? '' } : {}),
      },
      { strings, ...extra },
    );
    sendJson(x, 200, x.match.name === 'getOpenApi' ? data : { data });
  };

  const answerCompressed = (x: Exchange, behaviour: Extract<HostileBehaviour, { kind: 'compressed' }>) => {
    const { res, record } = x;
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': behaviour.encoding });
    if (behaviour.corrupt) {
      const garbage = Buffer.from('this is not compressed at all, whatever the header says');
      record.bytesSent = garbage.length;
      res.end(garbage);
      return;
    }
    const compressor =
      behaviour.encoding === 'gzip'
        ? createGzip()
        : behaviour.encoding === 'deflate'
          ? createDeflate()
          : createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } });
    compressor.on('data', (chunk: Buffer) => {
      record.bytesSent += chunk.length;
    });
    compressor.pipe(res);
    res.on('close', () => compressor.destroy());
    if (behaviour.inflatesTo === undefined) {
      const data = x.match ? makeAnswer(x.match.name, {}, { strings: 'plain' }) : undefined;
      compressor.end(JSON.stringify(x.match?.name === 'getOpenApi' ? data : { data }));
      return;
    }
    // Padding made as it is sent, so the bomb costs the test no memory either.
    const zeros = Buffer.alloc(CHUNK, 'x');
    let left = behaviour.inflatesTo;
    compressor.write('{"pad":"');
    const pump = () => {
      while (left > 0 && !compressor.destroyed) {
        left -= zeros.length;
        if (!compressor.write(zeros)) {
          compressor.once('drain', pump);
          return;
        }
      }
      if (!compressor.destroyed) compressor.end('"}');
    };
    pump();
  };

  /** The bytes of a plain, complete answer for this request, as a raw HTTP/1.1 response. */
  const rawAnswer = (x: Exchange): { head: Buffer; body: Buffer } => {
    const data = x.match
      ? makeAnswer(x.match.name, x.match.id !== undefined ? { id: x.match.id } : {}, { strings: 'plain' })
      : undefined;
    const body = Buffer.from(
      JSON.stringify(
        x.match?.name === 'getOpenApi'
          ? data
          : data
            ? { data }
            : { error: 'no such endpoint', code: 'not_found' },
      ),
    );
    const head = Buffer.from(
      `HTTP/1.1 ${data ? '200 OK' : '404 Not Found'}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
    );
    return { head, body };
  };

  /** Writes `bytes` one at a time, `delayMs` apart, then `then()`; stops when the socket closes. */
  const trickle = (
    socket: Socket,
    bytes: Buffer,
    delayMs: number,
    record: RecordedRequest,
    then: () => void,
  ) => {
    let at = 0;
    const step = () => {
      if (socket.destroyed) return;
      if (at >= bytes.length) return then();
      socket.write(bytes.subarray(at, at + 1));
      at += 1;
      record.bytesSent += 1;
      later(delayMs, step);
    };
    step();
  };

  /** Writes a never-ending body: as fast as the client reads, or `bytesPerSecond`. */
  const pumpEndless = (x: Exchange, bytesPerSecond: number | undefined) => {
    const { res, record } = x;
    let stopped = false;
    res.on('close', () => {
      stopped = true;
    });
    if (bytesPerSecond === undefined) {
      const chunk = endlessChunk(CHUNK);
      const pump = () => {
        while (!stopped) {
          record.bytesSent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
      return;
    }
    // Paced, and still never faster than the client reads: the server's own buffers stay small.
    const tickMs = 20;
    const size = Math.max(1, Math.round((bytesPerSecond * tickMs) / 1000));
    const chunk = endlessChunk(size);
    const tick = () => {
      if (stopped) return;
      record.bytesSent += chunk.length;
      if (res.write(chunk)) later(tickMs, tick);
      else res.once('drain', () => later(tickMs, tick));
    };
    tick();
  };

  const proxy = (x: Exchange, to: URL) => {
    const headers = { ...x.req.headers, host: to.host };
    const forwarded = httpRequest(
      { host: to.hostname, port: to.port, method: x.req.method, path: x.req.url, headers },
      (answer) => {
        x.res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          x.record.bytesSent += chunk.length;
        });
        answer.pipe(x.res);
      },
    );
    forwarded.on('error', () => {
      if (!x.res.headersSent) x.res.writeHead(502, { 'content-type': 'text/plain' });
      x.res.end('upstream unreachable');
    });
    forwarded.end(x.body);
  };

  function answer(behaviour: HostileBehaviour, x: Exchange): void {
    const { res, record } = x;
    switch (behaviour.kind) {
      case 'normal':
        if (upstream) {
          proxy(x, upstream);
          return;
        }
        answerData(x, 'plain');
        return;
      case 'injection':
        answerData(x, 'hostile', {
          ...(behaviour.listLength !== undefined ? { listLength: behaviour.listLength } : {}),
          ...(behaviour.validTimestamps ? { validTimestamps: true } : {}),
        });
        return;
      case 'compressed':
        answerCompressed(x, behaviour);
        return;
      case 'endless':
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json' });
        res.write(ENDLESS_PREFIX);
        record.bytesSent += ENDLESS_PREFIX.length;
        pumpEndless(x, behaviour.bytesPerSecond);
        return;
      case 'huge': {
        const total = behaviour.bytes ?? 50 * 1024 * 1024;
        const head = '{"pad":"';
        const tail = `","data":${JSON.stringify(makeAnswer(x.match?.name ?? 'getMe', {}, { strings: 'plain' }))}}`;
        const padding = Math.max(0, total - head.length - tail.length);
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(behaviour.contentLength === false
            ? {}
            : { 'content-length': String(head.length + padding + tail.length) }),
        });
        res.write(head);
        record.bytesSent += head.length;
        const chunk = Buffer.alloc(CHUNK, 'x');
        let left = padding;
        let stopped = false;
        res.on('close', () => {
          stopped = true;
        });
        const pump = () => {
          while (!stopped && left > 0) {
            const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
            left -= piece.length;
            record.bytesSent += piece.length;
            if (!res.write(piece)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!stopped) {
            record.bytesSent += tail.length;
            res.end(tail);
          }
        };
        pump();
        return;
      }
      case 'bigError': {
        const big = (label: string, bytes: number) =>
          `${label}:${'x'.repeat(Math.max(0, bytes - label.length - 1))}`;
        const issues = Array.from({ length: behaviour.issues ?? 0 }, (_, i) => ({
          field: big(`field${i}`, behaviour.issueBytes ?? 1024),
          message: big(`message${i}`, behaviour.issueBytes ?? 1024),
        }));
        sendJson(
          x,
          behaviour.status ?? 422,
          {
            error: big('BIG ERROR', behaviour.messageBytes ?? 1024 * 1024),
            code: behaviour.codeBytes ? big('code', behaviour.codeBytes) : 'invalid',
            ...(issues.length > 0 ? { issues } : {}),
          },
          behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : {},
        );
        return;
      }
      case 'hostileError':
        sendJson(
          x,
          behaviour.status ?? 422,
          {
            error: `${ALL_PAYLOADS_TEXT} (error message)`,
            code: hostileString('invalid', 0),
            issues: INJECTION_PAYLOADS.slice(0, 5).map((payload, i) => ({
              field: hostileString(`field${i}`, i),
              message: `${payload.text} is not allowed`,
            })),
          },
          behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : {},
        );
        return;
      case 'html': {
        const status = behaviour.status ?? 502;
        const page = `<!DOCTYPE html>\n<html><head><title>${status} Bad Gateway</title></head>\n<body><center><h1>${status} Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body></html>\n`;
        res.writeHead(status, {
          'content-type': 'text/html',
          ...(behaviour.retryAfter !== undefined ? { 'retry-after': behaviour.retryAfter } : {}),
        });
        res.end(page);
        record.bytesSent = page.length;
        return;
      }
      case 'trickle': {
        const delayMs = behaviour.delayMs ?? 50;
        const socket = x.req.socket;
        const finish = () => {
          x.done();
          socket.end();
        };
        if (behaviour.part === 'headers') {
          const { head, body } = rawAnswer(x);
          trickle(socket, head, delayMs, record, () => {
            socket.write(body);
            finish();
          });
          return;
        }
        if (behaviour.endless) {
          socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n');
          trickle(socket, Buffer.from(ENDLESS_PREFIX + ENDLESS_ITEM.repeat(10_000)), delayMs, record, finish);
          return;
        }
        const { head, body } = rawAnswer(x);
        socket.write(head);
        trickle(socket, body, delayMs, record, finish);
        return;
      }
      case 'redirect': {
        const location = behaviour.location ?? `${elsewhereOrigin}${x.req.url ?? '/'}`;
        res.writeHead(behaviour.status ?? 307, { location, 'content-type': 'text/plain' });
        res.end(`Moved to ${location}`);
        return;
      }
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":{"identity":{"email":"a@b.c","first_name":');
        return;
      case 'hang':
        return;
      case 'swallow': {
        if (!upstream) return;
        const headers = { ...x.req.headers, host: upstream.host };
        const forwarded = httpRequest(
          { host: upstream.hostname, port: upstream.port, method: x.req.method, path: x.req.url, headers },
          (answer) => answer.resume(),
        );
        forwarded.on('error', () => {});
        forwarded.end(x.body);
        return;
      }
      case 'status':
        res.writeHead(behaviour.status, behaviour.headers ?? {});
        res.end(behaviour.body ?? '');
        return;
    }
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  const places = (where: EndpointName | readonly EndpointName[]) =>
    typeof where === 'string' ? [where as EndpointName] : [...(where as readonly EndpointName[])];

  return {
    baseUrl: `${origin}${BASE_PATH}`,
    origin,
    port,
    elsewhere: { origin: elsewhereOrigin, requests: elsewhereRequests },
    requests,
    behave(behaviour, where) {
      if (where === undefined) {
        everywhere = behaviour;
        perEndpoint.clear();
        return;
      }
      for (const name of places(where)) perEndpoint.set(name, behaviour);
    },
    reset(where) {
      if (where === undefined) {
        everywhere = { kind: 'normal' };
        perEndpoint.clear();
        return;
      }
      for (const name of places(where)) perEndpoint.delete(name);
    },
    openConnections: () => sockets.size,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      elsewhereServer.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => elsewhereServer.close(() => resolve())),
      ]);
    },
  };
}
