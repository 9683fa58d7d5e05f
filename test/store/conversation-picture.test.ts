/**
 * The picture of every open conversation: which threads the inbox reads now and in which order, which it
 * reads again when nothing is new, and how much of the picture it has. Pure, over built states.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pictureCoverage, threadsToRead, threadToRefresh } from '../../src/store/conversation-picture.js';
import { inboundId } from '../../src/store/seen.js';
import { noThreadNews, type ThreadNews } from '../../src/store/thread-news.js';
import {
  activity,
  contact,
  inboxLead,
  loaded,
  message,
  preview,
  stateWith,
  thread,
  withThreads,
} from '../support/state.js';

const T = (minutes: number) =>
  new Date(Date.parse('2026-11-21T12:00:00.000Z') + minutes * 60_000).toISOString();
const leads = ['1', '2', '3', '4', '5'].map((id, index) => inboxLead(id, { created_at: T(-100 + index) }));
const [a, b, c, d, e] = leads as [
  (typeof leads)[number],
  (typeof leads)[number],
  (typeof leads)[number],
  (typeof leads)[number],
  (typeof leads)[number],
];
const answered = (lead: typeof a, minutes: number) =>
  thread(lead, [
    message(`${lead.id}-in`, 'inbound', T(minutes - 1)),
    message(`${lead.id}-out`, 'outbound', T(minutes)),
  ]);
const waitingOn = (lead: typeof a, minutes: number) =>
  thread(lead, [message(`${lead.id}-in`, 'inbound', T(minutes))]);
const news = (fields: Partial<ThreadNews>): ThreadNews => ({ ...noThreadNews(), ...fields });

describe('the threads to read now', () => {
  it("at the start: every open lead, in the service's order (newest first); none once all are read", () => {
    expect(threadsToRead(withThreads(leads, []))).toEqual(['1', '2', '3', '4', '5']);
    const all = leads.map((lead) => ({ detail: answered(lead, -50), at: 1_000 }));
    expect(threadsToRead(withThreads(leads, all))).toEqual([]);
  });

  it('leaves out a thread being read, and counts a failed read as read (a refused thread is not asked for again and again)', () => {
    const state = withThreads(leads, [{ detail: answered(a, -50), at: 1_000 }]);
    const base = state.leads;
    const reading = stateWith({ ...state, leads: { ...base, '2': { loading: true } } });
    expect(threadsToRead(reading)).toEqual(['3', '4', '5']);
    const refused = stateWith({
      ...state,
      leads: {
        ...base,
        '2': { loading: false, error: { code: 'not_found', status: 404, message: 'gone', at: 2_000 } },
      },
    });
    expect(threadsToRead(refused)).toEqual(['3', '4', '5']);
  });

  it('reads again a thread a list said changed since it was read, the latest change first, before the unread', () => {
    const read = [a, b, c].map((lead) => ({ detail: answered(lead, -50), at: 1_000 }));
    const state = withThreads(leads, read, [], {
      threadNews: news({
        changedAt: new Map([
          ['1', 1_500],
          ['2', 1_000],
          ['3', 2_000],
        ]),
      }),
    });
    // 2 changed when its copy was asked for: its copy has the change.
    expect(threadsToRead(state)).toEqual(['3', '1', '4', '5']);
  });

  it('for a text no thread holds: a hint first (Today naming the writer at its time, then a contact in touch since, closest first)', () => {
    const text = preview(T(0), 'Can you come Monday?');
    const read = leads.map((lead) => ({ detail: answered(lead, -50), at: 1_000 }));
    const base = withThreads(leads, read, [text], {
      threadNews: news({ listedAt: new Map([[inboundId(text), 5_000]]) }),
    });
    // No hint: those the shop spoke last in come first (all here), the most recently active first.
    expect(threadsToRead(base)).toEqual(['1', '2', '3', '4', '5']);
    const contacts = [contact('x', c.caller_phone, T(2)), contact('y', e.caller_phone, T(1))];
    const hinted = stateWith({
      ...base,
      contacts: { ...loaded({ items: contacts }), query: '', loadedQuery: '' },
      today: loaded({
        pending_actions: [],
        activity: [activity('sms_inbound', `New text from ${b.contact_name}: Can you…`, T(0))],
      }),
    });
    expect(threadsToRead(hinted)).toEqual(['2', '5', '3', '1', '4']);
    // A contacts search is no hint (its times are of the contacts it found, not of the shop).
    const searching = stateWith({
      ...hinted,
      contacts: { ...loaded({ items: contacts }), query: 'x', loadedQuery: 'x' },
    });
    expect(threadsToRead(searching)).toEqual(['2', '1', '3', '4', '5']);
  });

  it("for a text no thread holds and no hint: the threads the shop spoke last in first, then the customers' own, newest first", () => {
    const text = preview(T(0), 'Hello?');
    const state = withThreads(
      leads,
      [
        { detail: waitingOn(a, -10), at: 1_000 },
        { detail: answered(b, -40), at: 1_000 },
        { detail: answered(c, -20), at: 1_000 },
        { detail: waitingOn(d, -5), at: 1_000 },
      ],
      [text],
      { threadNews: news({ listedAt: new Map([[inboundId(text), 5_000]]) }) },
    );
    // e was never read: its lead's time (long ago) is its last known activity.
    expect(threadsToRead(state)).toEqual(['3', '2', '4', '1', '5']);
  });

  it('a text listed after a thread was read makes it a candidate again; read since, it is not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 0, max: 10_000 }),
        (times, listed) => {
          const text = preview(T(0), 'Anyone there?');
          const state = withThreads(
            leads,
            leads.map((lead, index) => ({ detail: answered(lead, -50), at: times[index] ?? 0 })),
            [text],
            { threadNews: news({ listedAt: new Map([[inboundId(text), listed]]) }) },
          );
          const expected = leads.filter((_, index) => (times[index] ?? 0) < listed).map((lead) => lead.id);
          expect([...threadsToRead(state)].sort()).toEqual(expected.sort());
        },
      ),
    );
  });
});

describe('the thread read again when nothing is new', () => {
  it('is the open lead read longest ago (one never read successfully first), never one being read', () => {
    const state = withThreads(leads, [
      { detail: answered(a, -50), at: 3_000 },
      { detail: answered(b, -50), at: 1_000 },
      { detail: answered(c, -50), at: 2_000 },
    ]);
    expect(threadToRefresh(state)).toBe('2');
    const failed = stateWith({
      ...state,
      leads: {
        ...state.leads,
        '4': { loading: false, error: { code: 'server', status: 503, message: 'down', at: 4_000 } },
      },
    });
    expect(threadToRefresh(failed)).toBe('4');
    expect(
      threadToRefresh(
        stateWith({ ...state, leads: { ...state.leads, '2': { ...state.leads['2'], loading: true } } }),
      ),
    ).toBe('3');
  });
});

describe('how much of the picture is read', () => {
  it('counts the open leads listed whose thread has been read', () => {
    expect(pictureCoverage(withThreads(leads, []))).toEqual({ read: 0, of: 5 });
    expect(
      pictureCoverage(
        withThreads(leads, [
          { detail: answered(a, -1), at: 1 },
          { detail: answered(d, -1), at: 1 },
        ]),
      ),
    ).toEqual({ read: 2, of: 5 });
  });
});
