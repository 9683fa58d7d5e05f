/**
 * The outbox file's format, read back after any damage: for any list of
 * entries and any place a file is cut short or a byte is changed, added or
 * lost, every entry whose line ended before the damage is read back exactly,
 * nothing is made up or altered, and the damage is reported. Version 2 files
 * of the previous release are still read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOutbox, serializeOutbox } from '../../src/outbox/outbox-format.js';

/** Entries as the outbox stores them, with any text a customer's message can hold (quotes, line breaks, emoji…). */
const entryArbitrary = fc.record(
  {
    localId: fc.uuid(),
    contactId: fc.string({ minLength: 1, maxLength: 12 }),
    contactName: fc.string({ unit: 'grapheme', maxLength: 20 }),
    phone: fc.stringMatching(/^\+1\d{10}$/),
    body: fc.string({ unit: 'binary', maxLength: 80 }),
    idempotencyKey: fc.uuid(),
    confirmedAt: fc.integer({ min: 0, max: 2 ** 42 }),
    attempts: fc.nat(9),
    keyId: fc.stringMatching(/^[0-9a-f]{32}$/),
    owner: fc.record({ pid: fc.nat(4_000_000), host: fc.string({ maxLength: 10 }) }),
    leadId: fc.string({ maxLength: 12 }),
  },
  { requiredKeys: ['localId', 'body', 'idempotencyKey', 'keyId'], noNullPrototype: true },
);
const entriesArbitrary = fc.uniqueArray(entryArbitrary, { maxLength: 6, selector: (entry) => entry.localId });

const bytesOf = (entries: readonly object[]) => Buffer.from(serializeOutbox(entries), 'utf8');

/** The byte offset at which each entry's line (with its line break) ends. */
function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) ends.push(at + 1);
  // Line 0 is the header; entries follow, one a line.
  return ends.slice(1);
}

/** `recovered` is a subsequence of `written`, each entry exactly as written. */
function expectSubsequence(recovered: unknown[], written: readonly object[]) {
  let from = 0;
  for (const entry of recovered) {
    const at = written.findIndex(
      (candidate, index) => index >= from && JSON.stringify(candidate) === JSON.stringify(entry),
    );
    expect(at, `${JSON.stringify(entry)} was not written, or not in this order`).toBeGreaterThanOrEqual(0);
    expect(entry).toEqual(written[at]);
    from = at + 1;
  }
}

/** Every entry whose line ends at or before `damageAt` is read back. */
function expectIntactBefore(
  recovered: unknown[],
  written: readonly object[],
  bytes: Buffer,
  damageAt: number,
) {
  const ends = lineEnds(bytes);
  written.forEach((entry, index) => {
    if ((ends[index] ?? Number.POSITIVE_INFINITY) <= damageAt) expect(recovered).toContainEqual(entry);
  });
}

describe('the outbox format', () => {
  it('reads back exactly what it wrote, and reports no damage', () => {
    fc.assert(
      fc.property(entriesArbitrary, (entries) => {
        expect(parseOutbox(bytesOf(entries))).toEqual({ entries });
      }),
    );
  });

  it('is one JSON document an earlier release can read (and keep as entries it does not know)', () => {
    fc.assert(
      fc.property(entriesArbitrary, (entries) => {
        const json = JSON.parse(serializeOutbox(entries));
        expect(json.version).toBe(3);
        expect(json.texts.map((wrapped: { text: unknown }) => wrapped.text)).toEqual(entries);
      }),
    );
  });

  it('cut short anywhere: every entry before the cut is read back, nothing else, and the damage is reported', () => {
    fc.assert(
      fc.property(entriesArbitrary, fc.nat(), (entries, seed) => {
        const bytes = bytesOf(entries);
        const cut = seed % bytes.byteLength;
        const parsed = parseOutbox(bytes.subarray(0, cut));
        expectSubsequence(parsed.entries, entries);
        expectIntactBefore(parsed.entries, entries, bytes, cut);
        // Only the last line break can go unnoticed.
        if (cut < bytes.byteLength - 1) expect(parsed.damage).toBeDefined();
      }),
    );
  });

  it('a byte changed anywhere: the entries of the other lines are read back, the damaged one never altered', () => {
    fc.assert(
      fc.property(entriesArbitrary, fc.nat(), fc.integer({ min: 1, max: 255 }), (entries, seed, delta) => {
        const bytes = bytesOf(entries);
        const at = seed % bytes.byteLength;
        const damaged = Buffer.from(bytes);
        damaged[at] = ((bytes[at] ?? 0) + delta) % 256;
        const parsed = parseOutbox(damaged);
        expectSubsequence(parsed.entries, entries);
        expectIntactBefore(parsed.entries, entries, bytes, at);
        // (A file of no entries may still read as one: nothing is lost then.)
        if (at < bytes.byteLength - 1 && entries.length > 0) expect(parsed.damage).toBeDefined();
        if (!parsed.damage) expect(parsed.entries).toEqual(entries);
      }),
    );
  });

  it('bytes added or lost anywhere: nothing is made up, and every entry before the damage is read back', () => {
    fc.assert(
      fc.property(
        entriesArbitrary,
        fc.nat(),
        fc.nat(40),
        fc.uint8Array({ maxLength: 40 }),
        (entries, seed, lost, added) => {
          const bytes = bytesOf(entries);
          const at = seed % bytes.byteLength;
          const damaged = Buffer.concat([bytes.subarray(0, at), added, bytes.subarray(at + lost)]);
          const parsed = parseOutbox(damaged);
          expectSubsequence(parsed.entries, entries);
          expectIntactBefore(parsed.entries, entries, bytes, at);
          if (!parsed.damage) expect(parsed.entries).toEqual(entries);
        },
      ),
    );
  });

  it('counts the bytes it could not read', () => {
    const entries = [
      { localId: 'a', body: 'one' },
      { localId: 'b', body: 'two' },
      { localId: 'c', body: 'three' },
    ];
    const lines = serializeOutbox(entries).split('\n');
    const garbage = 'x'.repeat(143);
    lines[2] = garbage;
    expect(parseOutbox(Buffer.from(lines.join('\n')))).toEqual({
      entries: [entries[0], entries[2]],
      damage: { unreadableBytes: 144, incomplete: false },
    });
    // Cut at a line break: nothing unreadable, but the missing end is noticed.
    const cut = serializeOutbox(entries).split('\n').slice(0, 3).join('\n');
    expect(parseOutbox(Buffer.from(`${cut}\n`))).toEqual({
      entries: entries.slice(0, 2),
      damage: { unreadableBytes: 0, incomplete: true },
    });
  });

  it('keeps line separators a text may hold (U+2028, U+2029, line breaks) inside its entry', () => {
    const entries = [{ localId: 'a', contactName: 'Ana\u2028Lee', body: 'one\ntwo\u2029three\r' }];
    expect(parseOutbox(bytesOf(entries))).toEqual({ entries });
  });

  it('a line that holds a valid entry under another checksum is not read', () => {
    const [header, line, footer] = serializeOutbox([{ localId: 'a', body: 'Pay $10' }]).split('\n');
    const altered = line?.replace('$10', '$90');
    expect(parseOutbox(Buffer.from([header, altered, footer, ''].join('\n'))).entries).toEqual([]);
  });
});

describe('version 2 files of the previous release', () => {
  const entries = [
    { localId: 'a', body: 'On our way', keyId: 'k' },
    { localId: 'b', body: 'Running late, "15" min\n— sorry', keyId: 'k' },
    { localId: 'c', body: 'See you {soon}', keyId: 'k' },
  ];

  it('are read whole, as the previous release wrote them', () => {
    const written = `${JSON.stringify({ version: 2, texts: entries }, null, 1)}\n`;
    expect(parseOutbox(Buffer.from(written))).toEqual({ entries });
    expect(parseOutbox(Buffer.from(JSON.stringify({ version: 2, texts: entries })))).toEqual({ entries });
  });

  it('cut short anywhere: the entries complete before the cut are read, nothing else', () => {
    const written = Buffer.from(`${JSON.stringify({ version: 2, texts: entries }, null, 1)}\n`);
    // Where each entry's closing brace ends (the entries are indented by two spaces).
    const ends = entries.map(
      (entry) => written.indexOf('\n  }', written.indexOf(`"localId": "${entry.localId}"`)) + 4,
    );
    fc.assert(
      fc.property(fc.nat(written.byteLength - 3), (cut) => {
        const parsed = parseOutbox(written.subarray(0, cut));
        expectSubsequence(parsed.entries, entries);
        entries.forEach((entry, index) => {
          if ((ends[index] ?? Number.POSITIVE_INFINITY) <= cut) expect(parsed.entries).toContainEqual(entry);
        });
        expect(parsed.damage).toBeDefined();
      }),
    );
  });

  it('a file rewritten by the previous release keeps the checksummed entries it did not know', () => {
    const current = JSON.parse(serializeOutbox([entries[0], entries[1]]));
    const rewritten = { version: 2, texts: [...current.texts, entries[2]] };
    expect(parseOutbox(Buffer.from(JSON.stringify(rewritten, null, 1)))).toEqual({ entries });
    current.texts[1].text.body = 'altered';
    expect(parseOutbox(Buffer.from(JSON.stringify(current, null, 1))).entries).toEqual([entries[0]]);
  });
});
