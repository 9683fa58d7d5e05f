/**
 * The send flow's decisions as pure functions: for every mix of findings
 * (consent, an opt-out, a template variable left), answers (y, n, a typed
 * word right or wrong), another terminal writing to the contact, a lead to
 * read again or none, and what reading it again brought (nothing, new texts,
 * a failure), the outcome is the one the composer promises: nothing is handed
 * to the sender unless every question was answered as it asks, and a failed
 * re-read asks again instead of sending.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { LeadDetail, Message } from '../../src/contract/resources.js';
import { type AppState, type ConfirmSend, initialState } from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';
import {
  afterReread,
  answerSend,
  askToSend,
  editTypedWord,
  rereadFailed,
  rereadVerdict,
  type SendAnswer,
} from '../../src/user-actions/send-decision.js';

const NOON_UTC = Date.parse('2026-11-21T12:00:00Z');
const CONTACT = { contactId: 'contact-1', name: 'Dana Reyes', phone: '+15035550117' };

type Consent = 'given' | 'not given' | 'none';

const message = (id: string, direction: 'inbound' | 'outbound', body: string, minute = 0): Message => ({
  id,
  direction,
  body,
  occurred_at: new Date(NOON_UTC - 60 * 60_000 + minute * 60_000).toISOString(),
});

/** A lead of the contact as the API gives it (only what the checks read matters here). */
function leadDetail(messages: Message[], consent: Consent): LeadDetail {
  return {
    lead: { id: 'lead-1' },
    contact: { id: CONTACT.contactId, name: CONTACT.name, phone: CONTACT.phone },
    messages,
    consent_latest:
      consent === 'none'
        ? null
        : { phone: CONTACT.phone, sms_initial: consent === 'given', recorded_at: '2026-10-01T10:00:00Z' },
  } as unknown as LeadDetail;
}

interface World {
  consent: Consent;
  optedOut: boolean;
  unfilled: boolean;
  /** The contact's lead was read (else: a contact with no thread read, as from Contacts). */
  leadRead: boolean;
  elsewhere: boolean;
}

function stateOf(world: World, extra: Message[] = []): AppState {
  const messages = [message('m1', 'inbound', 'Hi, can you call me?', 0)];
  if (world.optedOut) messages.push(message('m2', 'inbound', 'STOP', 1));
  const state = initialState({ machineTimeZone: 'UTC', timeZone: 'UTC' });
  const target = {
    ...CONTACT,
    ...(world.leadRead ? { leadId: 'lead-1' } : {}),
    // The consent a contact without a lead read shows: unknown, or what the list said.
    ...(world.leadRead ? {} : { consent: world.consent === 'none' ? null : undefined }),
  };
  return {
    ...state,
    leads: world.leadRead
      ? { 'lead-1': { loading: false, data: leadDetail([...messages, ...extra], world.consent) } }
      : {},
    presence: {
      others: world.elsewhere ? 1 : 0,
      composingElsewhere: world.elsewhere ? [CONTACT.contactId] : [],
    },
    composer: world.leadRead ? { ...target, seenTextIds: messages.map((m) => m.id) } : target,
    composed: { [CONTACT.contactId]: lineOf(world.unfilled ? 'Hi {name}, see you at 3' : 'See you at 3') },
  };
}

const worlds = fc.record<World>({
  consent: fc.constantFrom<Consent>('given', 'not given', 'none'),
  optedOut: fc.boolean(),
  unfilled: fc.boolean(),
  leadRead: fc.boolean(),
  elsewhere: fc.boolean(),
});

/** The word the question should ask for, or undefined for y; 'refused' when nothing sends it. */
function expectedWord(world: World): string | undefined | 'refused' {
  if (world.unfilled) return 'refused';
  if (world.optedOut && world.leadRead) return 'override';
  const consentKnownGiven = world.leadRead && world.consent === 'given';
  return consentKnownGiven ? undefined : 'send';
}

const answers = fc.oneof(
  fc.constant<SendAnswer>({ kind: 'yes' }),
  fc.constant<SendAnswer>({ kind: 'no' }),
  fc.constant<SendAnswer>({ kind: 'typed' }),
);

const typedWords = fc.oneof(
  fc.constantFrom('send', 'override', ' SEND ', 'Override', 'y', ''),
  fc.string({ maxLength: 12 }),
);

describe('the question', () => {
  it('is refused only for a finding no word overrides; else asks the word the findings call for, bound to the contact and the exact text', () => {
    fc.assert(
      fc.property(worlds, (world) => {
        const state = stateOf(world);
        const outcome = askToSend(state, NOON_UTC);
        const word = expectedWord(world);
        if (word === 'refused') {
          expect(outcome).toMatchObject({ kind: 'refused', reason: { kind: 'findings' } });
          if (outcome.kind === 'refused' && outcome.reason.kind === 'findings')
            expect(outcome.reason.findings.map((finding) => finding.check)).toContain('unfilled-variable');
          return;
        }
        expect(outcome.kind).toBe('asked');
        if (outcome.kind !== 'asked') return;
        expect(outcome.prompt.word).toBe(word);
        expect(outcome.prompt.target.contactId).toBe(CONTACT.contactId);
        expect(outcome.prompt.body).toBe(state.composed[CONTACT.contactId]?.text);
      }),
    );
  });

  it('is not asked for an empty text, nor while the lead’s contact is read', () => {
    const state = stateOf({
      consent: 'given',
      optedOut: false,
      unfilled: false,
      leadRead: true,
      elsewhere: false,
    });
    expect(askToSend({ ...state, composed: { [CONTACT.contactId]: lineOf('  \n ') } }, NOON_UTC)).toEqual({
      kind: 'not-asked',
      why: 'no-text',
    });
    expect(
      askToSend(
        { ...state, composer: undefined, composerWaiting: { leadId: 'lead-1', name: 'Dana', phone: '+1' } },
        NOON_UTC,
      ),
    ).toEqual({ kind: 'not-asked', why: 'contact-loading' });
  });
});

/** Any send question, as asked and as it may stand later (asked again, checking). */
const prompts = fc.record<PromptShape>({
  word: fc.constantFrom<string | undefined>(undefined, 'send', 'override'),
  typed: typedWords,
  again: fc.boolean(),
  rereadFailed: fc.constantFrom<string | undefined>(undefined, "the shop's API had a problem (HTTP 503)."),
  checking: fc.boolean(),
});

interface PromptShape {
  word: string | undefined;
  typed: string;
  again: boolean;
  rereadFailed?: string | undefined;
  checking: boolean;
}

function promptOf(world: World, shape: PromptShape): ConfirmSend {
  const asked = askToSend(stateOf({ ...world, unfilled: false }), NOON_UTC);
  if (asked.kind !== 'asked') throw new Error('no question');
  const { word: _word, typed: _typed, ...prompt } = asked.prompt;
  return {
    ...prompt,
    ...(shape.word !== undefined ? { word: shape.word, typed: lineOf(shape.typed) } : {}),
    ...(shape.again ? { again: true } : {}),
    ...(shape.rereadFailed !== undefined ? { rereadFailed: shape.rereadFailed } : {}),
    ...(shape.checking ? { checking: true } : {}),
  };
}

describe('an answer', () => {
  it('hands the text to the sender only when every question was answered as it asks', () => {
    fc.assert(
      fc.property(worlds, prompts, answers, (world, shape, answer) => {
        const state = stateOf({ ...world, unfilled: false });
        const prompt = promptOf(world, shape);
        const step = answerSend(state, prompt, answer, NOON_UTC);
        const wordTyped =
          prompt.word !== undefined && (prompt.typed?.text ?? '').trim().toLowerCase() === prompt.word;

        // No answers always, even while the thread is read again (esc: no): nothing is sent then.
        if (answer.kind === 'no')
          return void expect(step).toEqual({ kind: 'declined', target: prompt.target });
        if (prompt.checking) return void expect(step).toEqual({ kind: 'ignored' });
        if (answer.kind === 'yes' && prompt.word !== undefined)
          return void expect(step).toEqual({ kind: 'ignored' });
        if (answer.kind === 'typed' && prompt.word === undefined)
          return void expect(step).toEqual({ kind: 'ignored' });
        if (answer.kind === 'typed' && !wordTyped)
          return void expect(step).toMatchObject({
            kind: 'refused',
            reason: { kind: 'word-missing', word: prompt.word },
          });

        // Answered as asked.
        if (world.elsewhere && !prompt.again && prompt.rereadFailed === undefined) {
          expect(step).toMatchObject({ kind: 'ask-again', because: { kind: 'replied-elsewhere' } });
          if (step.kind === 'ask-again') {
            expect(step.prompt).toMatchObject({ again: true, body: prompt.body, target: prompt.target });
            expect(step.prompt.word).toBeUndefined();
          }
          return;
        }
        if (prompt.rereadFailed !== undefined || !world.leadRead)
          return void expect(step).toEqual({
            kind: 'deliver',
            target: prompt.target,
            body: prompt.body,
            checked: false,
          });
        expect(step).toEqual({ kind: 'reread', leadId: 'lead-1', prompt: { ...prompt, checking: true } });
      }),
    );
  });
});

describe('the thread read again', () => {
  const arrivals = fc.array(
    fc.record({
      direction: fc.constantFrom<'inbound' | 'outbound'>('inbound', 'outbound'),
      body: fc.constantFrom('Actually 4pm?', 'STOP', 'Tech is on the way', 'START'),
    }),
    { maxLength: 3 },
  );
  const rereads = fc.oneof(
    fc.constant({ ok: true as const }),
    fc.constant({ ok: false as const, why: "the shop's API had a problem (HTTP 503)." }),
  );

  it('sends when nothing arrived; asks again with what arrived; asks again saying why when it could not be read', () => {
    fc.assert(
      fc.property(
        worlds.filter((world) => world.leadRead && !world.unfilled),
        arrivals,
        rereads,
        (world, arrived, reread) => {
          const prompt = {
            ...promptOf(world, { word: undefined, typed: '', again: false, checking: true }),
            checking: true,
          };
          const extra = arrived.map((text, index) =>
            message(`new-${index}`, text.direction, text.body, 10 + index),
          );
          const state = stateOf(world, extra);
          const step = afterReread(state, prompt, reread, NOON_UTC);

          if (extra.length > 0) {
            expect(step.kind).toBe('ask-again');
            if (step.kind !== 'ask-again') return;
            expect(step.because).toEqual({ kind: 'arrived', texts: extra });
            expect(step.prompt.findings?.filter((finding) => finding.check === 'arrived')).toHaveLength(
              extra.length,
            );
            // Asked anew: no longer checking, every text counted as seen, the same contact and text.
            expect(step.prompt.checking).toBeUndefined();
            expect(step.prompt.target.seenTextIds).toEqual(expect.arrayContaining(extra.map((m) => m.id)));
            expect(step.prompt).toMatchObject({
              body: prompt.body,
              target: { contactId: CONTACT.contactId },
            });
            return;
          }
          if (reread.ok)
            return void expect(step).toEqual({
              kind: 'deliver',
              target: prompt.target,
              body: prompt.body,
              checked: true,
            });
          expect(step).toMatchObject({
            kind: 'ask-again',
            because: { kind: 'reread-failed', why: reread.why },
          });
          if (step.kind !== 'ask-again') return;
          expect(step.prompt).toMatchObject({
            body: prompt.body,
            target: prompt.target,
            rereadFailed: reread.why,
          });
          expect(step.prompt.checking).toBeUndefined();
          expect(step.prompt.word).toBeUndefined();
        },
      ),
    );
  });

  it('a failed read, then y: nothing is handed to the sender before the second yes, which sends without the check', () => {
    const world: World = {
      consent: 'given',
      optedOut: false,
      unfilled: false,
      leadRead: true,
      elsewhere: false,
    };
    const state = stateOf(world);
    const asked = askToSend(state, NOON_UTC);
    if (asked.kind !== 'asked') throw new Error('no question');
    const first = answerSend(state, asked.prompt, { kind: 'yes' }, NOON_UTC);
    if (first.kind !== 'reread') throw new Error(`expected a re-read, got ${first.kind}`);
    const failed = afterReread(state, first.prompt, { ok: false, why: 'timed out.' }, NOON_UTC);
    if (failed.kind !== 'ask-again') throw new Error(`expected the question again, got ${failed.kind}`);
    expect(answerSend(state, failed.prompt, { kind: 'no' }, NOON_UTC)).toEqual({
      kind: 'declined',
      target: asked.prompt.target,
    });
    expect(answerSend(state, failed.prompt, { kind: 'yes' }, NOON_UTC)).toEqual({
      kind: 'deliver',
      target: asked.prompt.target,
      body: 'See you at 3',
      checked: false,
    });
    // Texts the inbox read meanwhile are shown first, even then.
    const later = stateOf(world, [message('late', 'inbound', 'Actually 4pm?', 30)]);
    expect(answerSend(later, failed.prompt, { kind: 'yes' }, NOON_UTC)).toMatchObject({
      kind: 'ask-again',
      because: { kind: 'arrived' },
    });
  });
});

describe('the typed word', () => {
  it('is edited only while a word is asked and the thread is not being read', () => {
    fc.assert(
      fc.property(prompts, fc.string({ maxLength: 8 }), (shape, text) => {
        const world: World = {
          consent: 'none',
          optedOut: false,
          unfilled: false,
          leadRead: true,
          elsewhere: false,
        };
        const prompt = promptOf(world, shape);
        const edited = editTypedWord(prompt, () => lineOf(text));
        if (prompt.word === undefined || prompt.checking) return void expect(edited).toBeUndefined();
        expect(edited).toEqual({ ...prompt, typed: lineOf(text), mistyped: false });
      }),
    );
  });
});

describe('the verdict after reading again, shared by the composer and `send` at a terminal', () => {
  it('texts that arrived are asked about first (even when the read failed); a failed read is asked about; else send', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 3 }),
        fc.option(fc.string(), { nil: undefined }),
        (arrived, failure) => {
          const reread =
            failure === undefined ? ({ ok: true } as const) : ({ ok: false, why: failure } as const);
          const verdict = rereadVerdict(arrived, reread);
          if (arrived.length > 0) expect(verdict).toEqual({ kind: 'arrived', texts: arrived });
          else if (failure !== undefined) expect(verdict).toEqual({ kind: 'reread-failed', why: failure });
          else expect(verdict).toEqual({ kind: 'send' });
        },
      ),
    );
  });

  it('says why a read failed in plain words, one line, without what a hostile server put in it', () => {
    const error = new ApiError({
      code: 'network',
      status: 0,
      message: 'socket hang up\u001b]0;pwned\u0007\nsecond line',
      endpoint: 'GET /leads/{id}',
    });
    const failed = rereadFailed(error);
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.why).toMatch(/^socket hang up/);
    expect(failed.why).toMatch(/Check the base URL and the network\.$/);
    expect(failed.why).not.toMatch(/\p{Cc}/u);
    expect(rereadFailed(new Error('boom\u001b[2J'))).toEqual({
      ok: false,
      why: expect.not.stringMatching(/\p{Cc}/u),
    });
  });
});
