/**
 * Pairing the texts sent from here with the service's copies: one to one,
 * only with a message that can be the copy (outbound, the same words or their
 * truncation, not read before the text was confirmed, not older than the
 * confirmation by more than the clock's skew), and none left unpaired that
 * could have been. Property-based over random outboxes and threads whose
 * texts share a few words, so look-alikes are common.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/contract/resources.js';
import type { OutgoingText } from '../../src/store/app-store.js';
import {
  CLOCK_SKEW_MS,
  couldBeCopy,
  type ListedText,
  pairSentCopies,
  sameBody,
} from '../../src/store/sent-copies.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;
const WORDS = ['On my way', 'Thanks!', 'See you at 3', 'Sorry we missed your call — calling back now.'];

function sent(localId: string, body: string, confirmedAt: number, state: OutgoingText['state'] = 'sent') {
  return {
    localId,
    contactId: 'ct_1',
    contactName: 'Ray',
    phone: '+15035550100',
    body,
    idempotencyKey: `key-${localId}`,
    confirmedAt,
    state,
    attempts: 1,
  } satisfies OutgoingText;
}

function listed(id: string, body: string, at: number, leadId = 'lead_a', direction = 'outbound'): ListedText {
  return { leadId, message: { id, direction, body, occurred_at: new Date(at).toISOString() } as Message };
}

/** The service's cut: the first `keep` characters and "…". */
const cut = (text: string, keep: number) => `${Array.from(text).slice(0, keep).join('')}…`;

const textArb = fc.record({
  body: fc.constantFrom(...WORDS),
  at: fc.integer({ min: 0, max: 30 * MINUTE }),
  state: fc.constantFrom<OutgoingText['state']>('sent', 'sent', 'replayed', 'sending', 'waiting', 'failed'),
});
const messageArb = fc.record({
  body: fc.constantFrom(...WORDS),
  truncate: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  at: fc.integer({ min: -10 * MINUTE, max: 40 * MINUTE }),
  direction: fc.constantFrom('outbound', 'outbound', 'inbound'),
  lead: fc.constantFrom('lead_a', 'lead_b'),
});
const caseArb = fc.record({
  texts: fc.array(textArb, { maxLength: 6 }),
  messages: fc.array(messageArb, { maxLength: 10 }),
  known: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function build(input: Case) {
  const texts = input.texts.map((text, index) => sent(`t${index}`, text.body, T0 + text.at, text.state));
  const messages = input.messages.map((message, index) =>
    listed(
      `m${index}`,
      message.truncate === undefined ? message.body : cut(message.body, message.truncate),
      T0 + message.at,
      message.lead,
      message.direction,
    ),
  );
  // The first text was confirmed after the inbox had read these messages.
  const known = new Set(input.known.map((index) => `m${index}`));
  const knownBefore = (localId: string) => (localId === 't0' ? known : undefined);
  return { texts, messages, knownBefore, pairs: pairSentCopies(texts, messages, knownBefore) };
}

describe('pairSentCopies', () => {
  it('pairs one to one, and only with a message that can be the copy', () => {
    fc.assert(
      fc.property(caseArb, (input) => {
        const { texts, messages, knownBefore, pairs } = build(input);
        const ids = [...pairs.values()].map((pair) => pair.messageId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [localId, pair] of pairs) {
          const text = texts.find((candidate) => candidate.localId === localId);
          const item = messages.find((candidate) => candidate.message.id === pair.messageId);
          if (!text || !item) throw new Error('a pair names what does not exist');
          expect(['sent', 'replayed']).toContain(text.state);
          expect(item.leadId).toBe(pair.leadId);
          expect(couldBeCopy(item.message, text, knownBefore(localId))).toBe(true);
          expect(item.message.direction).toBe('outbound');
          expect(sameBody(item.message.body, text.body)).toBe(true);
          expect(Date.parse(item.message.occurred_at)).toBeGreaterThanOrEqual(
            text.confirmedAt - CLOCK_SKEW_MS,
          );
          expect(knownBefore(localId)?.has(item.message.id) ?? false).toBe(false);
        }
      }),
    );
  });

  it('leaves a sent text unpaired only when every message that could be its copy is another text’s', () => {
    fc.assert(
      fc.property(caseArb, (input) => {
        const { texts, messages, knownBefore, pairs } = build(input);
        const taken = new Set([...pairs.values()].map((pair) => pair.messageId));
        for (const text of texts) {
          if (pairs.has(text.localId) || (text.state !== 'sent' && text.state !== 'replayed')) continue;
          const free = messages.filter(
            (item) =>
              !taken.has(item.message.id) && couldBeCopy(item.message, text, knownBefore(text.localId)),
          );
          expect(free).toEqual([]);
        }
      }),
    );
  });

  it('n texts of the same words and m copies after them: min(n, m) pairs, in the order they were sent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (n, m) => {
        const texts = Array.from({ length: n }, (_, i) => sent(`t${i}`, 'On my way', T0 + i * MINUTE));
        const copies = Array.from({ length: m }, (_, i) =>
          listed(`m${i}`, 'On my way', T0 + i * MINUTE + 2_000),
        );
        const pairs = pairSentCopies(texts, [...copies].reverse());
        expect(pairs.size).toBe(Math.min(n, m));
        for (const [localId, pair] of pairs) expect(pair.messageId).toBe(localId.replace('t', 'm'));
      }),
    );
  });

  it('does not take a text of the same words sent before for the copy', () => {
    const text = sent('t0', 'On my way', T0);
    // Read before the text was confirmed (another terminal sent the same words a minute earlier).
    const earlier = listed('m_earlier', 'On my way', T0 - MINUTE);
    expect(pairSentCopies([text], [earlier], () => new Set(['m_earlier'])).size).toBe(0);
    // Not read before, but older than the confirmation by more than the clock could be off.
    const yesterday = listed('m_yesterday', 'On my way', T0 - CLOCK_SKEW_MS - 1);
    expect(pairSentCopies([text], [yesterday]).size).toBe(0);
    // With both there and the real copy after the confirmation, the copy is the one after it.
    const copy = listed('m_copy', 'On my way', T0 + 1_500);
    const nearBefore = listed('m_near', 'On my way', T0 - 30_000);
    expect(pairSentCopies([text], [nearBefore, copy]).get('t0')?.messageId).toBe('m_copy');
    // A shop clock a little behind this machine's still pairs the copy.
    expect(pairSentCopies([text], [listed('m_late_clock', 'On my way', T0 - 2 * MINUTE)]).size).toBe(1);
  });

  it('pairs only texts the service confirmed: sending, waiting and failed texts have no copy yet', () => {
    const copy = listed('m1', 'On my way', T0 + 1_000);
    for (const state of ['sending', 'waiting', 'failed'] as const)
      expect(pairSentCopies([sent('t0', 'On my way', T0, state)], [copy]).size).toBe(0);
    expect(pairSentCopies([sent('t0', 'On my way', T0, 'replayed')], [copy]).size).toBe(1);
  });
});

describe('sameBody', () => {
  it('matches the words, their trimmed form and any cut the service makes of them', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.nat(), (body, keep) => {
        fc.pre(body.trim().length > 0);
        const trimmed = body.trim();
        expect(sameBody(trimmed, body)).toBe(true);
        const chars = Array.from(trimmed);
        expect(sameBody(cut(trimmed, 1 + (keep % chars.length)), body)).toBe(true);
      }),
    );
  });

  it('does not match other words, or a cut of other words', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (a, b) => {
          fc.pre(!a.trim().startsWith(b.trim()) && !b.trim().startsWith(a.trim()));
          expect(sameBody(a, b)).toBe(false);
          expect(sameBody(cut(a.trim(), Math.max(1, Array.from(a.trim()).length)), b)).toBe(false);
        },
      ),
    );
    expect(sameBody('…', 'anything')).toBe(false);
    expect(sameBody('On my way…', 'On my wa')).toBe(false);
  });
});
