/**
 * The outbox file's bytes: how its entries are written, and how they are read
 * back from a file that may have been damaged (a disk error, a copy cut
 * short, an edit by hand, a file system that lost a write).
 *
 * Version 3 is still one JSON document, so an earlier release can read it
 * (it keeps entries it does not know, and sends nothing of them), but every
 * entry is alone on its line with a checksum of its exact JSON:
 *
 *     {"version":3,"texts":[
 *     {"sum":"<16 hex digits of SHA-256>","text":{…entry…}},
 *     {"sum":"…","text":{…}}
 *     ]}
 *
 * A reader checks each line on its own: an entry is taken only when its line
 * is whole and its checksum matches, so damage costs the entries of the lines
 * it touched and never makes up or alters one (a text is sent exactly as it
 * was confirmed, or not at all). A file cut short is noticed by its missing
 * last line. Version 2 (one JSON document, entries without checksums) is read
 * too; from a damaged one, the entries that are complete before the damage.
 *
 * Written here rather than taken from a package: JSON repair packages
 * (jsonrepair, partial-json) complete a value that was cut short, which here
 * would make up a text, and a journal library would bring its own file layout
 * that the previous release could not keep.
 */
import { createHash } from 'node:crypto';

export const FORMAT_VERSION = 3;

const HEADER = `{"version":${FORMAT_VERSION},"texts":[`;
const FOOTER = ']}';
// `s`: a text may hold U+2028 and U+2029, which JSON leaves as they are and `.` would not match.
const RECORD = /^\{"sum":"([0-9a-f]{16})","text":(.*)\},?$/s;

const checksum = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 16);

export function serializeOutbox(entries: readonly unknown[]): string {
  const lines = entries.map((entry, index) => {
    const json = JSON.stringify(entry);
    return `{"sum":"${checksum(json)}","text":${json}}${index < entries.length - 1 ? ',' : ''}`;
  });
  return `${[HEADER, ...lines, FOOTER].join('\n')}\n`;
}

export interface ParsedOutbox {
  /** The entries read whole, in the file's order (a repeated entry once). */
  entries: unknown[];
  /** What could not be read; absent when the file is whole. */
  damage?: OutboxDamage;
}

export interface OutboxDamage {
  /** Bytes that could not be read as entries. */
  unreadableBytes: number;
  /** Its first or last line is missing (a file cut short): entries may be missing without a trace. */
  incomplete: boolean;
}

/** Reads an outbox file's bytes; never throws. */
export function parseOutbox(bytes: Uint8Array): ParsedOutbox {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = raw.toString('utf8');
  if (text.startsWith(HEADER) || raw.includes('{"sum":"')) return parseLines(raw);
  return parseVersion2(text, raw.byteLength);
}

/** Version 3: line by line, each entry checked against its checksum. */
function parseLines(raw: Buffer): ParsedOutbox {
  const entries = new Entries();
  let unreadableBytes = 0;
  let sawHeader = false;
  let lastWasFooter = false;
  const lines = splitLines(raw);
  lines.forEach((bytes, index) => {
    if (bytes.byteLength === 0) return;
    lastWasFooter = false;
    const line = bytes.toString('utf8');
    if (line === HEADER && !sawHeader) {
      sawHeader = true;
      return;
    }
    if (line === FOOTER) {
      lastWasFooter = true;
      return;
    }
    const record = RECORD.exec(line);
    const json = record?.[2];
    // A byte that is not UTF-8 (a character cut in half) makes its line unreadable, never another text.
    if (json !== undefined && record?.[1] === checksum(json) && Buffer.from(line).equals(bytes)) {
      entries.add(JSON.parse(json));
      return;
    }
    unreadableBytes += bytes.byteLength + (index < lines.length - 1 ? 1 : 0);
  });
  const incomplete = !sawHeader || !lastWasFooter;
  return unreadableBytes > 0 || incomplete
    ? { entries: entries.list, damage: { unreadableBytes, incomplete } }
    : { entries: entries.list };
}

function splitLines(raw: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = raw.indexOf(0x0a); end >= 0; end = raw.indexOf(0x0a, start)) {
    lines.push(raw.subarray(start, end));
    start = end + 1;
  }
  lines.push(raw.subarray(start));
  return lines;
}

/** Version 2 (a release before this one), or a document it rewrote: entries without checksums. */
function parseVersion2(text: string, byteLength: number): ParsedOutbox {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return salvageVersion2(text);
  }
  const texts = (json as { texts?: unknown } | null)?.texts;
  if (typeof json !== 'object' || json === null || !Array.isArray(texts)) {
    return { entries: [], damage: { unreadableBytes: byteLength, incomplete: false } };
  }
  const entries = new Entries();
  let unreadableBytes = 0;
  for (const element of texts) {
    // An entry of this version kept by an earlier release, which rewrote the file in its own layout.
    const wrapped = typeof element === 'object' && element !== null ? (element as { sum?: unknown }) : {};
    if (typeof wrapped.sum === 'string' && 'text' in wrapped) {
      const entryJson = JSON.stringify(wrapped.text);
      if (wrapped.sum === checksum(entryJson)) entries.add(wrapped.text);
      else unreadableBytes += Buffer.byteLength(JSON.stringify(element));
      continue;
    }
    entries.add(element);
  }
  return unreadableBytes > 0
    ? { entries: entries.list, damage: { unreadableBytes, incomplete: false } }
    : { entries: entries.list };
}

/**
 * A version 2 document that is not JSON (cut short, or damaged): the entries
 * of its "texts" list that are complete before the first damage. Without
 * checksums nothing after the damage can be trusted.
 */
function salvageVersion2(text: string): ParsedOutbox {
  const entries = new Entries();
  let readUpTo = 0;
  const list = /^\s*\{\s*"version"\s*:\s*2\s*,\s*"texts"\s*:\s*\[/.exec(text);
  if (list) {
    readUpTo = list[0].length;
    for (const element of completeObjects(text, readUpTo)) {
      try {
        entries.add(JSON.parse(element.json));
      } catch {
        break;
      }
      readUpTo = element.end;
    }
  }
  const unreadableBytes = Buffer.byteLength(text.slice(readUpTo).replace(/^[\s,]+/, ''));
  return { entries: entries.list, damage: { unreadableBytes, incomplete: true } };
}

/** The JSON objects that follow one another in a list from `start`, up to the first that does not close. */
function* completeObjects(text: string, start: number): Generator<{ json: string; end: number }> {
  let at = start;
  for (;;) {
    while (at < text.length && /[\s,]/.test(text[at] ?? '')) at += 1;
    if (text[at] !== '{') return;
    const end = closingBrace(text, at);
    if (end === undefined) return;
    yield { json: text.slice(at, end + 1), end: end + 1 };
    at = end + 1;
  }
}

/** Where the object opening at `open` closes, strings skipped; undefined when the text ends first. */
function closingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = open; at < text.length; at += 1) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return char === '}' ? at : undefined;
    }
  }
  return undefined;
}

/** Entries in order; one that appears twice (a line written twice by a faulty disk) is kept once. */
class Entries {
  readonly list: unknown[] = [];
  private readonly seen = new Set<string>();

  add(entry: unknown): void {
    const key = JSON.stringify(entry);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(entry);
  }
}
