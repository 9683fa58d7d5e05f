/**
 * templates.json as the built CLI reads it from the config directory, in a
 * real pseudo-terminal: the user's templates are offered by ctrl-t, and a
 * broken file starts the inbox all the same, ctrl-t saying why in plain words.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-templates-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-templates-home-'));
  await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

async function composeWith(s: TestSim, templates: string) {
  await writeFile(join(home, 'config', 'shop-inbox', 'templates.json'), templates);
  const t = spawnInTerminal(process.execPath, [bundle.cliPath], {
    cols: 100,
    rows: 30,
    env: terminalEnv(home, { SHOP_API_BASE_URL: s.baseUrl, SHOP_API_KEY: s.sim.tokens.write }),
  });
  terminals.push(t);
  await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  t.send('c');
  // Ready once the lead is read (its consent shows): templates are filled in for its contact.
  await t.waitForText(/To .+ characters[\s\S]*(consent given|consent not given|no consent record)/);
  return t;
}

describe('templates.json', () => {
  it("the user's templates, filled in for the customer", async () => {
    const s = await startSim();
    const t = await composeWith(
      s,
      JSON.stringify([{ name: 'Invoice', body: 'Hi {first_name}, {business_name} sent your invoice.' }]),
    );
    t.send('\u0014');
    await t.waitForText('Templates — type to find');
    await t.waitForText('Invoice · Hi {first_name}');
    t.send('inv\r');
    await t.waitForText(/Hi \S+, Rivera Plumbing & Heating sent your invoice\./);
  });

  it('a broken file: the inbox starts, and ctrl-t says why', async () => {
    const s = await startSim();
    const t = await composeWith(s, '[{ "name": "half');
    t.send('\u0014');
    await t.waitForText(/templates\.json is not valid JSON, so no templates are offered/i);
  });
});
