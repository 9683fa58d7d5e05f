/**
 * Text as it is drawn: sanitized whatever it holds (a property over random
 * strings of controls, escapes and text), capped, and fitted so that Ink's
 * count of columns, the cells Ink's renderer fills and a terminal's count
 * (xterm.js with Unicode 11 widths) agree, cluster by cluster.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { DISPLAY_MAX, displayText } from '../../src/text/display.js';
import { fitTerminalWidth } from '../../src/text/terminal-width.js';

const SAMPLES = [
  'Dee 👍🏽 Okafor',
  'The 👨‍👩‍👧 Parks',
  '🇺🇸🇲🇽 and 🇦🇧🇨',
  'Keycap 1️⃣ #️⃣',
  '李小龍 Ａ 각',
  'Zoë Ñúñez e\u0301',
  'שָׁלוֹם مرحبا',
  'नमस्ते क्षि ক্ষ தமிழ் ไทย ห้า',
  '❤️ ☺️ ✔️ ©️ ↔️ 🅰️',
  '🏳️‍🌈 🏴‍☠️ 🤷‍♀️ 👩🏽‍💻 🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  'zero\u200Bwidth soft\u00ADhyphen word\u2060joiner \u0301lead',
];

const segmenter = new Intl.Segmenter();

/** Columns xterm.js (Unicode 11) moves the cursor for this text. */
async function terminalWidth(terminal: InstanceType<typeof xtermHeadless.Terminal>, text: string) {
  await new Promise<void>((resolve) => terminal.write(`\u001B[H\u001B[2K${text}`, resolve));
  return terminal.buffer.active.cursorX;
}

describe('fitted to the terminal', () => {
  it('Ink, its renderer and the terminal count the same columns for every sample, cluster by cluster', async () => {
    const terminal = new xtermHeadless.Terminal({ cols: 200, rows: 2, allowProposedApi: true });
    terminal.loadAddon(new Unicode11Addon());
    terminal.unicode.activeVersion = '11';
    for (const sample of SAMPLES) {
      const shown = fitTerminalWidth(sample);
      for (const { segment } of segmenter.segment(shown)) {
        // Ink's renderer gives every cluster at least one cell: none may be zero wide.
        expect(stringWidth(segment), JSON.stringify(segment)).toBeGreaterThan(0);
        expect(await terminalWidth(terminal, segment), JSON.stringify(segment)).toBe(stringWidth(segment));
      }
      expect(await terminalWidth(terminal, shown), sample).toBe(stringWidth(shown));
    }
    terminal.dispose();
  });

  it('keeps what people wrote where every table agrees already', () => {
    for (const text of [
      'Rivera Plumbing & Heating',
      'Zoë Ng',
      '李小龍',
      'שלום',
      'Thanks 👍 see you',
      'x'.repeat(500),
    ]) {
      expect(fitTerminalWidth(text)).toBe(text);
    }
    expect(fitTerminalWidth('a\nb 👍🏽\nc')).toBe('a\nb 👍\nc');
  });
});

describe('displayText', () => {
  const hostile = fc.string({
    unit: fc.oneof(
      fc.constantFrom(
        '\u001B',
        '\u001B[2J',
        '\u001B]52;c;aGk=\u0007',
        '\u009B',
        '\u009D0;x\u009C',
        '\u0007',
        '\r',
        '\b',
      ),
      fc.constantFrom('\u202E', '\u2066', '\u200F', '\u061C', '\u2028', '\t', '\u0000', '\u007F'),
      fc.constantFrom('👍🏽', '👨‍👩‍👧', 'é', 'ש', 'a', ' ', '\n'),
    ),
    maxLength: 60,
  });

  it('lets no escape, control or bidi override through, whatever it is given', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const shown = displayText(text);
        expect(shown).not.toMatch(/(?!\n)\p{Cc}/u);
        expect(shown).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u2028\u2029]/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('cuts a megabyte string to what a screen can hold', () => {
    const shown = displayText(`${'ab👍'.repeat(400_000)}`);
    expect(shown.length).toBeLessThanOrEqual(DISPLAY_MAX + 1);
    expect(shown.endsWith('…')).toBe(true);
  });
});
