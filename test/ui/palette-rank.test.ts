/**
 * The palette's ranking (src/shell/commands/palette-rank.ts), pure: a
 * command's name typed exactly comes first, then names that start so, then
 * words that start so, then the text anywhere, then loose letters close
 * together; nothing that does not hold every typed letter in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankCommands } from '../../src/shell/commands/palette-rank.js';

const item = (name: string, label: string) => ({ name, text: `${label} · ${name}` });

const REAL = [
  item(
    'sort',
    'order the list: inbox newest ↔ same-day first; reviews newest → unreplied → lowest rating first',
  ),
  item('callbacks', 'switch open leads / missed calls with no reply'),
  item('approve', 'approve the selected pending action (asks y/n) → Actions'),
  item('pane.actions', 'go to Actions'),
  item('filter.unreplied', 'show only unreplied reviews / all reviews → Reviews'),
  item('draft', 'ask for a reply draft to the selected review (not published) → Reviews'),
];

const names = (typed: string) => rankCommands(REAL, typed).map((ranked) => ranked.item.name);

describe('ranking the palette', () => {
  it('finds a command by its name first, whatever else mentions the letters', () => {
    expect(names('approve')[0]).toBe('approve');
    expect(names('appr')[0]).toBe('approve');
    expect(names('unreplied')[0]).toBe('filter.unreplied');
    expect(names('actions')[0]).toBe('pane.actions');
    expect(names('draft')[0]).toBe('draft');
  });

  it('does not offer a command whose letters are only scattered through its text', () => {
    expect(names('bill')).toEqual([]);
    expect(names('bill')[0]).not.toBe('sort');
  });

  const nameArb = fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8})?$/);
  const labelArb = fc
    .array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 6 })
    .map((w) => w.join(' '));
  const itemsArb = fc.uniqueArray(fc.record({ name: nameArb, label: labelArb }), {
    selector: (entry) => entry.name,
    minLength: 1,
    maxLength: 12,
  });

  it('an exact name is first; a name starting with the query comes before any match outside the names', () => {
    fc.assert(
      fc.property(itemsArb, fc.nat(), (entries, pick) => {
        const items = entries.map((entry) => item(entry.name, entry.label));
        const chosen = items[pick % items.length];
        if (!chosen) return;
        const ranked = rankCommands(items, chosen.name);
        expect(ranked[0]?.item.name).toBe(chosen.name);
        const prefix = chosen.name.slice(0, Math.max(1, Math.ceil(chosen.name.length / 2)));
        const ranked2 = rankCommands(items, prefix);
        const starts = ranked2.map((entry) => entry.item.name.startsWith(prefix));
        const inName = ranked2.map(
          (entry) =>
            entry.item.name.startsWith(prefix) ||
            entry.item.name.split('.').some((part) => part.startsWith(prefix)),
        );
        // A name that starts with what is typed comes before every match that is not in a name.
        const lastStart = starts.lastIndexOf(true);
        const firstElsewhere = inName.indexOf(false);
        expect(lastStart).toBeGreaterThanOrEqual(0);
        expect(firstElsewhere === -1 || lastStart < firstElsewhere).toBe(true);
      }),
    );
  });

  it('every result holds the typed letters in order, and each item appears once', () => {
    fc.assert(
      fc.property(itemsArb, fc.stringMatching(/^[a-z]{1,4}$/), (entries, typed) => {
        const items = entries.map((entry) => item(entry.name, entry.label));
        const ranked = rankCommands(items, typed);
        expect(new Set(ranked.map((entry) => entry.item)).size).toBe(ranked.length);
        for (const entry of ranked) {
          const chars = [...entry.item.text.toLowerCase()];
          const at = [...entry.positions].sort((a, b) => a - b);
          expect(at.map((index) => chars[index]).join('')).toBe(typed);
        }
      }),
    );
  });

  it('nothing typed: every command, in the order given', () => {
    expect(names('  ')).toEqual(REAL.map((entry) => entry.name));
  });
});
