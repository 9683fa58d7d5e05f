/**
 * The table of reads (src/poller/reads.ts) and what is made from it: every
 * entry is whole (its slot named as its kind, its field the shop's data, its
 * schema the contract's), slot keys never collide, the plan holds every read
 * worth reading, the hub's schemas take each read's real answer from the
 * simulator and refuse what is off the contract, and a read's answer lands in
 * its own field of the store and nowhere else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_QUERY_MAX } from '../../src/contract/endpoints.js';
import { ActionStatusValues, InboxFilterValues } from '../../src/contract/resources.js';
import { parseSlotData, SlotSchema } from '../../src/hub/protocol.js';
import {
  READ_KINDS,
  READS,
  type ReadKindName,
  readOf,
  readSlot,
  refreshesOf,
  type Slot,
  type SlotData,
  slotKey,
} from '../../src/poller/reads.js';
import { DEFAULT_INTERVALS, plan, type RefreshIntervals } from '../../src/poller/refresh-plan.js';
import { markLoading, storeData, storeFailure } from '../../src/poller/store-writes.js';
import { type AppState, createAppStore, initialState, STATE_FIELDS } from '../../src/store/app-store.js';
import type { SeenKind } from '../../src/store/seen.js';
import { startSim } from '../support/sim.js';

/** Text with the characters a key is made of (":" and "\"), and any other. */
const keyText = (options: { minLength?: number; maxLength: number }) =>
  fc.oneof(
    fc.string({ ...options, unit: fc.constantFrom(':', '\\', 'a', 'b', '%', ' ') }),
    fc.string({ ...options, unit: 'binary' }),
  );

/** Any slot of each kind: a kind without one here does not typecheck. */
const slotsOf: { [K in ReadKindName]: fc.Arbitrary<Extract<Slot, { kind: K }>> } = {
  me: fc.constant({ kind: 'me' as const }),
  inbox: fc.constantFrom(...InboxFilterValues).map((filter) => ({ kind: 'inbox' as const, filter })),
  actions: fc.constantFrom(...ActionStatusValues).map((status) => ({ kind: 'actions' as const, status })),
  reviews: fc.constant({ kind: 'reviews' as const }),
  today: fc.constant({ kind: 'today' as const }),
  billing: fc.constant({ kind: 'billing' as const }),
  texting: fc.constant({ kind: 'texting' as const }),
  apiSpec: fc.constant({ kind: 'apiSpec' as const }),
  contacts: keyText({ maxLength: SEARCH_QUERY_MAX }).map((query) => ({ kind: 'contacts' as const, query })),
  lead: keyText({ minLength: 1, maxLength: 200 }).map((id) => ({ kind: 'lead' as const, id })),
};
const anySlot: fc.Arbitrary<Slot> = fc.oneof(...Object.values(slotsOf));

describe('the table of reads', () => {
  it('names each entry as its slot’s kind, fills a field of the shop’s data, and parses with the contract', () => {
    for (const kind of READ_KINDS) {
      const read = readOf(kind);
      expect(read.slot.shape.kind.value).toBe(kind);
      // withoutServerData forgets it when another key takes over.
      expect({ kind, field: STATE_FIELDS[read.field] }).toEqual({ kind, field: 'server' });
      if (read.endpoint.data) expect(read.data).toBe(read.endpoint.data);
      expect(read.endpoint.method).toBe('GET');
    }
  });
});

describe('slotKey', () => {
  it('gives two slots the same key exactly when they are the same slot', () => {
    fc.assert(
      fc.property(anySlot, anySlot, (a, b) => {
        expect(slotKey(a) === slotKey(b)).toBe(
          JSON.stringify(SlotSchema.parse(a)) === JSON.stringify(SlotSchema.parse(b)),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps the keys a thread is counted by: "lead:" and its id', () => {
    fc.assert(
      fc.property(slotsOf.lead, (slot) => {
        expect(slotKey(slot).startsWith('lead:')).toBe(true);
      }),
    );
    expect(slotKey({ kind: 'inbox', filter: 'open' })).toBe('inbox:open');
    expect(slotKey({ kind: 'me' })).toBe('me');
  });
});

describe('the refresh plan', () => {
  const intervals: RefreshIntervals = {
    visibleMs: 1,
    headerMs: 2,
    backgroundMs: 3,
    rareMs: 4,
    burstMs: 5,
    pacedMs: 6,
  };

  it('holds what is on screen (often) and every read that is kept fresh without a screen, once each', () => {
    fc.assert(
      fc.property(
        fc.array(anySlot, { maxLength: 6 }),
        fc.string({ maxLength: 20 }),
        fc.constantFrom('inbox', 'wallboard'),
        (visible, query, view) => {
          const state: AppState = { ...initialState(), view, contacts: { loading: false, query } };
          const entries = plan(state, intervals, () => visible);
          const keys = entries.map((entry) => slotKey(entry.slot));
          expect(new Set(keys).size).toBe(keys.length);
          const byKey = new Map(entries.map((entry) => [slotKey(entry.slot), entry.everyMs]));
          // The open inbox twice as often where the picture is kept; the wallboard reads its counts alike.
          for (const slot of visible)
            expect(byKey.get(slotKey(slot))).toBe(
              view === 'inbox' && slot.kind === 'inbox' && slot.filter === 'open'
                ? intervals.visibleMs / 2
                : intervals.visibleMs,
            );
          const kept: string[] = [];
          for (const kind of READ_KINDS) {
            for (const slot of refreshesOf(kind).flatMap((refresh) => refresh.slots(state))) {
              kept.push(slotKey(slot));
              expect(byKey.has(slotKey(slot))).toBe(true);
            }
          }
          // Nothing else: a thread, another actions list, an old search only while a pane shows it.
          const visibleKeys = visible.map(slotKey);
          for (const key of keys) expect(visibleKeys.includes(key) || kept.includes(key)).toBe(true);
        },
      ),
    );
  });

  it('reads each list kept fresh as often as its cadence says, the API document twelve times more rarely', () => {
    const entries = plan(initialState(), DEFAULT_INTERVALS);
    const every = Object.fromEntries(entries.map((entry) => [slotKey(entry.slot), entry.everyMs]));
    expect(every).toEqual({
      me: DEFAULT_INTERVALS.headerMs,
      'inbox:open': DEFAULT_INTERVALS.backgroundMs,
      'inbox:callbacks': DEFAULT_INTERVALS.backgroundMs,
      'actions:pending_approval': DEFAULT_INTERVALS.backgroundMs,
      reviews: DEFAULT_INTERVALS.backgroundMs,
      today: DEFAULT_INTERVALS.backgroundMs,
      billing: DEFAULT_INTERVALS.rareMs,
      texting: DEFAULT_INTERVALS.rareMs,
      apiSpec: DEFAULT_INTERVALS.rareMs * 12,
      'contacts:': DEFAULT_INTERVALS.rareMs,
    });
  });
});

/** One slot of every kind, each read from the simulator over HTTP, with its answer. */
async function realAnswers(): Promise<Array<{ slot: Slot; data: SlotData }>> {
  const s = await startSim();
  const client = s.client();
  const inbox = await client.getInbox({ filter: 'open' });
  const leadId = inbox.open_leads[0]?.id;
  if (!leadId) throw new Error('the simulator lists no open lead');
  const slots: { [K in ReadKindName]: Array<Extract<Slot, { kind: K }>> } = {
    me: [{ kind: 'me' }],
    inbox: InboxFilterValues.map((filter) => ({ kind: 'inbox', filter })),
    actions: ActionStatusValues.map((status) => ({ kind: 'actions', status })),
    reviews: [{ kind: 'reviews' }],
    today: [{ kind: 'today' }],
    billing: [{ kind: 'billing' }],
    texting: [{ kind: 'texting' }],
    apiSpec: [{ kind: 'apiSpec' }],
    contacts: [
      { kind: 'contacts', query: '' },
      { kind: 'contacts', query: 'a' },
    ],
    lead: [{ kind: 'lead', id: leadId }],
  };
  const all: Slot[] = Object.values(slots).flat();
  return Promise.all(all.map(async (slot) => ({ slot, data: await readSlot(client, slot, {}) })));
}

/** The answer with a field the contract requires taken out, or of another type altogether. */
function offContract(data: SlotData): unknown[] {
  const wrong: unknown[] = [null, 'rm -rf /', 42, [data]];
  for (const field of Object.keys(data)) {
    const { [field]: _gone, ...rest } = data;
    wrong.push(rest, { ...data, [field]: { not: 'this' } });
  }
  return wrong;
}

describe('the hub’s schemas, from the table', () => {
  it('take every read’s real answer from the simulator as it is, and refuse it off the contract', async () => {
    const answers = await realAnswers();
    expect(new Set(answers.map(({ slot }) => slot.kind))).toEqual(new Set(READ_KINDS));
    for (const { slot, data } of answers) {
      const relayed = JSON.parse(JSON.stringify({ slot, data }));
      expect(SlotSchema.parse(relayed.slot)).toEqual(slot);
      expect(parseSlotData(slot, relayed.data)).toEqual(data);
      // Whatever is wrong about it, the contract says so (the API document is any JSON object).
      const refused = offContract(data).filter((wrong) => parseSlotData(slot, wrong) === undefined);
      if (slot.kind === 'apiSpec') expect(refused).toEqual([null, 'rm -rf /', 42, [data]]);
      else expect(refused.length).toBeGreaterThan(Object.keys(data).length);
    }
  });

  it('take every slot of every kind, and refuse slots off the table', () => {
    fc.assert(
      fc.property(anySlot, (slot) => {
        expect(SlotSchema.parse(JSON.parse(JSON.stringify(slot)))).toEqual(slot);
      }),
    );
    for (const wrong of [
      { kind: 'everything' },
      { kind: 'inbox', filter: 'all' },
      { kind: 'inbox' },
      { kind: 'actions', status: 'approved' },
      { kind: 'lead', id: '' },
      { kind: 'lead', id: 'x'.repeat(201) },
      { kind: 'contacts', query: 'x'.repeat(SEARCH_QUERY_MAX + 1) },
      { kind: 'contacts', query: 7 },
      'me',
      null,
    ])
      expect({ wrong, ok: SlotSchema.safeParse(wrong).success }).toEqual({ wrong, ok: false });
  });
});

describe('the store writes, from the table', () => {
  it('land each read’s answer, failure and start in its own field, keeping the last good copy on a failure', async () => {
    const answers = await realAnswers();
    for (const { slot, data } of answers) {
      const field = READS[slot.kind].field;
      const store = createAppStore();
      if (slot.kind === 'contacts')
        store.setState({ contacts: { ...store.getState().contacts, query: slot.query } });
      const untouched = (before: AppState) => {
        const after = store.getState();
        for (const other of Object.keys(STATE_FIELDS) as (keyof AppState)[])
          if (other !== field && other !== 'seen' && other !== 'threadNews')
            expect({ slot, other, same: after[other] === before[other] }).toEqual({
              slot,
              other,
              same: true,
            });
      };
      let before = store.getState();
      markLoading(store, slot);
      untouched(before);
      expect(copyOf(store.getState(), slot)).toMatchObject({ loading: true });

      before = store.getState();
      storeData(store, slot, data, 1_000);
      untouched(before);
      expect(copyOf(store.getState(), slot)).toEqual(
        expect.objectContaining({ data, updatedAt: 1_000, loading: false }),
      );

      before = store.getState();
      const failure = { code: 'server', status: 503, message: 'down', at: 2_000 };
      storeFailure(store, slot, failure);
      untouched(before);
      expect(copyOf(store.getState(), slot)).toEqual(
        expect.objectContaining({ data, updatedAt: 1_000, loading: false, error: failure }),
      );
    }
  });

  it('drop a search answered after the query changed, and say which query the list on screen answers', async () => {
    const [answer] = (await realAnswers()).filter(
      ({ slot }) => slot.kind === 'contacts' && slot.query === 'a',
    );
    if (!answer) throw new Error('no search read');
    const store = createAppStore();
    store.setState({ contacts: { loading: false, query: 'ab' } });
    storeData(store, answer.slot, answer.data, 1);
    expect(store.getState().contacts).toEqual({ loading: false, query: 'ab' });
    store.setState({ contacts: { loading: false, query: 'a' } });
    storeData(store, answer.slot, answer.data, 2);
    expect(store.getState().contacts).toMatchObject({ query: 'a', loadedQuery: 'a', data: answer.data });
  });
});

describe('what is new, from the table', () => {
  const news: Array<{
    slot: Slot;
    event: 'missed_call' | 'inbound_text' | 'review' | 'action';
    kind: SeenKind;
  }> = [
    { slot: { kind: 'inbox', filter: 'open' }, event: 'missed_call', kind: 'leads' },
    { slot: { kind: 'inbox', filter: 'open' }, event: 'inbound_text', kind: 'inbound' },
    { slot: { kind: 'reviews' }, event: 'review', kind: 'reviews' },
    { slot: { kind: 'actions', status: 'pending_approval' }, event: 'action', kind: 'actions' },
  ];

  it('is observed in the reads that say so: nothing in the first copy, what arrived in the next', async () => {
    expect(READ_KINDS.filter((kind) => readOf(kind).observe !== undefined).sort()).toEqual(
      [...new Set(news.map(({ slot }) => slot.kind))].sort(),
    );
    for (const { slot, event, kind } of news) {
      const s = await startSim();
      const client = s.client();
      const store = createAppStore();
      storeData(store, slot, await readSlot(client, slot, {}), 1_000);
      expect({ event, fresh: [...store.getState().seen.fresh[kind]] }).toEqual({ event, fresh: [] });
      expect(s.sim.inject(event)).not.toBeNull();
      storeData(store, slot, await readSlot(client, slot, {}), 2_000);
      expect({ event, fresh: store.getState().seen.fresh[kind].size }).toEqual({ event, fresh: 1 });
    }
    // Other lists of the same kinds are not the news: a missed call first seen among the callbacks is not.
    const s = await startSim();
    const store = createAppStore();
    const callbacks: Slot = { kind: 'inbox', filter: 'callbacks' };
    storeData(store, callbacks, await readSlot(s.client(), callbacks, {}), 1_000);
    s.sim.inject('missed_call');
    storeData(store, callbacks, await readSlot(s.client(), callbacks, {}), 2_000);
    expect(store.getState().seen).toEqual(initialState().seen);
  });
});

/** The Loaded copy a slot fills, found without the table (so that the table's writes are checked by it). */
function copyOf(state: AppState, slot: Slot) {
  switch (slot.kind) {
    case 'inbox':
      return state.inbox[slot.filter];
    case 'actions':
      return state.actions[slot.status];
    case 'lead':
      return state.leads[slot.id];
    default:
      return state[slot.kind];
  }
}
