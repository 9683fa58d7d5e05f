/**
 * How a recipient is named: name and number, one line, sanitized and capped
 * (properties over random names and numbers, hostile ones included), and cut
 * to a width with the name giving way before the number.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { displayText } from '../../src/text/display.js';
import { fittedRecipientLabel, NAME_MAX, PHONE_MAX, recipientLabel } from '../../src/text/recipient.js';
import { sanitize } from '../../src/text/sanitize.js';

/** Names as the service may send them: letters of any script, emoji, controls, escapes, bidi marks, line breaks. */
const hostileText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc
    .array(
      fc.constantFrom(
        'Tom',
        ' ',
        'Kowalski',
        'Zoë',
        '李小龍',
        '👍🏽',
        '👨‍👩‍👧',
        '\u001b[2J',
        '\u001b]0;x\u0007',
        '\r',
        '\n',
        '\t',
        '\u0007',
        '\u009d',
        '\u202e',
        '\u2028',
        'e\u0301',
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join('')),
);
const phone = fc.oneof(fc.stringMatching(/^\+1[2-9]\d{9}$/), fc.stringMatching(/^\+\d{6,15}$/), hostileText);

const NO_CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

describe('recipientLabel', () => {
  it('names the number with the name: two contacts called Tom Kowalski are two labels', () => {
    expect(recipientLabel({ name: 'Tom Kowalski', phone: '+15035550117' })).toBe(
      'Tom Kowalski (+15035550117)',
    );
    expect(recipientLabel({ name: 'Tom Kowalski', phone: '+19715550142' })).toBe(
      'Tom Kowalski (+19715550142)',
    );
    expect(recipientLabel({ name: '  ', phone: '+15035550117' })).toBe('+15035550117');
    expect(recipientLabel({ name: 'Tom Kowalski', phone: '' })).toBe('Tom Kowalski');
    expect(recipientLabel({ name: '', phone: '' })).toBe('a contact with no name or number');
  });

  it('is one line with no control, escape or bidi override, whatever the service sent', () => {
    fc.assert(
      fc.property(hostileText, phone, (name, number) => {
        const label = recipientLabel({ name, phone: number });
        expect(label).not.toMatch(NO_CONTROLS);
        expect(label).not.toContain('\n');
        expect(label).toBe(sanitize(label, { singleLine: true }));
      }),
    );
  });

  it('keeps a name of up to NAME_MAX characters whole, and cuts a longer one to NAME_MAX with "…"', () => {
    const phone = '+15035550117';
    const a = (count: number) => 'a'.repeat(count);
    expect(recipientLabel({ name: a(NAME_MAX), phone })).toBe(`${a(NAME_MAX)} (${phone})`);
    expect(recipientLabel({ name: a(NAME_MAX + 1), phone })).toBe(`${a(NAME_MAX - 1)}… (${phone})`);
    // More code units than characters: NAME_MAX characters, kept whole.
    expect(recipientLabel({ name: `e\u0301${a(NAME_MAX - 1)}`, phone })).toBe(
      `e\u0301${a(NAME_MAX - 1)} (${phone})`,
    );
    const mixed = fc.constantFrom('a', 'Zoë', '李', '👍🏽', '👨‍👩‍👧', 'e\u0301', '🇳🇵', ' x');
    // One code unit a character: names one character either side of the cap are common.
    const simple = fc.constantFrom('a', '李', ' x');
    const parts = fc.oneof(
      fc.array(mixed, { minLength: 1, maxLength: NAME_MAX + 10 }),
      fc.array(simple, { minLength: NAME_MAX - 45, maxLength: NAME_MAX + 2 }),
    );
    fc.assert(
      fc.property(parts, (parts) => {
        const name = `N${parts.join('')}`;
        const whole = [...new Intl.Segmenter().segment(name)].map((part) => part.segment);
        const expected = whole.length > NAME_MAX ? `${whole.slice(0, NAME_MAX - 1).join('')}…` : name;
        expect(recipientLabel({ name, phone })).toBe(`${expected} (${phone})`);
      }),
    );
  });

  it('keeps a plausible number whole and different numbers apart, and caps what it keeps', () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.stringMatching(/^\+\d{6,15}$/),
        fc.stringMatching(/^\+\d{6,15}$/),
        (name, one, other) => {
          const first = recipientLabel({ name, phone: one });
          expect(first.endsWith(`(${one})`) || first === one).toBe(true);
          if (one !== other) expect(first).not.toBe(recipientLabel({ name, phone: other }));
          const graphemes = [...new Intl.Segmenter().segment(first)].length;
          expect(graphemes).toBeLessThanOrEqual(NAME_MAX + PHONE_MAX + 3);
        },
      ),
    );
  });
});

describe('fittedRecipientLabel', () => {
  it('cuts the name first and keeps the number whole while two columns of the name fit', () => {
    const tom = { name: 'Tom Kowalski', phone: '+15035550117' };
    expect(fittedRecipientLabel(tom, 80)).toBe('Tom Kowalski (+15035550117)');
    expect(fittedRecipientLabel(tom, 27)).toBe('Tom Kowalski (+15035550117)');
    expect(fittedRecipientLabel(tom, 22)).toBe('Tom Ko… (+15035550117)');
    expect(fittedRecipientLabel(tom, 17)).toBe('T… (+15035550117)');
    // Too narrow for a name beside the number: the label is cut as a whole.
    expect(fittedRecipientLabel(tom, 10)).toBe('Tom Kowal…');
    expect(fittedRecipientLabel(tom, 0)).toBe('');
  });

  it('never takes more columns than given, drawn as the screen draws it', () => {
    fc.assert(
      fc.property(hostileText, phone, fc.integer({ min: 0, max: 120 }), (name, number, width) => {
        const fitted = fittedRecipientLabel({ name, phone: number }, width);
        expect(stringWidth(displayText(fitted))).toBeLessThanOrEqual(width);
        expect(fitted).not.toMatch(NO_CONTROLS);
      }),
    );
  });

  it('keeps the whole number whenever it and two columns of the name fit', () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 })
          .filter((name) => name.trim() !== ''),
        fc.stringMatching(/^\+\d{6,15}$/),
        fc.integer({ min: 0, max: 100 }),
        (name, number, width) => {
          const fitted = fittedRecipientLabel({ name, phone: number }, width);
          if (width >= number.length + 3 + 2) expect(fitted.endsWith(` (${number})`)).toBe(true);
          // What is kept of the name is its start.
          const kept = fitted.replace(` (${number})`, '').replace(/…$/, '');
          expect(
            name.trim().startsWith(kept.trimEnd()) || `${name.trim()} (${number})`.startsWith(kept),
          ).toBe(true);
        },
      ),
    );
  });
});
