/**
 * Who sent a latest inbound text: a preview carries a time and the start of the words, no lead. Properties
 * over random shops: every preview of a thread read after the text was listed is matched to that thread and
 * that text; none is matched to another thread; a text no thread read holds is "not matched yet" while an
 * open lead's thread is unread since, and "not an open lead" once all were read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  leadOfPreview,
  messageOfPreview,
  previewSender,
  unmatchedShown,
} from '../../src/store/inbound-match.js';
import { noThreadNews } from '../../src/store/thread-news.js';
import { inboxLead, message, preview, thread, withThreads } from '../support/state.js';

const BASE = Date.parse('2026-11-21T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A preview of a body as GET /inbox gives it: cut after `cut` characters with an ellipsis, or whole. */
const previewOf = (body: string, cut: number) => {
  const chars = Array.from(body);
  return chars.length <= cut ? body : `${chars.slice(0, cut).join('')}…`;
};

/** A shop: leads with threads of texts at distinct times (a few ms apart), some read, some not. */
const shop: fc.Arbitrary<Shop> = fc
  .array(
    fc.record({
      texts: fc.array(
        fc.record({ inbound: fc.boolean(), body: fc.string({ minLength: 1, maxLength: 40 }) }),
        { minLength: 1, maxLength: 5 },
      ),
      read: fc.boolean(),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .chain((leads) =>
    fc.record({
      leads: fc.constant(leads),
      cuts: fc.array(fc.integer({ min: 1, max: 45 }), { minLength: 40, maxLength: 40 }),
    }),
  );

type Shop = {
  leads: Array<{ texts: Array<{ inbound: boolean; body: string }>; read: boolean }>;
  cuts: number[];
};

function build({ leads, cuts }: Shop) {
  let clock = BASE;
  const listed = leads.map((_, index) => inboxLead(String(index + 1)));
  const threads = leads.map((each, index) => {
    const lead = listed[index] as (typeof listed)[number];
    const messages = each.texts.map((text, position) => {
      clock += 7;
      return message(`m${index}-${position}`, text.inbound ? 'inbound' : 'outbound', iso(clock), text.body);
    });
    return { lead, detail: thread(lead, messages), read: each.read };
  });
  const previews = threads.flatMap(({ lead, detail }) =>
    detail.messages
      .filter((text) => text.direction === 'inbound')
      .map((text, index) => ({
        lead,
        text,
        shown: preview(text.occurred_at, previewOf(text.body, cuts[index % cuts.length] ?? 10)),
      })),
  );
  // Every thread read after every text was listed (the texts were listed at BASE, their copies later).
  const state = withThreads(
    listed,
    threads.filter((each) => each.read).map(({ detail }) => ({ detail, at: BASE + 10_000 })),
    previews.map((each) => each.shown),
    {
      threadNews: {
        ...noThreadNews(),
        listedAt: new Map(
          previews.map((each) => [`${each.shown.occurred_at}\u0000${each.shown.body_preview}`, BASE]),
        ),
      },
    },
  );
  return { state, threads, previews };
}

describe('matching a latest inbound text to its thread', () => {
  it('matches every preview of a thread read to that thread and that text, and none to another', () => {
    fc.assert(
      fc.property(shop, (generated) => {
        const { state, threads, previews } = build(generated);
        const read = new Set(threads.filter((each) => each.read).map((each) => each.lead.id));
        for (const { lead, text, shown } of previews) {
          const sender = previewSender(state, shown);
          if (read.has(lead.id)) {
            expect(sender).toMatchObject({ kind: 'matched', message: { id: text.id } });
            if (sender.kind === 'matched') expect(sender.lead.lead.id).toBe(lead.id);
            expect(leadOfPreview(state, shown)?.lead.id).toBe(lead.id);
          } else {
            // Its thread was never read: some open lead may still hold it.
            expect(sender.kind).toBe('not-matched-yet');
            expect(leadOfPreview(state, shown)).toBeUndefined();
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never matches a text of another time, or of other words, whatever the threads hold', () => {
    fc.assert(
      fc.property(
        shop,
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 6 }),
        (generated, words, shift) => {
          const { state, previews } = build(generated);
          for (const { shown, text } of previews) {
            // Same words a few ms off: another text (every text of the shop is 7 ms from the next).
            const moved = preview(iso(Date.parse(shown.occurred_at) + shift), shown.body_preview);
            expect(previewSender(state, moved).kind).not.toBe('matched');
            // Same time, words the text does not start with.
            if (!text.body.startsWith(words.replace(/…$/, '')))
              expect(previewSender(state, preview(shown.occurred_at, words)).kind).not.toBe('matched');
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('says "not an open lead" once every open lead was read after the text was listed, and not before', () => {
    const lead = inboxLead('1');
    const other = inboxLead('2');
    const text = preview('2026-11-21T12:00:00.000Z', 'Is Tuesday ok?');
    const listedAt = new Map([[`${text.occurred_at}\u0000${text.body_preview}`, 5_000]]);
    const news = { ...noThreadNews(), listedAt };
    const threadOf = (at: number) => [
      { detail: thread(lead, [message('a', 'outbound', '2026-11-21T11:00:00.000Z')]), at },
      { detail: thread(other, []), at: 6_000 },
    ];
    // Read before the text was listed: it may hold it now.
    expect(
      previewSender(withThreads([lead, other], threadOf(4_999), [text], { threadNews: news }), text).kind,
    ).toBe('not-matched-yet');
    expect(
      previewSender(withThreads([lead, other], threadOf(5_000), [text], { threadNews: news }), text).kind,
    ).toBe('no-open-lead');
    expect(unmatchedShown(withThreads([lead, other], threadOf(5_000), [text], { threadNews: news }))).toEqual(
      [text],
    );
  });

  it('finds the text of a preview cut with an ellipsis, not an outbound text of the same time and words', () => {
    const lead = inboxLead('1');
    const at = '2026-11-21T12:00:00.000Z';
    const detail = thread(lead, [
      message('out', 'outbound', at, 'Running late'),
      message('in', 'inbound', at, 'Running late, sorry!'),
    ]);
    expect(messageOfPreview(detail, preview(at, 'Running late…'))?.id).toBe('in');
  });
});
