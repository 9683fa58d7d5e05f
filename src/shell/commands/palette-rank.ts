/**
 * How the palette orders commands for what is typed: a command's name
 * matched exactly (or its last part: "actions" finds pane.actions), then by
 * its start (or the start of a part of it: "unrep" finds filter.unreplied),
 * then a word of what it does starting so, then the typed text anywhere, and last fzf's loose matches, kept only
 * when the letters sit close together (":bill" does not find "order the
 * list: inBox … → unreplied → lowest"). Pure: text in, order out.
 */
import { Fzf, type FzfResultItem } from 'fzf';

export interface Rankable {
  /** The command's name (its id: "approve", "filter.unreplied"). */
  name: string;
  /** What is shown and matched: what it does, its name, the pane it opens. */
  text: string;
}

export interface Ranked<T> {
  item: T;
  /** 0 the name · 1 its last part · 2 its start · 3 a part's start · 4 a word's start · 5 anywhere · 6 loose. */
  tier: 0 | 1 | 2 | 3 | 4 | 5 | 6;
  /** Where the typed letters matched in `text` (code points), for highlighting. */
  positions: ReadonlySet<number>;
}

/** Loose letters count only within this many cells per letter typed. */
const LOOSE_SPREAD = 3;

const parts = (name: string) => name.toLowerCase().split(/[.\-_]/);

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);

/** The code points of `text` from string index `at`, `length` code points long. */
function span(text: string, at: number, length: number): Set<number> {
  const start = [...text.slice(0, at)].length;
  return new Set(Array.from({ length }, (_, index) => start + index));
}

function tierOf(item: Rankable, query: string): Ranked<Rankable>['tier'] | undefined {
  const name = item.name.toLowerCase();
  if (name === query) return 0;
  if (parts(name).at(-1) === query) return 1;
  if (name.startsWith(query)) return 2;
  if (parts(name).some((part) => part.startsWith(query))) return 3;
  if (words(item.text).some((word) => word.startsWith(query))) return 4;
  if (item.text.toLowerCase().includes(query)) return 5;
  return undefined;
}

/** Where to highlight a match of tiers 0–5: the name's occurrence in the text when it has one, else the first. */
function positionsOf(item: Rankable, query: string): Set<number> {
  const lower = item.text.toLowerCase();
  const nameAt = lower.lastIndexOf(item.name.toLowerCase());
  const inName = nameAt >= 0 ? lower.indexOf(query, nameAt) : -1;
  const at = inName >= 0 ? inName : lower.indexOf(query);
  return at >= 0 ? span(item.text, at, [...query].length) : new Set();
}

export function rankCommands<T extends Rankable>(items: readonly T[], typed: string): Ranked<T>[] {
  const query = typed.trim().toLowerCase();
  if (!query) return items.map((item) => ({ item, tier: 0, positions: new Set<number>() }));
  const tiered: Ranked<T>[] = [];
  const rest: T[] = [];
  for (const item of items) {
    const tier = tierOf(item, query);
    if (tier === undefined) rest.push(item);
    else tiered.push({ item, tier, positions: positionsOf(item, query) });
  }
  // Array.prototype.sort is stable: within a tier, the palette's own order (this pane first) stays.
  tiered.sort((a, b) => a.tier - b.tier);
  const loose = new Fzf<T[]>(rest, { selector: (item: T) => item.text, casing: 'case-insensitive' })
    .find(query)
    .filter((match: FzfResultItem<T>) => {
      const at = [...match.positions];
      return Math.max(...at) - Math.min(...at) < [...query].length * LOOSE_SPREAD;
    })
    .map((match: FzfResultItem<T>) => ({ item: match.item, tier: 6 as const, positions: match.positions }));
  return [...tiered, ...loose];
}
