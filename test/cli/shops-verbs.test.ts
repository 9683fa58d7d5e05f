/**
 * --shop NAME on the commands for scripts, from the built CLI against two simulators (two shops, two base
 * URLs): each command reads the shop it names, with that shop's key; what is refused, and how.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { shopKeyFilePath } from '../../src/config/shops.js';
import { CliError, ReviewsOutput, StatusOutput } from '../../src/contract/cli-output.js';
import { type CliHome, cliHome, runCli } from '../support/run-cli.js';
import { startSim, type TestSim } from '../support/sim.js';

let home: CliHome;
beforeEach(async () => {
  home = await cliHome('shop-inbox-shops-');
});
afterEach(async () => {
  await home.remove();
});

async function twoShops(): Promise<{ north: TestSim; south: TestSim; env: NodeJS.ProcessEnv }> {
  const north = await startSim();
  const south = await startSim({ seed: 7 });
  const env = home.env();
  await writeKeyFile(shopKeyFilePath(env, 'north'), north.sim.tokens.read);
  await writeKeyFile(shopKeyFilePath(env, 'south'), south.sim.tokens.read);
  await writeConfig(env, {
    shops: {
      north: { base_url: north.baseUrl, key_file: shopKeyFilePath(env, 'north') },
      south: { base_url: south.baseUrl, key_file: shopKeyFilePath(env, 'south') },
    },
    default_shop: 'north',
  });
  return { north, south, env };
}

const unrepliedOf = (t: TestSim) => t.sim.shops.main.reviews.filter((review) => !review.reply).length;

describe('--shop NAME on the commands', () => {
  it('reviews: the shop named, else the default; each asked with its own key only', async () => {
    const { north, south, env } = await twoShops();
    // A new review at the north shop only: the two shops' answers differ.
    north.sim.inject('review');
    expect(unrepliedOf(north)).toBe(unrepliedOf(south) + 1);
    const fromSouth = await runCli(['reviews', '--shop', 'south', '--unreplied', '--json'], env);
    expect(fromSouth.stderr).toBe('');
    expect(fromSouth.status).toBe(0);
    expect(ReviewsOutput.parse(JSON.parse(fromSouth.stdout)).items).toHaveLength(unrepliedOf(south));
    const fromDefault = await runCli(['reviews', '--unreplied', '--json'], env);
    expect(ReviewsOutput.parse(JSON.parse(fromDefault.stdout)).items).toHaveLength(unrepliedOf(north));
    const asked = async (t: TestSim) => (await t.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(await asked(south)).toEqual(['GET /v1/reviews 200']);
    expect(await asked(north)).toEqual(['GET /v1/reviews 200']);
  });

  it('status --shop: that base URL; SHOP_API_KEY / SHOP_API_BASE_URL exported for another shop are not used', async () => {
    const { north, south, env } = await twoShops();
    const result = await runCli(['status', '--shop', 'south', '--json'], {
      ...env,
      SHOP_API_KEY: north.sim.tokens.write,
      SHOP_API_BASE_URL: north.baseUrl,
    });
    expect(result.status).toBe(0);
    const status = StatusOutput.parse(JSON.parse(result.stdout));
    expect(status.base_url).toBe(south.baseUrl);
    expect(status.key_source).toBe('config');
    expect(status.me.identity.business_name).toBe(south.sim.shops.main.identity.businessName);
    expect(await north.requests()).toEqual([]);
  });

  it('a shop config.json does not name: exit 1, naming the shops there are, nothing asked', async () => {
    const { north, south, env } = await twoShops();
    const result = await runCli(['inbox', '--shop', 'east', '--json'], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('config.json names no shop "east"; its shops: north, south');
    expect(CliError.parse(JSON.parse(result.stdout)).error).toMatchObject({ code: 'settings', exit_code: 1 });
    expect([...(await north.requests()), ...(await south.requests())]).toEqual([]);
  });

  it('refused before anything is read: --shop beside --base-url or --key-file, several shops, a bad name (exit 2)', async () => {
    const { north, south, env } = await twoShops();
    const cases: Array<[string[], string]> = [
      [
        ['actions', '--shop', 'south', '--base-url', south.baseUrl],
        '--shop and --base-url cannot be given together',
      ],
      [
        ['contacts', '--shop', 'south', '--key-file', '/tmp/k'],
        '--shop and --key-file cannot be given together',
      ],
      [['check', '--shop', 'north,south'], '--shop names one shop here'],
      [['status', '--shop', '../../etc'], `"../../etc" cannot be a shop's name`],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, env);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.status, args.join(' ')).toBe(2);
    }
    expect([...(await north.requests()), ...(await south.requests())]).toEqual([]);
  });

  it('a config of one unnamed shop still works as it did (no "shops": the saved base URL and key)', async () => {
    const t = await startSim();
    const env = home.env();
    await writeConfig(env, { base_url: t.baseUrl });
    const { keyFilePath } = await import('../../src/config/paths.js');
    await writeKeyFile(keyFilePath(env), t.sim.tokens.read);
    const result = await runCli(['reviews', '--json'], env);
    expect(result.status).toBe(0);
    expect(ReviewsOutput.parse(JSON.parse(result.stdout)).items.length).toBeGreaterThan(0);
  });
});
