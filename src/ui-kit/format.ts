/** Small formatters for what panes show: ages, times, stars, customer text. */
import { sanitize } from '../text/sanitize.js';

/** Customer text for a one-line row: sanitized, line breaks as spaces. */
export const oneLine = (value: unknown): string => sanitize(String(value ?? ''), { singleLine: true });

/** Customer text for a block: sanitized, line breaks kept. */
export const block = (value: unknown): string => sanitize(String(value ?? ''));

/** "now", "45s", "12m", "3h", "6d": how long ago, compactly. Unknown times say so. */
export function age(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return '—';
  const then = Date.parse(timestamp);
  if (Number.isNaN(then)) return '?';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 10) return 'now';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** "just now", "12m ago": how long ago, as a phrase; undefined for a time that is missing or not one. */
export function ago(timestamp: string | null | undefined, now: number): string | undefined {
  const compact = age(timestamp, now);
  if (compact === '—' || compact === '?') return undefined;
  return compact === 'now' ? 'just now' : `${compact} ago`;
}

/** "2026-11-21 14:05" in the local time zone: message and review times. */
export function dateTime(timestamp: string | null | undefined): string {
  if (!timestamp) return '—';
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return oneLine(timestamp);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const day = (timestamp: string | null | undefined): string => dateTime(timestamp).slice(0, 10);

export function stars(rating: number): string {
  const clamped = Math.max(0, Math.min(5, Math.round(rating)));
  return `${'★'.repeat(clamped)}${'☆'.repeat(5 - clamped)}`;
}

/** "updated 40 s ago" */
export function updatedAgo(at: number | undefined, now: number): string {
  if (at === undefined) return 'not loaded yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `updated ${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `updated ${minutes} min ago` : `updated ${Math.floor(minutes / 60)} h ago`;
}

/** An open-enum value for display: "same_day" → "same day". */
export const enumLabel = (value: unknown): string => oneLine(value).replaceAll('_', ' ');

/** The widest waitedFor is: "waiting 47 h 59 min". */
export const WAITED_FOR_WIDTH = 19;

/** How long a customer has waited: "waiting 40 s", "waiting 14 min", "waiting 2 h 5 min", "waiting 3 d". */
export function waitedFor(since: string, now: number): string {
  const then = Date.parse(since);
  if (Number.isNaN(then)) return 'waiting';
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds < 60) return `waiting ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `waiting ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `waiting ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `waiting ${Math.floor(hours / 24)} d`;
}
