/**
 * What a fresh copy of a list says about the threads without reading them: each compared with the copy
 * before it, the first copy of each being the baseline.
 */
import { describe, expect, it } from 'vitest';
import type { AppState } from '../../src/store/app-store.js';
import { leadsNamedIn, newsOfContacts, newsOfInbox, newsOfToday } from '../../src/store/news-of-lists.js';
import { inboundId } from '../../src/store/seen.js';
import { CHANGES_KEPT, noThreadNews, withChanges } from '../../src/store/thread-news.js';
import {
  activity,
  contact,
  inbox,
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
const a = inboxLead('1', { contact_name: 'Tom Kowalski', caller_phone: '+15035550101' });
const b = inboxLead('2', { contact_name: 'Nguyễn Thị Lan', caller_phone: '+15035550102', status: 'new' });
// Tom again: a missed call, then a web form.
const a2 = inboxLead('3', { contact_name: 'Tom Kowalski', caller_phone: '+15035550101' });

const withInbox = (
  state: AppState,
  filter: 'open' | 'callbacks',
  leads = [a, b, a2],
  latest = [preview(T(0), 'Hi')],
) => stateWith({ ...state, inbox: { ...state.inbox, [filter]: loaded(inbox(leads, latest, filter)) } });

describe('the news of an inbox copy', () => {
  it('keeps when each latest text was first listed, and forgets the texts no longer listed', () => {
    const first = newsOfInbox(
      stateWith(),
      'open',
      inbox([a, b], [preview(T(0), 'Hi'), preview(T(-5), 'Old')]),
      1_000,
    );
    expect(first.listedAt).toEqual(
      new Map([
        [inboundId(preview(T(0), 'Hi')), 1_000],
        [inboundId(preview(T(-5), 'Old')), 1_000],
      ]),
    );
    const state = stateWith({ ...withInbox(stateWith(), 'open'), threadNews: first });
    const next = newsOfInbox(
      state,
      'open',
      inbox([a, b], [preview(T(1), 'New'), preview(T(0), 'Hi')]),
      2_000,
    );
    expect(next.listedAt).toEqual(
      new Map([
        [inboundId(preview(T(1), 'New')), 2_000],
        [inboundId(preview(T(0), 'Hi')), 1_000],
      ]),
    );
  });

  it('says a thread changed when its lead changed status, or left the missed calls while still open', () => {
    const open = withInbox(stateWith(), 'open');
    const state = withInbox(open, 'callbacks', [a, b]);
    const moved = newsOfInbox(state, 'open', inbox([a, { ...b, status: 'contacted' }, a2]), 3_000);
    expect([...moved.changedAt]).toEqual([['2', 3_000]]);
    // a left the missed calls (answered from somewhere else); b stays.
    const answered = newsOfInbox(state, 'callbacks', inbox([b], [], 'callbacks'), 4_000);
    expect([...answered.changedAt]).toEqual([['1', 4_000]]);
    // The first copy is the baseline: nothing moved.
    expect(newsOfInbox(stateWith(), 'open', inbox([a, b]), 1_000).changedAt.size).toBe(0);
  });
});

describe('the news of a contacts copy', () => {
  it("says every lead of a contact whose last contact moved changed: by the thread's contact, and the listed leads of the phone", () => {
    const threads = [{ detail: thread(a, [message('m', 'inbound', T(-10))], 'ct-tom'), at: 1 }];
    const base = withThreads([a, b, a2], threads);
    const before = [contact('ct-tom', a.caller_phone, T(-10)), contact('ct-lan', b.caller_phone, T(-20))];
    const state = stateWith({
      ...base,
      contacts: { ...loaded({ items: before }), query: '', loadedQuery: '' },
    });
    const after = [contact('ct-tom', a.caller_phone, T(1)), contact('ct-lan', b.caller_phone, T(-20))];
    const news = newsOfContacts(state, { items: after }, 5_000);
    expect([...news.changedAt.keys()].sort()).toEqual(['1', '3']);
    // The first copy, or a search's, is no baseline.
    expect(newsOfContacts(base, { items: after }, 5_000).changedAt.size).toBe(0);
    const searched = stateWith({
      ...state,
      contacts: { ...loaded({ items: before }), query: 'tom', loadedQuery: 'tom' },
    });
    expect(newsOfContacts(searched, { items: after }, 5_000).changedAt.size).toBe(0);
  });
});

describe('the news of a Today copy', () => {
  const earlier = {
    pending_actions: [],
    activity: [activity('sms_inbound', 'New text from Tom Kowalski: Hi', T(-1))],
  };
  const before = loaded(earlier);

  it('says the leads of the contact a new activity item names changed (every lead of the name)', () => {
    const state = stateWith({ ...withInbox(stateWith(), 'open'), today: before });
    const next = {
      pending_actions: [],
      activity: [activity('text_sent', 'Text sent to Nguyễn Thị Lan', T(0)), ...earlier.activity],
    };
    expect([...newsOfToday(state, next, 6_000).changedAt]).toEqual([['2', 6_000]]);
    // Seen before: no news.
    expect(newsOfToday(state, earlier, 7_000).changedAt.size).toBe(0);
  });

  it('for a text sent that names nobody, says every conversation waiting for a reply changed; for an unnamed text in, nothing', () => {
    const threads = [
      { detail: thread(a, [message('1', 'inbound', T(-3))]), at: 1 },
      { detail: thread(b, [message('2', 'inbound', T(-4)), message('3', 'outbound', T(-2))]), at: 1 },
      { detail: thread(a2, [message('4', 'inbound', T(-9))]), at: 1 },
    ];
    const state = stateWith({ ...withThreads([a, b, a2], threads), today: before });
    const sent = {
      pending_actions: [],
      activity: [activity('text_sent', 'Text sent', T(0)), ...earlier.activity],
    };
    expect([...newsOfToday(state, sent, 8_000).changedAt.keys()].sort()).toEqual(['1', '3']);
    const came = {
      pending_actions: [],
      activity: [activity('sms_inbound', 'New text', T(0)), ...earlier.activity],
    };
    expect(newsOfToday(state, came, 8_000).changedAt.size).toBe(0);
  });

  it('finds a name only whole, of at least two characters', () => {
    const state = withInbox(stateWith(), 'open', [a, inboxLead('9', { contact_name: ' ' })]);
    expect(leadsNamedIn(state, 'Missed call from Tom Kowalski (+15035550101)')).toEqual(['1']);
    expect(leadsNamedIn(state, 'Missed call from Tom')).toEqual([]);
  });
});

describe('the changes kept', () => {
  it('keeps the latest of each lead and at most CHANGES_KEPT leads, the oldest going first', () => {
    let news = noThreadNews();
    news = withChanges(news, ['x'], 5);
    expect(withChanges(news, ['x'], 4)).toBe(news);
    for (let i = 0; i < CHANGES_KEPT + 10; i += 1) news = withChanges(news, [`lead${i}`], 10 + i);
    expect(news.changedAt.size).toBe(CHANGES_KEPT);
    expect(news.changedAt.has('x')).toBe(false);
    expect(news.changedAt.get(`lead${CHANGES_KEPT + 9}`)).toBe(CHANGES_KEPT + 19);
  });
});
