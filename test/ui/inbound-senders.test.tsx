/**
 * Who wrote a new text: a latest inbound text carries no lead, so the inbox
 * reads threads to find it. The contacts list says who was last in touch, so
 * the writer's thread is read first, not the open leads' threads newest first
 * (at one every `pacedMs`, five seconds, a text from the 29th lead took over
 * two minutes to name its writer).
 */
import { describe, expect, it } from 'vitest';
import type { Contact, InboxLead } from '../../src/contract/resources.js';
import type { AppState } from '../../src/store/app-store.js';
import { contactsFollowTexts, threadsToRead } from '../../src/store/conversation-picture.js';
import { previewSender } from '../../src/store/inbound-match.js';
import { threadLeadId } from '../../src/store/selectors.js';
import { noThreadNews } from '../../src/store/thread-news.js';
import { manualClock, startSim } from '../support/sim.js';
import { inboxMatchingTexts, lines, plain } from './nav-pane-helpers.js';

const MINUTE = 60_000;

const matched = (state: AppState, body: string) =>
  (state.inbox.open.data?.latest_inbound ?? []).some(
    (preview) => preview.body_preview.startsWith(body) && previewSender(state, preview).kind === 'matched',
  );

describe('who wrote a new text', () => {
  it("reads the writer's threads first, the oldest open lead's as well: one contacts read, then no other customer's thread", async () => {
    const clock = manualClock(Date.parse('2026-11-21T15:00:00Z'));
    const s = await startSim({ now: clock.now });
    const tui = await inboxMatchingTexts(s, clock.now);
    await tui.waitFor((_f, state) => threadsToRead(state).length === 0, 10_000);
    const open = tui.state().inbox.open.data?.open_leads ?? [];
    const writer = open.at(-1);
    if (!writer || open.length < 10) throw new Error('the seed has too few open leads');
    const requestsBefore = (await s.requests()).length;

    clock.advance(MINUTE);
    s.sim.receiveText(writer.id, 'Can you come back on Monday?');
    // r reads what the Inbox shows: the list brings the text, and the contacts list is read for it.
    await tui.press('r');
    await tui.waitFor((_f, state) => matched(state, 'Can you come back on Monday?'), 10_000);
    // Named on screen, with the writer's name and number.
    await tui.waitFor((frame) =>
      lines(plain(frame)).some(
        (line) =>
          line.includes(`(${writer.caller_phone}): Can you come back`) && line.includes(writer.contact_name),
      ),
    );

    const after = (await s.requests()).slice(requestsBefore).filter((request) => request.method === 'GET');
    // r reads the thread beside the list again; every other thread read was one of the writer's open leads
    // (a customer may have several: a missed call, then a web form), each once, and the writer's among them.
    const beside = threadLeadId(tui.state());
    const writersLeads = open
      .filter((lead) => lead.caller_phone === writer.caller_phone)
      .map((lead) => lead.id);
    const threadReads = after
      .filter((request) => request.path.startsWith('/v1/leads/'))
      .map((request) => request.path.slice('/v1/leads/'.length))
      .filter((id) => id !== beside);
    expect(threadReads).toContain(writer.id);
    expect(new Set(threadReads).size).toBe(threadReads.length);
    expect(writersLeads).toEqual(expect.arrayContaining(threadReads));
    // The contacts list was read before them, once.
    const paths = after.map((request) => request.path.split('?')[0]);
    const contactsRead = paths.indexOf('/v1/contacts');
    expect(contactsRead).toBeGreaterThanOrEqual(0);
    expect(paths.lastIndexOf('/v1/contacts')).toBe(contactsRead);
    const firstThreadRead = paths.findIndex(
      (path) => path?.startsWith('/v1/leads/') && path !== `/v1/leads/${beside}`,
    );
    expect(contactsRead).toBeLessThan(firstThreadRead);
  });
});

describe('the order of the threads read to match a text', () => {
  const lead = (id: string, phone: string): InboxLead =>
    ({
      id,
      status: 'new',
      urgency: 'same_day',
      contact_name: `Customer ${id}`,
      caller_phone: phone,
      job_type: 'leak',
      created_at: '2026-11-20T10:00:00.000Z',
    }) as InboxLead;
  const contact = (phone: string, lastContactAt: string | null): Contact =>
    ({
      id: `c-${phone}`,
      name: `Contact ${phone}`,
      phone,
      email: null,
      stage: 'lead',
      last_contact_at: lastContactAt,
    }) as Contact;
  const stateWith = (texts: string[], contacts: Contact[] | undefined): Parameters<typeof threadsToRead>[0] =>
    ({
      leads: {},
      threadNews: noThreadNews(),
      inbox: {
        open: {
          loading: false,
          updatedAt: 0,
          data: {
            filter: 'open',
            open_leads: [
              lead('a', '+15550001'),
              lead('b', '+15550002'),
              lead('c', '+15550003'),
              lead('d', '+15550004'),
              // b's customer again (a missed call, then a web form).
              lead('e', '+15550002'),
            ],
            latest_inbound: texts.map((at, index) => ({ occurred_at: at, body_preview: `Text ${index}` })),
          },
        },
        callbacks: { loading: false },
      },
      ...(contacts
        ? {
            contacts: { loading: false, query: '', loadedQuery: '', updatedAt: 0, data: { items: contacts } },
          }
        : {}),
    }) as unknown as Parameters<typeof threadsToRead>[0];

  it('is newest first without a contacts list, or when nobody was in touch since the texts', () => {
    expect(threadsToRead(stateWith(['2026-11-21T12:00:00.000Z'], undefined))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(
      threadsToRead(
        stateWith(
          ['2026-11-21T12:00:00.000Z'],
          [contact('+15550003', '2026-11-21T11:59:59.999Z'), contact('+15550004', null)],
        ),
      ),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('puts first the leads whose contact was in touch at or after a text, the closest first, every open lead of that contact; the rest keep their order', () => {
    const state = stateWith(
      ['2026-11-21T12:00:00.000Z', '2026-11-21T11:00:00.000Z'],
      [
        // In touch five minutes after the first text.
        contact('+15550002', '2026-11-21T12:05:00.000Z'),
        // At the second text's very time (and long after the first's).
        contact('+15550004', '2026-11-21T11:00:00.000Z'),
        // A contact with no open lead: nothing to read.
        contact('+15559999', '2026-11-21T12:00:00.000Z'),
        // Never in touch.
        contact('+15550001', null),
      ],
    );
    expect(threadsToRead(state)).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it('reads first the threads that may hold the text listed first, so that later texts never starve it', () => {
    const at = (time: string) => Date.parse(`2026-11-21T${time}:00.000Z`);
    const copy = (id: string, readAt: string, direction: 'inbound' | 'outbound', time: string) => ({
      loading: false,
      updatedAt: at(readAt),
      data: {
        lead: {
          id,
          status: 'new',
          urgency: 'same_day',
          contact_id: `c-${id}`,
          source: 'sms',
          created_at: '2026-11-20T10:00:00.000Z',
        },
        contact: { id: `c-${id}`, name: `Customer ${id}`, phone: '+15550009' },
        consent_latest: null,
        messages: [
          { id: `m-${time}`, direction, body: 'Earlier', occurred_at: `2026-11-21T${time}:00.000Z` },
        ],
      },
    });
    const state = {
      ...stateWith(['2026-11-21T12:00:00.000Z', '2026-11-21T11:00:00.000Z'], undefined),
      leads: {
        // Read between the two texts, and the shop spoke last: the likeliest for the later text alone.
        a: copy('a', '11:30', 'outbound', '11:20'),
        // Read before both, the customer spoke last: the least likely, but it may hold either.
        c: copy('c', '10:30', 'inbound', '10:00'),
      },
    } as unknown as Parameters<typeof threadsToRead>[0];
    expect(threadsToRead(state)).toEqual(['c', 'b', 'd', 'e', 'a']);
  });

  it('leaves out the contacts list for new texts once it is seen not to follow them, and reads it while nothing tells', () => {
    const withContacts = (askedAt: string, lastContactAt: string | null) =>
      ({
        ...stateWith(['2026-11-21T12:00:00.000Z'], undefined),
        leads: {
          b: {
            loading: false,
            updatedAt: Date.parse('2026-11-21T12:00:30.000Z'),
            data: {
              lead: {
                id: 'b',
                status: 'new',
                urgency: 'same_day',
                contact_id: 'c-b',
                source: 'sms',
                created_at: '2026-11-20T10:00:00.000Z',
              },
              contact: { id: 'c-b', name: 'Customer b', phone: '+15550002' },
              consent_latest: null,
              messages: [
                { id: 'm1', direction: 'inbound', body: 'Text 0', occurred_at: '2026-11-21T12:00:00.000Z' },
              ],
            },
          },
        },
        contacts: {
          loading: false,
          query: '',
          loadedQuery: '',
          updatedAt: Date.parse(askedAt),
          data: { items: [contact('+15550002', lastContactAt)] },
        },
      }) as unknown as Parameters<typeof threadsToRead>[0];
    // Asked for after the text, and the writer's last contact is still before it: the list does not follow.
    expect(contactsFollowTexts(withContacts('2026-11-21T12:01:00.000Z', '2026-11-21T09:00:00.000Z'))).toBe(
      false,
    );
    expect(contactsFollowTexts(withContacts('2026-11-21T12:01:00.000Z', null))).toBe(false);
    // It follows: the writer's last contact is the text's.
    expect(contactsFollowTexts(withContacts('2026-11-21T12:01:00.000Z', '2026-11-21T12:00:00.000Z'))).toBe(
      true,
    );
    // Asked for before the text: it cannot tell.
    expect(contactsFollowTexts(withContacts('2026-11-21T11:59:00.000Z', '2026-11-21T09:00:00.000Z'))).toBe(
      true,
    );
    expect(contactsFollowTexts(stateWith(['2026-11-21T12:00:00.000Z'], undefined))).toBe(true);
  });

  it('takes a contact whose time is no timestamp as no hint', () => {
    const state = stateWith(['2026-11-21T12:00:00.000Z'], [contact('+15550003', 'not a time')]);
    expect(threadsToRead(state)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
