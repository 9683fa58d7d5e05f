/**
 * The customer's local time from the built CLI, in a real pseudo-terminal:
 * the bundle ships libphonenumber's zone map and the library finds it from
 * its chunk, so the composer places a Denver number by its area code; a
 * number the map cannot place falls back to the zone in config.json. And the
 * inbox's start does not load the phone libraries: only the composer's lookup
 * imports them.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/sim/simulator.js';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-customer-time-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-customer-time-home-'));
  await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

/** Gives a seeded contact with an open lead and a plain name another number (its consent records follow). */
function moveContact(sim: Simulator, phone: string) {
  const shop = sim.shops.main;
  const contact = shop.contacts.find(
    (c) => /^[\p{L} .'-]+$/u.test(c.name) && shop.leads.some((lead) => lead.contactId === c.id),
  );
  if (!contact) throw new Error('no plain contact with a lead');
  for (const record of shop.consents) if (record.phone === contact.phone) record.phone = phone;
  contact.phone = phone;
  return contact;
}

async function composeTo(s: TestSim, phone: string, config: object = {}) {
  await writeFile(join(home, 'config', 'shop-inbox', 'config.json'), JSON.stringify(config), { mode: 0o600 });
  const t = spawnInTerminal(process.execPath, [bundle.cliPath], {
    cols: 200,
    rows: 30,
    env: terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write }),
  });
  terminals.push(t);
  await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  t.send('/');
  t.send(phone);
  t.send('\r');
  await t.waitForText(/open leads \(\d+ shown of \d+\)/);
  t.send('c');
  return t;
}

describe('the customer’s time from the built CLI', () => {
  it('a Denver number: its local time, from the area code', async () => {
    const s = await startSim();
    const contact = moveContact(s.sim, '+13035550142');
    const t = await composeTo(s, contact.phone);
    await t.waitForText(/\d\d:\d\d for the customer \(America\/Denver, from the area code\)/);
  });

  it('a toll-free number: the zone of config.json, saying why', async () => {
    const s = await startSim();
    const contact = moveContact(s.sim, '+18005550142');
    const t = await composeTo(s, contact.phone, { timezone: 'Asia/Kathmandu' });
    await t.waitForText(
      /\d\d:\d\d for the customer \(Asia\/Kathmandu, the shop's zone from the config: the number does not say where \(toll-free or not geographic\)\)/,
    );
  });
});

describe('the bundle', () => {
  /** The chunks a file imports statically (what loading it loads). */
  async function staticClosure(start: string): Promise<Set<string>> {
    const seen = new Set<string>();
    const visit = async (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = await readFile(join(bundle.dir, file), 'utf8');
      for (const match of source.matchAll(
        /(?:^|[;\n])\s*import\s*(?:[^'"();]*?from\s*)?["']\.\.?\/([^"']+)["']/g,
      )) {
        const target = match[1] as string;
        await visit(
          file.startsWith('chunks/') && !target.startsWith('chunks/') ? `chunks/${target}` : target,
        );
      }
    };
    await visit(start);
    return seen;
  }

  it('ships the zone map, and the phone libraries load only with the composer’s lookup', async () => {
    const chunks = await readdir(join(bundle.dir, 'chunks'));
    const phoneChunk = chunks.find((name) => name.startsWith('phone-libraries-'));
    expect(phoneChunk).toBeDefined();
    expect((await readFile(join(bundle.dir, 'resources', 'timezones.bson'))).length).toBeGreaterThan(50_000);
    // What the inbox loads as it starts: the CLI, the inbox command and the screen's code, with all they import.
    const startUp = new Set<string>();
    for (const name of chunks.filter((chunk) => /^(tui-command|run-inbox|keymap)-/.test(chunk))) {
      for (const file of await staticClosure(`chunks/${name}`)) startUp.add(file);
    }
    for (const file of await staticClosure('cli.js')) startUp.add(file);
    expect(startUp.size).toBeGreaterThan(3);
    expect([...startUp]).not.toContain(`chunks/${phoneChunk}`);
    for (const file of startUp) {
      expect(await readFile(join(bundle.dir, file), 'utf8')).not.toContain('timezones.bson');
    }
    // The composer's lookup imports it when it is first needed.
    const importers: string[] = [];
    for (const name of chunks) {
      if ((await readFile(join(bundle.dir, 'chunks', name), 'utf8')).includes(`import("./${phoneChunk}")`))
        importers.push(name);
    }
    expect(importers.length).toBe(1);
  });
});
