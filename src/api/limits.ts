/**
 * How much of what a server sends the client is willing to hold. A hostile or
 * broken server (or a proxy in front of it) can send a body that never ends,
 * a 50 MB answer, or a megabyte-long error message; none of that may cost the
 * inbox its memory or its terminal. Bodies are cut while they are read (see
 * http-exchange.ts); every server string kept on an error is cut here.
 */

/** Largest answer read. The biggest real answer (a 100-message thread, the OpenAPI document) is far smaller. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Longest error message kept, in characters (code points), "…" included. */
export const MAX_MESSAGE_CHARS = 300;
/** Longest error code kept: real codes are a word or two. */
export const MAX_CODE_CHARS = 64;
/** How many `issues` are kept, and how long each string inside one may be. */
export const MAX_ISSUES = 20;
export const MAX_ISSUE_STRING_CHARS = 200;
/** Fields kept per issue object, and how deep an issue may nest. */
const MAX_ISSUE_KEYS = 10;
const MAX_ISSUE_DEPTH = 2;
/** Longest Retry-After read: a number of seconds or an HTTP date is a few dozen characters. */
export const MAX_HEADER_CHARS = 256;
/** Longest redirect Location looked at (cut, it could name another host): browsers' usual URL ceiling. */
export const MAX_LOCATION_CHARS = 2_048;
/** Longest origin named in a redirect message. */
export const MAX_ORIGIN_CHARS = 100;
/** Longest Retry-After honoured, in seconds: a bogus one must not pause the inbox for days. */
export const MAX_RETRY_AFTER_S = 3_600;

const ELLIPSIS = '…';

/**
 * `text` cut to at most `max` code points, the last being "…" when it was cut.
 * Never splits a surrogate pair; cutting a cut text again changes nothing.
 */
export function capText(text: string, max: number): string {
  // Cheap test first: a string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return text;
  let count = 0;
  let end = 0;
  while (end < text.length) {
    const unit = text.charCodeAt(end);
    const width = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length ? 2 : 1;
    if (count === max) return `${text.slice(0, previousEnd(text, end))}${ELLIPSIS}`;
    end += width;
    count += 1;
  }
  return text;
}

/** Where the text up to `end` loses its last code point (room for the "…"). */
function previousEnd(text: string, end: number): number {
  const before = end - 1;
  const unit = text.charCodeAt(before);
  return unit >= 0xdc00 && unit <= 0xdfff && before > 0 ? before - 1 : before;
}

/**
 * `issues` as the client keeps them: at most MAX_ISSUES items (the last saying how many more there
 * were), every string in them capped. Capping what was capped changes nothing.
 */
export function capIssues(issues: readonly unknown[]): unknown[] {
  if (issues.length <= MAX_ISSUES) return issues.map((issue) => capValue(issue, 0));
  const kept = issues.slice(0, MAX_ISSUES - 1).map((issue) => capValue(issue, 0));
  kept.push(`… and ${issues.length - kept.length} more`);
  return kept;
}

function capValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return capText(value, MAX_ISSUE_STRING_CHARS);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_ISSUE_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    if (value.length <= MAX_ISSUE_KEYS) return value.map((item) => capValue(item, depth + 1));
    return [...value.slice(0, MAX_ISSUE_KEYS - 1).map((item) => capValue(item, depth + 1)), '…'];
  }
  const keys = Object.keys(value);
  const over = keys.length > MAX_ISSUE_KEYS;
  const entries = keys
    .slice(0, over ? MAX_ISSUE_KEYS - 1 : keys.length)
    .map((key): [string, unknown] => [
      capText(key, MAX_CODE_CHARS),
      capValue((value as Record<string, unknown>)[key], depth + 1),
    ]);
  if (over) entries.push(['…', '…']);
  // fromEntries, not assignment: a key named "__proto__" must stay a plain field.
  return Object.fromEntries(entries);
}
