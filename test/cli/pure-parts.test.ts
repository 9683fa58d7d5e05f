/**
 * The pure parts of the command line, over many inputs: threshold ranges,
 * terminal-safe JSON, the exit code of a failure, phone numbers and names as
 * CONTACT, and which flag lets each finding go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { foldName, looksLikePhone, samePhone } from '../../src/cli/contact-lookup.js';
import { EXIT, exitCodeOf } from '../../src/cli/exit-codes.js';
import { terminalSafeJson } from '../../src/cli/json-output.js';
import { alerts, formatRange, parseRange, ThresholdError } from '../../src/cli/nagios-range.js';
import { allowedBy, flagFor, flagsOfAnswer, wordToAsk } from '../../src/cli/send-findings.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { ConfigError } from '../../src/config/config-error.js';
import type { Finding } from '../../src/rules/pre-send-checks.js';

describe('Nagios threshold ranges', () => {
  it('reads the forms of the plugin guidelines', () => {
    const cases: Array<[string, number[], number[]]> = [
      ['10', [-1, 11], [0, 10, 5]],
      ['10:', [9.9, -5], [10, 1e9]],
      ['~:10', [10.5], [-1e9, 10]],
      ['10:20', [9, 21], [10, 20]],
      ['@10:20', [10, 15, 20], [9, 21]],
      ['15m', [901], [900]],
    ];
    for (const [text, alert, calm] of cases) {
      const range = parseRange(text, { durations: true });
      for (const value of alert) expect(alerts(range, value), `${text} ${value}`).toBe(true);
      for (const value of calm) expect(alerts(range, value), `${text} ${value}`).toBe(false);
    }
    for (const wrong of ['', 'x', '5:2', '1:2:3', '@', '10m'])
      expect(() => parseRange(wrong)).toThrow(ThresholdError);
  });

  const bound = fc.integer({ min: -10_000, max: 10_000 });
  const range = fc
    .record({ a: bound, b: bound, inside: fc.boolean(), open: fc.constantFrom('none', 'start', 'end') })
    .map(({ a, b, inside, open }) => ({
      start: open === 'start' ? Number.NEGATIVE_INFINITY : Math.min(a, b),
      end: open === 'end' ? Number.POSITIVE_INFINITY : Math.max(a, b),
      inside,
    }));

  it('writes a range as performance data that reads back the same', () => {
    fc.assert(
      fc.property(range, (r) => {
        expect(parseRange(formatRange(r))).toEqual(r);
      }),
    );
  });

  it('alerts exactly outside start..end (inside with @)', () => {
    fc.assert(
      fc.property(range, fc.integer({ min: -20_000, max: 20_000 }), (r, value) => {
        const within = value >= r.start && value <= r.end;
        expect(alerts(r, value)).toBe(r.inside ? within : !within);
      }),
    );
  });
});

describe('terminal-safe JSON', () => {
  it('parses back to the same data and holds no character a terminal acts on', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const document = { value, text };
        const json = terminalSafeJson(document);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(document)));
        expect(json).not.toMatch(/(?!\n)[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
      }),
    );
  });
});

describe('exit codes', () => {
  const error = (code: string) => new ApiError({ status: 400, code, message: 'x', endpoint: 'GET /me' });
  it('one rule for every failure', () => {
    for (const code of ['unauthorized', 'no_subscription', 'read_only'])
      expect(exitCodeOf(error(code))).toBe(EXIT.notAllowed);
    expect(exitCodeOf(error('rate_limited'))).toBe(EXIT.rateLimited);
    for (const code of [
      'network',
      'timeout',
      'server',
      'not_found',
      'invalid',
      'no_number',
      'texting_inactive',
      'redirect',
    ])
      expect(exitCodeOf(error(code))).toBe(EXIT.error);
    expect(exitCodeOf(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeOf(Object.assign(new Error('x'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }))).toBe(
      EXIT.usage,
    );
    expect(exitCodeOf(new ConfigError('x'))).toBe(EXIT.error);
  });
  it('any code the service invents is an error, never success or "not allowed"', () => {
    fc.assert(
      fc.property(fc.string(), (code) => {
        fc.pre(!['unauthorized', 'no_subscription', 'read_only', 'rate_limited'].includes(code));
        expect(exitCodeOf(error(code))).toBe(EXIT.error);
      }),
    );
  });
});

describe('CONTACT: numbers and names', () => {
  it('a number is the same however it is written, with or without its country code', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[2-9]\d{9}$/), fc.constantFrom('+1', '1', ''), (national, prefix) => {
        const e164 = `+1${national}`;
        const written = `${prefix}(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
        expect(looksLikePhone(written)).toBe(true);
        expect(samePhone(e164, written)).toBe(true);
        expect(samePhone(e164, national.slice(3))).toBe(false);
      }),
    );
    expect(samePhone('+15035550142', '+15035550143')).toBe(false);
    expect(looksLikePhone('Tom 503')).toBe(false);
  });
  it('names compare without case, accents or extra spaces', () => {
    expect(foldName('  Renée   DUBOIS ')).toBe(foldName('renee dubois'));
    expect(foldName('Renée Dubois')).not.toBe(foldName('Renée Duboise'));
  });
});

describe('findings and their flags', () => {
  const finding = (check: string, level: Finding['level']): Finding => ({
    check,
    level,
    message: 'm',
    tag: 't',
  });
  const all = [
    finding('opt-out', 'block'),
    finding('consent', 'strong'),
    finding('quiet-hours', 'warn'),
    finding('unfilled-variable', 'block'),
  ];
  it('each finding has its flag, and only that flag lets it go', () => {
    expect(all.map(flagFor)).toEqual(['--override', '--consent-ok', '--yes', null]);
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (yes, consentOk, override) => {
        const flags = { yes, consentOk, override };
        expect(all.map((f) => allowedBy(f, flags))).toEqual([override, consentOk, yes, false]);
      }),
    );
  });
  it('the word asked at a terminal is the composer’s, and allows what it allows there', () => {
    const none = { yes: false, consentOk: false, override: false };
    expect(wordToAsk(all, none)).toBe('override');
    expect(wordToAsk(all.slice(1), none)).toBe('send');
    expect(wordToAsk(all.slice(2), none)).toBe('y');
    expect(flagsOfAnswer('override', none)).toEqual({ yes: true, consentOk: true, override: true });
    expect(flagsOfAnswer('send', none)).toEqual({ yes: true, consentOk: true, override: false });
    expect(flagsOfAnswer('y', none)).toEqual({ yes: true, consentOk: false, override: false });
  });
});
