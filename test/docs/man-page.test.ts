/**
 * shop-inbox(1) (man/shop-inbox.1, written by `npm run docs`): it renders
 * without a warning, says what `--help` and each command's `--help` say, and
 * ships in the package where `man` finds it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manPage, roffText } from '../../scripts/docs/man-page.js';
import {
  ENVIRONMENT,
  EXIT_CODES,
  mainHelp,
  NAMED_VERBS,
  optionLabel,
  VERBS,
  type VerbSpec,
  verbHelp,
} from '../../src/cli/verb-table.js';

const page = manPage('0.0.0-test');

/** The page as `man` shows it, one space between words (roff fills and justifies its lines). */
function rendered(source: string): string {
  const run = spawnSync('groff', ['-k', '-man', '-Tutf8', '-ww', '-rLL=400n', '-rHY=0', '-P-cbou'], {
    input: source,
    encoding: 'utf8',
  });
  expect(run.error, 'groff (man pages) must be installed').toBeUndefined();
  expect(run.stderr, 'groff warns').toBe('');
  return run.stdout.replaceAll(/\s+/g, ' ');
}

const flat = (text: string) => text.replaceAll(/\s+/g, ' ');

describe('man page', () => {
  const shown = rendered(page);

  it('says every option, argument and exit code each command --help says', () => {
    for (const verb of [VERBS[''] as VerbSpec, ...NAMED_VERBS]) {
      const help = verbHelp(verb);
      for (const [name, option] of Object.entries(verb.options)) {
        expect(help).toContain(optionLabel(name, option));
        expect(shown, `${verb.name || 'the inbox'} ${name}`).toContain(
          flat(`${optionLabel(name, option)} ${option.help}`),
        );
      }
      for (const arg of verb.args) expect(shown).toContain(flat(`${arg.name} ${arg.help}`));
      expect(shown).toContain(flat(verb.description).trim());
    }
    for (const { code, meaning } of EXIT_CODES) expect(shown).toContain(flat(`${code} ${meaning}`));
  });

  it('lists the environment --help lists', () => {
    const help = flat(mainHelp('0.0.0-test'));
    for (const { name, meaning } of ENVIRONMENT) {
      expect(help).toContain(flat(`${name} ${meaning}`));
      expect(shown).toContain(flat(`${name} ${meaning}`));
    }
    expect(help).toContain('man shop-inbox');
  });

  it('is shipped: package.json names it, and the package holds it', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { man: string[]; files: string[] };
    expect(pkg.man).toEqual(['./man/shop-inbox.1']);
    expect(pkg.files).toContain('man');
    expect(readFileSync('man/shop-inbox.1', 'utf8')).toContain('.TH SHOP\\-INBOX 1');
  });

  it('never lets a string of the table be read as a roff request or escape', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('.', "'", '\\', '-', 'a', ' ', '\n', 'e') }), (text) => {
        const roff = roffText(text);
        for (const line of roff.split('\n')) expect(/^[.']/.test(line)).toBe(false);
        // Every backslash starts one of the three escapes roffText writes.
        expect(roff.replaceAll(/\\(e|-|&)/g, '')).not.toContain('\\');
        expect(flat(rendered(`.TH T 1\n.SH X\n${roff}\n`)).includes(flat(text).trim())).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
