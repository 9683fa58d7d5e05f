/**
 * The pre-send checks as a pure function: opt-out keywords however they are
 * written (case, spaces, punctuation), a later START or YES undoing them,
 * consent (always summed up, beside every finding), texting not live, quiet
 * hours at the customer's location, unfilled template variables, texts that
 * arrived meanwhile, and the confirmation the findings call for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CustomerZones } from '../../src/rules/customer-zones.js';
import {
  confirmationFor,
  type Finding,
  type KnownText,
  keywordOf,
  latestKeyword,
  OPT_IN_WORDS,
  OPT_OUT_WORDS,
  type PreSendFacts,
  preSendChecks,
  unfilledVariables,
} from '../../src/rules/pre-send-checks.js';

const NOON_UTC = Date.parse('2026-11-21T12:00:00Z');

const facts = (overrides: Partial<PreSendFacts> = {}): PreSendFacts => ({
  body: 'See you at 3',
  consent: { given: true, recordedAt: '2026-10-01T10:00:00Z' },
  thread: [],
  texting: { number: '+15035550100', status: 'active' },
  now: NOON_UTC,
  customerZones: inZones('UTC'),
  arrivedSince: [],
  ...overrides,
});

/** A customer whose number's area code places them in these zones. */
function inZones(...zones: string[]): CustomerZones {
  return { from: 'number', zones, basis: 'area code' };
}

const checks = (findings: Finding[]) => findings.map((finding) => `${finding.check}:${finding.level}`);

const inbound = (body: string, minute: number): KnownText => ({
  direction: 'inbound',
  body,
  occurredAt: new Date(NOON_UTC - (60 - minute) * 60_000).toISOString(),
});

/** Any mix of upper and lower case of a word. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((letter, i) => (upper[i] ? letter : letter.toLowerCase())).join(''));
const padding = fc.stringMatching(/^[ \t\n.!?,;:'"…*()-]{0,4}$/);

describe('opt-out words', () => {
  it('are recognised in any case, with any spaces and punctuation around them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPT_OUT_WORDS).chain(anyCase),
        padding,
        padding,
        (word, before, after) => {
          expect(keywordOf(`${before}${word}${after}`)).toBe('opt-out');
        },
      ),
    );
  });

  it('START and YES are opt-ins, in any case', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPT_IN_WORDS).chain(anyCase), padding, (word, pad) => {
        expect(keywordOf(`${pad}${word}${pad}`)).toBe('opt-in');
      }),
    );
  });

  it('a word inside a sentence is not a keyword ("stop by at 3", "the end")', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPT_OUT_WORDS, ...OPT_IN_WORDS),
        fc.stringMatching(/^[a-z]{1,8}$/),
        (word, other) => {
          expect(keywordOf(`${word} ${other}`)).toBeUndefined();
          expect(keywordOf(`${other} ${word}`)).toBeUndefined();
        },
      ),
    );
    expect(keywordOf('Can you stop by at 3?')).toBeUndefined();
    expect(keywordOf('STOPPED')).toBeUndefined();
    // Found by the property above: spaces inside are not removed, so two words never make one.
    expect(keywordOf('STOP all')).toBeUndefined();
    expect(keywordOf('S T O P')).toBeUndefined();
  });

  it('the latest keyword decides: STOP, then START, is opted in; START, then STOP, is opted out', () => {
    expect(latestKeyword([inbound('STOP', 1), inbound('Start', 2)])?.kind).toBe('opt-in');
    expect(latestKeyword([inbound('start', 2), inbound('Stop.', 3)])?.kind).toBe('opt-out');
    // Other texts after a STOP do not undo it; texts from the shop are not the customer's.
    expect(latestKeyword([inbound('stop', 1), inbound('what time?', 5)])?.kind).toBe('opt-out');
    expect(
      latestKeyword([{ direction: 'outbound', body: 'STOP', occurredAt: '2026-11-21T11:59:00Z' }]),
    ).toBeUndefined();
  });

  it('an opted-out customer: a block that names the text, says bodies may be truncated, and can be overridden', () => {
    const findings = preSendChecks(facts({ thread: [inbound('Hi', 1), inbound(' UNSUBSCRIBE! ', 9)] }));
    const optOut = findings.find((finding) => finding.check === 'opt-out');
    expect(optOut).toMatchObject({ level: 'block', override: 'override' });
    expect(optOut?.message).toContain('"UNSUBSCRIBE!"');
    expect(optOut?.message).toContain('truncated');
    expect(confirmationFor(findings)).toEqual({ kind: 'typed', word: 'override' });
  });
});

describe('the other checks', () => {
  it('all clear: no finding, and y/n', () => {
    const findings = preSendChecks(facts());
    expect(findings).toEqual([]);
    expect(confirmationFor(findings)).toEqual({ kind: 'yes-no' });
  });

  it('consent unknown, none, or not given: type send', () => {
    for (const consent of [undefined, null, { given: false, recordedAt: '2026-10-01T10:00:00Z' }]) {
      const findings = preSendChecks(facts({ consent }));
      expect(checks(findings)).toEqual(['consent:strong']);
      expect(confirmationFor(findings)).toEqual({ kind: 'typed', word: 'send' });
    }
  });

  it('texting not live: no number, or a status other than active, is a warning', () => {
    expect(checks(preSendChecks(facts({ texting: { number: null, status: 'none' } })))).toEqual([
      'texting:warn',
    ]);
    expect(checks(preSendChecks(facts({ texting: { number: '+1503', status: 'pending' } })))).toEqual([
      'texting:warn',
    ]);
  });

  it('quiet hours: before 08:00 or from 21:00 for the customer, a warning that says their time and zone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 24 * 60 - 1 }), (minuteOfDay) => {
        const now = Date.parse('2026-11-21T00:00:00Z') + minuteOfDay * 60_000;
        const quiet = minuteOfDay < 8 * 60 || minuteOfDay >= 21 * 60;
        const findings = preSendChecks(facts({ now, customerZones: inZones('UTC') }));
        expect(checks(findings)).toEqual(quiet ? ['quiet-hours:warn'] : []);
        expect(confirmationFor(findings).kind).toBe('yes-no');
      }),
    );
    // 12:00 UTC is 04:00 in Los Angeles (PST): quiet there, not in London.
    const losAngeles = preSendChecks(facts({ customerZones: inZones('America/Los_Angeles') }));
    expect(losAngeles).toMatchObject([
      {
        check: 'quiet-hours',
        tag: 'quiet hours',
        message:
          'Quiet hours (08:00–21:00 their time): it is 04:00 for the customer (America/Los_Angeles, from the area code).',
      },
    ]);
    expect(checks(preSendChecks(facts({ customerZones: inZones('Europe/London') })))).toEqual([]);
  });
  it('an unfilled {variable} is refused with its name, with no override', () => {
    const findings = preSendChecks(facts({ body: 'Hi {first_name}, your {job_type} is booked' }));
    expect(checks(findings)).toEqual(['unfilled-variable:block']);
    expect(findings[0]?.message).toContain('{first_name}, {job_type}');
    expect(confirmationFor(findings)).toMatchObject({ kind: 'refused' });
    expect(unfilledVariables('a {b} {B} {} {c d} {e_1}')).toEqual(['b', 'e_1']);
  });

  it('texts that arrived meanwhile are shown, each one', () => {
    const findings = preSendChecks(
      facts({
        arrivedSince: [inbound('Actually make it 4', 58), { ...inbound('On it', 59), direction: 'outbound' }],
      }),
    );
    expect(checks(findings)).toEqual(['arrived:warn', 'arrived:warn']);
    expect(findings[0]?.message).toContain('Someone else sent');
    expect(findings[1]?.message).toContain('The customer wrote');
    expect(findings[1]?.message).toContain('Actually make it 4');
  });
});
