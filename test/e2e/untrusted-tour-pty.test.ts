/**
 * Every string from the server is untrusted, not only customer text: a shop
 * API whose every string field (ids, kinds, statuses, plans, URLs, names,
 * bodies, error messages, codes) carries terminal-injection payloads, and the
 * built inbox toured through every pane, the help, the palette, the composer,
 * a question and the notices. The raw bytes it writes hold no injected
 * sequence, the title is only ever the inbox's own (its counts), the bell
 * never rings, and what people wrote in other scripts still shows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type HostileServer,
  INJECTION_PAYLOADS,
  startHostileServer,
  TITLE_PAYLOAD,
} from '../support/hostile-server.js';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let cliPath: string;
let home: string;
const terminals: PtyTerminal[] = [];
const servers: HostileServer[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-tour-');
  cliPath = bundle.cliPath;
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-tour-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(home, { recursive: true, force: true });
});

/** The inbox against `baseUrl`, with what the terminal does to its title and bell counted. */
function inbox(baseUrl: string, key: string) {
  const t = spawnInTerminal(process.execPath, [cliPath], {
    cols: 120,
    rows: 40,
    unicode11: true,
    env: terminalEnv(home, { SHOP_API_BASE_URL: baseUrl, SHOP_API_KEY: key }),
  });
  terminals.push(t);
  const titles: string[] = [];
  let bells = 0;
  t.term.onTitleChange((title) => titles.push(title));
  t.term.onBell(() => {
    bells += 1;
  });
  const seen: string[] = [];
  return {
    t,
    titles,
    bells: () => bells,
    /** Keeps what the screen shows now, to look for the payloads people write. */
    look() {
      seen.push(t.screenText());
    },
    seen: () => seen.join('\n'),
  };
}

const ESC = '\u001B';
/** The one title the inbox writes itself: its counts (docs/guide.md, "Notifications"). */
const OWN_TITLE = /^shop-inbox · \d+ callbacks? · \d+\+? same-day$/;
const OWN_TITLE_SEQUENCE = new RegExp(
  `${ESC}\\]2;shop-inbox · \\d+ callbacks? · \\d+\\+? same-day\u0007`,
  'g',
);

/** Every title the terminal was given is the inbox's own. */
function expectOwnTitles(titles: string[]) {
  for (const title of titles) expect(title).toMatch(OWN_TITLE);
}

/** No control payload reached the terminal as it is: none of its tell-tale bytes in the raw output. */
function expectNothingInjected(raw: string) {
  for (const payload of INJECTION_PAYLOADS) {
    if (payload.kind !== 'control' || !payload.evidence || payload.evidence === TITLE_PAYLOAD) continue;
    expect(raw.includes(payload.evidence), `${payload.name} got through`).toBe(false);
  }
  // Beyond the payloads' own markers: no OSC (but the inbox's own title), DCS, APC or C1 control at all, and no bidi override.
  expect(raw.replace(OWN_TITLE_SEQUENCE, '')).not.toMatch(new RegExp(`${ESC}[\\]P_^X]`));
  expect(raw).not.toMatch(/[\u0080-\u009F]/);
  expect(raw).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
}

describe('a shop API whose every string is hostile', () => {
  it('a tour of every pane, the help, the palette, the composer and an error notice writes nothing injected', async () => {
    const h = await startHostileServer({ behaviour: { kind: 'injection' } });
    servers.push(h);
    const { t, titles, bells, look, seen } = inbox(h.baseUrl, 'shk_tour_key');
    await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    await t.waitForText('Customer 1');
    look();
    t.send('jj\r');
    await t.waitForText('Thread — ');
    await t.waitForText('Message 11');
    look();
    for (const [key, title] of [
      ['3', /│ Reviews \(/],
      ['4', /│ Actions — /],
      ['5', /│ Contacts \(/],
      ['6', /│ Today and account/],
    ] as const) {
      t.send(key);
      await t.waitForText(title);
      await t.waitFor(() => !t.screenText().includes('loading…'), `${key} loaded`, 10_000);
      look();
    }
    // A draft made of payloads, shown under its review.
    t.send('3');
    await t.waitForText(/│ Reviews \(/);
    t.send('d');
    await t.waitForText('Draft ready: it is not published.');
    await t.waitForText('DRAFT — not published');
    look();
    // The help and the palette over a hostile pane.
    t.send('?');
    await t.waitForText('Keys — Reviews');
    t.send('\u001B');
    await t.waitFor(() => !t.screenText().includes('Keys —'), 'the help to close');
    t.send(':');
    await t.waitForText('Commands — type to find');
    t.send('\u001B');
    await t.waitFor(() => !t.screenText().includes('Commands —'), 'the palette to close');
    // A text to a contact whose name and number are hostile, refused with a hostile error.
    h.behave({ kind: 'hostileError' }, 'sendText');
    t.send('5');
    await t.waitForText(/│ Contacts \(/);
    t.send('c');
    await t.waitForText(/To .*Contact 0/);
    t.send('Are you home?');
    await t.waitForText('Are you home?');
    t.send('\r');
    // No consent record can be known for a contact with no lead: send is typed, not y.
    await t.waitForText('? Type send, then enter');
    look();
    t.send('send\r');
    await t.waitForText('Not sent to');
    look();
    // The refused text went back to its contact's composer: quitting asks first.
    t.send('q');
    await t.waitForText('Quit anyway? y/n');
    t.send('y');
    expect(await t.exited).toMatchObject({ exitCode: 0 });

    expectNothingInjected(t.output());
    expectOwnTitles(titles);
    expect(bells()).toBe(0);
    // What people write in other scripts is still there to read.
    for (const text of ['東京の配管工', 'שלום', 'مرحبا بالعالم', 'ＦＵＬＬ']) expect(seen()).toContain(text);
  });

  it('an action id carrying OSC 52 and OSC 0: the approval question names it harmlessly, and y approves that action', async () => {
    const s = await startSim();
    const shop = s.sim.shops.main;
    const action = shop.actions.find((each) => each.status === 'pending_approval');
    if (!action) throw new Error('no pending action');
    const hostileId = `\u001B]52;c;SElKQUNLRUQ=\u0007\u001B]0;${TITLE_PAYLOAD}\u0007\u0007act_hostile`;
    action.id = hostileId;
    action.generatedAt = Date.now();
    const { t, titles, bells } = inbox(s.baseUrl, s.sim.tokens.write);
    await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    t.send('4');
    await t.waitForText('act_hostile');
    t.send('a');
    await t.waitForText(
      /Approve review reply .*act_hostile\? y\/n|Approve follow up text .*act_hostile\? y\/n/,
    );
    t.send('y');
    await t.waitForText(/Approved: .*act_hostile; the shop answered published\./);
    expect(shop.actions.find((each) => each.id === hostileId)?.status).toBe('published');
    t.send('q');
    expect(await t.exited).toMatchObject({ exitCode: 0 });
    expectNothingInjected(t.output());
    expectOwnTitles(titles);
    expect(bells()).toBe(0);
  });
});
