/**
 * Small helpers shared by the navigation, pane and "new items" tests: plain
 * frames (ANSI stripped), the pane/status lines of a frame, what the
 * simulator was asked, and waiting for the first load.
 */
import stripAnsi from 'strip-ansi';
import { expect } from 'vitest';
import { paneById } from '../../src/panes/registry.js';
import type { AppState, PaneId } from '../../src/store/app-store.js';
import { selectedIndexIn } from '../../src/store/selection.js';
import { selectionOf } from '../../src/store/selectors.js';
import type { TestSim } from '../support/sim.js';
import { startTui, type TestTui, type TuiOptions } from '../support/tui.js';
import { startupLoaded } from '../support/write-flows.js';

/** Nothing polls on its own during a test: only what a key asks for (or a first load) is read. */
export const QUIET: NonNullable<TuiOptions['intervals']> = {
  visibleMs: 600_000,
  headerMs: 600_000,
  backgroundMs: 600_000,
  rareMs: 600_000,
  burstMs: 600_000,
  pacedMs: 600_000,
};

export const plain = (frame: string) => stripAnsi(frame);

export const lines = (frame: string) => plain(frame).split('\n');

/** Width of a line in code points (the brief's measure; ANSI already stripped). */
export const width = (line: string) => [...line].length;

/** The status bar's key hints: the last line of the frame, split into "key label" parts. */
export function hintParts(frame: string): string[] {
  const last = lines(frame).at(-1) ?? '';
  return last
    .split('·')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** True when some hint of the status bar is for exactly this key. */
export const hasHintFor = (frame: string, key: string) =>
  hintParts(frame).some((part) => part === key || part.startsWith(`${key} `));

/** The lines of the help overlay (inside its double border). */
export function helpLines(frame: string): string[] {
  return lines(frame)
    .filter((line) => line.startsWith('║'))
    .map((line) => line.replace(/^║ ?/, '').replace(/ *║$/, ''));
}

/**
 * The help's entries as on screen: an entry's text wrapped onto lines of its own under itself (they start with
 * spaces, where the keys stand) joined back into one, each as "KEYS  TEXT".
 */
export function helpEntries(frame: string): string[] {
  const entries: string[] = [];
  for (const line of helpLines(frame).slice(1)) {
    if (line.startsWith(' ') && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
    else entries.push(line);
  }
  return entries;
}

/** Does the help overlay have a row for exactly these keys? */
export const helpHasKey = (frame: string, keys: string) =>
  helpLines(frame).some((line) => line.startsWith(`${keys} `));

/** Requests the simulator received for this path (exact, under /v1), with their query strings. */
export async function requestsTo(tui: TestTui, path: string, method = 'GET') {
  return (await tui.s.requests()).filter(
    (request) => request.method === method && request.path === `/v1${path}`,
  );
}

export const queryOf = (query: string) => new URLSearchParams(query);

/**
 * The inbox at 120×40 on this simulator and clock, once its first load is on screen; nothing polls on its own
 * but the threads of the picture of the conversations (never read, changed, or maybe holding a new text),
 * 50 ms apart.
 */
export async function inboxMatchingTexts(sim: TestSim, now?: () => number): Promise<TestTui> {
  const tui = await startTui({
    sim,
    columns: 120,
    rows: 40,
    ...(now ? { now } : {}),
    intervals: { ...QUIET, burstMs: 50 },
  });
  await firstLoad(tui, startupLoaded);
  return tui;
}

/** Waits for the shop, the open inbox and (optionally) more of the first load to be on screen. */
export async function firstLoad(tui: TestTui, extra?: (state: AppState) => boolean) {
  return tui.waitFor(
    (frame, state) =>
      state.me.data !== undefined &&
      state.inbox.open.data !== undefined &&
      plain(frame).includes('Rivera Plumbing') &&
      /Inbox — open leads \(\d+\)/.test(plain(frame)) &&
      (extra ? extra(state) : true),
  );
}

/** Escapes a string for use inside a RegExp. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the API answers for this path (the test's own read, with the same token). */
export async function apiData<T>(tui: TestTui, path: string): Promise<T> {
  const response = await tui.s.fetch(path);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** The row a pane highlights (its selected record's place in the list as shown). */
export function selectedRow(state: AppState, pane: PaneId): number {
  const list = paneById(pane).list?.of(state);
  return list ? selectedIndexIn(list, selectionOf(state, pane)) : 0;
}
