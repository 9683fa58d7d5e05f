/**
 * The counts staff read (header, Today, list titles, window title, wallboard)
 * against brute-force readings of their one definition: a list read whole is
 * the count; a list cut at the page size is only part, and /me counts the
 * rest (never fewer than the rows shown); nothing read, no count. Wherever a
 * count is shown, it is the same number.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShopOverview } from '../../src/contract/resources.js';
import { type AppState, initialState } from '../../src/store/app-store.js';
import {
  callbackCount,
  headerCounts,
  LIST_LIMIT,
  listCount,
  openLeadCount,
  plural,
  waitingCounts,
  wholeListCounts,
} from '../../src/store/counts.js';

/** How many rows a read gave: none read, read whole (fewer than a page), or cut at the page size. */
const someLength = fc.option(fc.oneof(fc.nat(LIST_LIMIT - 1), fc.constant(LIST_LIMIT), fc.nat(5)), {
  nil: undefined,
});

const URGENCIES = ['same_day', 'this_week', 'flexible'] as const;

interface Drawn {
  open?: number;
  callbacks?: number;
  reviews?: number;
  pending?: number;
  me?: { openLeads: number; needsCallback: number; unreplied: number; pending: number };
  /** Picks per row: urgency, replied or not. */
  seed: number;
}

const someDrawn: fc.Arbitrary<Drawn> = fc.record(
  {
    open: someLength,
    callbacks: someLength,
    reviews: someLength,
    pending: someLength,
    me: fc.option(
      fc.record({
        openLeads: fc.nat(150),
        needsCallback: fc.nat(150),
        unreplied: fc.nat(150),
        pending: fc.nat(150),
      }),
      { nil: undefined },
    ),
    seed: fc.nat(),
  },
  { requiredKeys: ['seed'] },
);

const lead = (index: number, seed: number) => ({
  id: `lead_${index}`,
  contact_name: `Customer ${index}`,
  caller_phone: '+19715550100',
  job_type: 'leak',
  status: 'new',
  urgency: URGENCIES[(index * 7 + seed) % URGENCIES.length],
  created_at: '2026-11-21T10:00:00Z',
});
const loaded = <T>(data: T | undefined) =>
  data === undefined ? { loading: false } : { data, updatedAt: 1, loading: false };
const rows = <T>(length: number | undefined, make: (index: number) => T) =>
  length === undefined ? undefined : Array.from({ length }, (_, index) => make(index));

/** A state holding exactly what was drawn (the fields the counts read; the rest as at start). */
function stateOf(drawn: Drawn): AppState {
  const state = initialState();
  const inbox = (filter: string, length: number | undefined) =>
    loaded(
      rows(length, (index) => lead(index, drawn.seed)) && {
        filter,
        open_leads: rows(length, (index) => lead(index, drawn.seed)),
        latest_inbound: [],
      },
    );
  const me = drawn.me && {
    inbox_pulse: { open_leads: drawn.me.openLeads, needs_callback: drawn.me.needsCallback },
    reviews_pulse: { unreplied: drawn.me.unreplied },
    pending_actions: drawn.me.pending,
  };
  return {
    ...state,
    me: loaded(me as ShopOverview | undefined),
    inbox: {
      ...state.inbox,
      open: inbox('open', drawn.open),
      callbacks: inbox('callbacks', drawn.callbacks),
    },
    reviews: loaded(
      rows(drawn.reviews, (index) => ({
        id: `rev_${index}`,
        replied_at: (index + drawn.seed) % 3 === 0 ? '2026-11-20T10:00:00Z' : null,
      })) && {
        items: rows(drawn.reviews, (index) => ({
          id: `rev_${index}`,
          replied_at: (index + drawn.seed) % 3 === 0 ? '2026-11-20T10:00:00Z' : null,
        })),
      },
    ),
    actions: {
      ...state.actions,
      pending_approval: loaded(
        rows(drawn.pending, (index) => ({ id: `act_${index}` })) && {
          items: rows(drawn.pending, (index) => ({ id: `act_${index}` })),
        },
      ),
    },
  } as unknown as AppState;
}

/** The definition, read plainly: whole list → its rows; else the largest of what is known; else nothing. */
function oracle(shown: number | undefined, fromMe: number | undefined): number | undefined {
  if (shown !== undefined && shown < LIST_LIMIT) return shown;
  const known = [shown, fromMe].filter((each): each is number => each !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}

const unrepliedShown = (drawn: Drawn) =>
  drawn.reviews === undefined
    ? undefined
    : Array.from({ length: drawn.reviews }, (_, index) => index).filter(
        (index) => (index + drawn.seed) % 3 !== 0,
      ).length;

describe('the counts', () => {
  it('missed calls and open leads: the list read whole, else /me, never fewer than the rows shown', () => {
    fc.assert(
      fc.property(someDrawn, (drawn) => {
        const state = stateOf(drawn);
        expect(callbackCount(state)).toBe(oracle(drawn.callbacks, drawn.me?.needsCallback));
        expect(openLeadCount(state)).toBe(oracle(drawn.open, drawn.me?.openLeads));
      }),
    );
  });

  it('the header counts each list by the same rule', () => {
    fc.assert(
      fc.property(someDrawn, (drawn) => {
        const counts = headerCounts(stateOf(drawn));
        expect(counts.openLeads).toBe(oracle(drawn.open, drawn.me?.openLeads));
        expect(counts.callbacks).toBe(oracle(drawn.callbacks, drawn.me?.needsCallback));
        expect(counts.pending).toBe(oracle(drawn.pending, drawn.me?.pending));
        const whole = drawn.reviews !== undefined && drawn.reviews < LIST_LIMIT;
        expect(counts.unreplied).toBe(whole ? unrepliedShown(drawn) : drawn.me?.unreplied);
      }),
    );
  });

  it('what the lists read whole count by themselves is what the header shows for them', () => {
    fc.assert(
      fc.property(someDrawn, (drawn) => {
        const state = stateOf(drawn);
        const header = headerCounts(state);
        for (const [name, value] of Object.entries(wholeListCounts(state)))
          expect(value, name).toBe(header[name as keyof typeof header]);
        const whole = (length: number | undefined) => length !== undefined && length < LIST_LIMIT;
        expect(Object.keys(wholeListCounts(state)).sort()).toEqual(
          [
            whole(drawn.open) && 'openLeads',
            whole(drawn.callbacks) && 'callbacks',
            whole(drawn.reviews) && 'unreplied',
            whole(drawn.pending) && 'pending',
          ]
            .filter((name): name is string => Boolean(name))
            .sort(),
        );
      }),
    );
  });

  it('the wallboard and the window title show the header\'s numbers, "-" before anything is read', () => {
    fc.assert(
      fc.property(someDrawn, (drawn) => {
        const state = stateOf(drawn);
        const header = headerCounts(state);
        const shown = (value: number | undefined) => (value === undefined ? '-' : String(value));
        const waiting = waitingCounts(state);
        expect(waiting.missed).toBe(shown(header.callbacks));
        expect(waiting.reviews).toBe(shown(header.unreplied));
        expect(waiting.approvals).toBe(shown(header.pending));
        const sameDay =
          drawn.open === undefined
            ? '-'
            : `${Array.from({ length: drawn.open }, (_, index) => lead(index, drawn.seed)).filter((each) => each.urgency === 'same_day').length}${drawn.open >= LIST_LIMIT ? '+' : ''}`;
        expect(waiting.sameDay).toBe(sameDay);
      }),
    );
  });
});

describe('listCount', () => {
  it('says how many are shown, of how many read, of how many there are, and where the rest is', () => {
    fc.assert(
      fc.property(
        fc.nat(LIST_LIMIT),
        fc.nat(LIST_LIMIT),
        fc.option(fc.nat(300), { nil: undefined }),
        (a, b, total) => {
          const [shown, loaded] = a <= b ? [a, b] : [b, a];
          const text = listCount({ updatedAt: 1, shown, loaded, total });
          const more = total !== undefined && total > loaded;
          expect(text.startsWith('(') && text.endsWith(')')).toBe(true);
          expect(text.includes('the rest on the dashboard')).toBe(more);
          expect(text.includes(`${loaded} of ${total}`)).toBe(more);
          expect(text.includes(`${shown} shown of `)).toBe(shown !== loaded);
          expect(Number(/^\((\d+)/.exec(text)?.[1])).toBe(shown);
        },
      ),
    );
    expect(listCount({ updatedAt: undefined, shown: 0, loaded: 0 })).toBe('(…)');
  });

  it('plural: one is singular, every other count plural', () => {
    fc.assert(
      fc.property(fc.nat(1_000), (count) => {
        expect(plural(count, 'lead')).toBe(count === 1 ? '1 lead' : `${count} leads`);
        expect(plural(count, 'reply', 'replies')).toBe(count === 1 ? '1 reply' : `${count} replies`);
      }),
    );
  });
});
