/** The words offered after --shop: property tests of the comma-list continuation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shopCandidates } from '../../src/cli/completion-command.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,7}$/);
const names = fc.uniqueArray(name, { minLength: 1, maxLength: 6 });

describe('shopCandidates', () => {
  it('offers every shop for a word without a comma', () => {
    fc.assert(
      fc.property(names, name, (shops, typed) => {
        expect(shopCandidates(shops, typed)).toEqual(shops);
      }),
    );
  });

  it('after "a,b," offers the list so far followed by each shop not yet in it, in config order', () => {
    fc.assert(
      fc.property(names, fc.nat(), (shops, cut) => {
        const listed = shops.slice(0, cut % (shops.length + 1));
        const head = listed.length ? `${listed.join(',')},` : ',';
        const offered = shopCandidates(shops, head);
        expect(offered).toEqual(shops.filter((shop) => !listed.includes(shop)).map((shop) => head + shop));
        for (const word of offered) expect(word.startsWith(head)).toBe(true);
      }),
    );
  });

  it('keeps a partly typed last name for the shell to match ("north,s")', () => {
    expect(shopCandidates(['north', 'south', 'east'], 'north,s')).toEqual(['north,south', 'north,east']);
  });
});
