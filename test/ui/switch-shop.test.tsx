/**
 * Switching shops inside the inbox (O): two shops of config.json on two simulators (two base URLs, two
 * keys). The header names the shop; after a switch nothing of the first shop is on screen or in the
 * state, a text goes to the second shop with its key, and switching back reads the first again. A text
 * typed for the first shop is asked about before it is left.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { shopKeyFilePath } from '../../src/config/shops.js';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { configShops } from '../../src/session/start-inbox-session.js';
import { switchShopQuestion } from '../../src/shell/switch-shop-question.js';
import type { AppState } from '../../src/store/app-store.js';
import { seedCustomersAfternoon } from '../support/clock.js';
import { startSim, type TestSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  confirmTheSend,
  inboxLeadWhere,
  outboundTo,
  recordWire,
  SEND_QUESTION,
  selectLeadByPhone,
  simConsent,
  startupLoaded,
  waitComposer,
} from '../support/write-flows.js';
import { plain } from './nav-pane-helpers.js';

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-switch-'));
  env = { XDG_CONFIG_HOME: join(home, 'xdg'), XDG_STATE_HOME: join(home, 'state') };
});
afterEach(async () => {
  // A shop's sender may still be writing its outbox when a test ends (it goes on in the background):
  // retried, as a directory filled while it is removed answers ENOTEMPTY.
  await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const NORTH_NAME = 'Rivera Plumbing & Heating';
const SOUTH_NAME = 'North Sound Heating & Air';

/** North: a simulator's main shop; south: another simulator's other shop (its own base URL and key). */
async function twoShops(
  options: { outboxes?: boolean; northReadOnly?: boolean; southToken?: 'other_shop' | 'read' } = {},
): Promise<{ north: TestSim; south: TestSim; tui: TestTui }> {
  const north = await startSim();
  const south = await startSim({ seed: 3 });
  await writeKeyFile(shopKeyFilePath(env, 'north'), north.sim.tokens.write);
  await writeKeyFile(shopKeyFilePath(env, 'south'), south.sim.tokens[options.southToken ?? 'other_shop']);
  await writeConfig(env, {
    shops: {
      north: {
        base_url: north.baseUrl,
        key_file: shopKeyFilePath(env, 'north'),
        ...(options.northReadOnly ? { read_only: true } : {}),
      },
      south: { base_url: south.baseUrl, key_file: shopKeyFilePath(env, 'south') },
    },
    default_shop: 'north',
  });
  const tui = await startTui({
    sim: north,
    columns: 110,
    rows: 30,
    now: seedCustomersAfternoon().now,
    ...(options.northReadOnly ? { readOnly: true } : {}),
    session: {
      ...(options.northReadOnly ? { keyMode: {} } : {}),
      shop: 'north',
      shops: configShops(env, false),
      ...(options.outboxes
        ? { outbox: (key: string, baseUrl: string) => OutboxFile.forKey(env, baseUrl, key) }
        : {}),
    },
  });
  await tui.waitFor((frame, state) => startupLoaded(state) && frame.includes(NORTH_NAME), 8_000);
  return { north, south, tui };
}

/** Every lead, contact and review id the state holds anywhere it keeps shop data. */
function idsIn(state: AppState): string[] {
  return [
    ...(state.inbox.open.data?.open_leads ?? []).map((lead) => lead.id),
    ...(state.inbox.callbacks.data?.open_leads ?? []).map((lead) => lead.id),
    ...(state.contacts.data?.items ?? []).map((contact) => contact.id),
    ...(state.reviews.data?.items ?? []).map((review) => review.id),
    ...Object.keys(state.leads),
    ...Object.keys(state.composed),
  ];
}

async function switchTo(tui: TestTui, name: string) {
  await tui.run('shop.switch');
  await tui.waitFor((_frame, state) => state.shopPicker !== undefined);
  const index = tui.state().shopPicker?.names.indexOf(name) ?? -1;
  expect(index).toBeGreaterThanOrEqual(0);
  await tui.press('k', 'k', 'k', ...Array(index).fill('j'));
  await tui.press(KEYS.enter);
}

describe('switching shops in the inbox', () => {
  it('O lists the shops; the header names the shop; nothing of the first shop stays; texts go to the second', async () => {
    const { north, south, tui } = await twoShops();
    expect(tui.frame()).toContain('[north]');
    const northIds = idsIn(tui.state());
    expect(northIds.length).toBeGreaterThan(10);
    const northLead = north.sim.shops.main.leads[0];
    expect(northLead).toBeDefined();

    // The hint names the key where there are shops to switch to (wide enough for the whole hint line).
    await tui.resize(220, 30);
    expect(plain(tui.frame()).split('\n').at(-1)).toMatch(/O shops/);
    await tui.resize(110, 30);
    await tui.run('shop.switch');
    const list = await tui.waitFor('Shops — enter switches');
    expect(list).toMatch(/● north\s+\(on screen\)/);
    expect(list).toContain('south');
    await tui.press('j', KEYS.enter);

    const frame = await tui.waitFor(
      (shown, state) => startupLoaded(state) && shown.includes(SOUTH_NAME) && shown.includes('[south]'),
      8_000,
    );
    expect(frame).not.toContain(NORTH_NAME);
    expect(frame).not.toContain('[north]');
    const state = tui.state();
    expect(state.shop).toBe('south');
    expect(tui.session.baseUrl).toBe(south.baseUrl);
    const leftOver = idsIn(state).filter((id) => northIds.includes(id));
    expect(leftOver).toEqual([]);
    for (const contact of north.sim.shops.main.contacts) expect(frame).not.toContain(contact.phone);
    // Every read since the switch went to the south simulator with its own key.
    const southRequests = await south.requests();
    expect(southRequests.length).toBeGreaterThan(0);
    expect(southRequests.every((request) => request.status < 400)).toBe(true);

    // A text now goes to the south shop's customer, with the south key, at the south simulator.
    const southShop = south.sim.shops.other;
    const row = (tui.state().inbox.open.data?.open_leads ?? []).find((lead) =>
      southShop.leads.some((candidate) => candidate.id === lead.id),
    );
    expect(row).toBeDefined();
    const northWritesBefore = (await north.requests()).filter((r) => r.method !== 'GET').length;
    const lead = southShop.leads.find((candidate) => candidate.id === row?.id);
    const contact = southShop.contacts.find((candidate) => candidate.id === lead?.contactId);
    await tui.press('1', '/', KEYS.escape, '/', contact?.phone ?? '', KEYS.enter);
    await tui.waitFor((_frame, s) => s.selection.inbox !== undefined);
    await tui.press('c');
    await waitComposer(tui, contact?.id ?? '');
    await tui.press('Heading over now');
    await tui.press(KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);
    await tui.waitFor(() =>
      southShop.leads.some((l) =>
        l.messages.some((m) => m.direction === 'outbound' && m.body === 'Heading over now'),
      ),
    );
    expect((await north.requests()).filter((r) => r.method !== 'GET').length).toBe(northWritesBefore);

    // And back: the north shop again, read afresh.
    await switchTo(tui, 'north');
    const back = await tui.waitFor(
      (shown, s) => startupLoaded(s) && shown.includes(NORTH_NAME) && shown.includes('[north]'),
      8_000,
    );
    expect(back).not.toContain(SOUTH_NAME);
    expect(tui.session.baseUrl).toBe(north.baseUrl);
    const southIds = southShop.leads.map((l) => l.id).concat(southShop.contacts.map((c) => c.id));
    expect(idsIn(tui.state()).filter((id) => southIds.includes(id))).toEqual([]);
  });

  it('a text typed for this shop: asked first; no keeps it and the shop; yes leaves both', async () => {
    const { tui } = await twoShops();
    const row = tui.state().inbox.open.data?.open_leads[0];
    expect(row).toBeDefined();
    await tui.press('c');
    await tui.waitFor((_frame, state) => state.composer !== undefined, 8_000);
    await tui.press('Running late', KEYS.escape);
    await tui.waitFor((_frame, state) => state.composer === undefined);
    const contactId = Object.keys(tui.state().composed)[0] ?? '';
    expect(tui.state().composed[contactId]?.text).toBe('Running late');

    await switchTo(tui, 'south');
    await tui.waitFor('Switch to south? y/n · 1 text typed for shop north is dropped.');
    await tui.press('n');
    expect(tui.state().shop).toBe('north');
    expect(tui.state().composed[contactId]?.text).toBe('Running late');

    await switchTo(tui, 'south');
    await tui.waitFor('Switch to south? y/n');
    await tui.press('y');
    await tui.waitFor((frame) => frame.includes(SOUTH_NAME), 8_000);
    expect(tui.state().composed).toEqual({});
  });

  it('a text still sending for the shop left goes on in the background: sent once there, none at the other, said naming the shop', async () => {
    const { north, south, tui } = await twoShops({ outboxes: true });
    const northOutbox = OutboxFile.forKey(env, north.baseUrl, north.sim.tokens.write);
    const wire = recordWire(north.sim);
    const target = inboxLeadWhere(tui, (contact) => simConsent(north.sim, contact.phone) === true);
    const { contact } = target;
    const body = 'On our way, 10 minutes';
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press(body, KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    // The send reaches north's simulator and is held there, unanswered.
    wire.hold((request) => request.method === 'POST' && request.path.endsWith('/messages'));
    await confirmTheSend(tui);
    await tui.waitFor(() => wire.held === 1);
    // Kill-safety as before: its record (key and body) is on disk before the first attempt.
    expect((await northOutbox.inspect()).waiting).toBe(1);

    await switchTo(tui, 'south');
    const question = await tui.waitFor('Switch to south? y/n · 1 text to ');
    expect(question).toContain(`1 text to ${contact.name} (${contact.phone}) is still`);
    const prompt = tui.state().prompt;
    expect(prompt?.kind === 'confirm-switch-shop' && switchShopQuestion(prompt)).toBe(
      `Switch to south? y/n · 1 text to ${contact.name} (${contact.phone}) is still being sent for shop north; it goes on in the background.`,
    );
    await tui.press('y');
    await tui.waitFor(
      (shown, state) => startupLoaded(state) && shown.includes(SOUTH_NAME) && state.shop === 'south',
      8_000,
    );
    // Nothing of north on screen or in the state, its text under way included.
    expect(tui.state().outbox).toEqual([]);
    expect(tui.frame()).not.toContain(contact.phone);

    wire.release();
    await tui.waitFor(
      (_frame, state) => state.notice?.text === `Shop north: Sent to ${contact.name} (${contact.phone}).`,
      8_000,
    );
    expect(outboundTo(north.sim, contact.id).filter((message) => message.body === body)).toHaveLength(1);
    expect(wire.writes.filter((write) => JSON.stringify(write.body).includes(body))).toHaveLength(1);
    const southWrites = (await south.requests()).filter((request) => request.method !== 'GET');
    expect(southWrites).toEqual([]);
    await vi.waitFor(async () => expect((await northOutbox.inspect()).waiting).toBe(0), {
      timeout: 5_000,
    });
    expect(tui.state().outbox).toEqual([]);
    expect(tui.state().shop).toBe('south');
    expect(tui.frame()).toContain(SOUTH_NAME);
    expect(tui.frame()).not.toContain(NORTH_NAME);
  });

  it('a text refused by the shop left, in the background: the status line and the log say so naming the shop, with its words', async () => {
    const { north, tui } = await twoShops({ outboxes: true });
    const northOutbox = OutboxFile.forKey(env, north.baseUrl, north.sim.tokens.write);
    const wire = recordWire(north.sim);
    const target = inboxLeadWhere(tui, (contact) => simConsent(north.sim, contact.phone) === true);
    const { contact } = target;
    const body = 'Your part arrived, we can come Tuesday';
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press(body, KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    wire.hold((request) => request.method === 'POST' && request.path.endsWith('/messages'));
    await confirmTheSend(tui);
    await tui.waitFor(() => wire.held === 1);
    await switchTo(tui, 'south');
    await tui.waitFor('Switch to south? y/n');
    await tui.press('y');
    await tui.waitFor((shown, state) => startupLoaded(state) && shown.includes(SOUTH_NAME), 8_000);
    // North's texting stops being live while the text waits there: north refuses it for good.
    north.sim.shops.main.texting.status = 'pending';
    wire.release();
    const notice = await tui.waitFor(
      (_frame, state) =>
        state.notice?.text.startsWith(`Shop north: Not sent to ${contact.name} (${contact.phone})`) === true,
      8_000,
    );
    expect(notice).toBeTruthy();
    const said = tui.state().notice?.text ?? '';
    expect(said).toContain(`Its text was: “${body}”.`);
    expect(said).not.toContain('back in the composer');
    expect(tui.state().log.some((entry) => entry.text === said)).toBe(true);
    expect(outboundTo(north.sim, contact.id).filter((message) => message.body === body)).toHaveLength(0);
    // Refused for good: gone from north's outbox, never tried again.
    await vi.waitFor(async () => expect((await northOutbox.inspect()).waiting).toBe(0), { timeout: 5_000 });
  });

  it('a switch back while a text of that shop is still sending shows it again, and it is sent once', async () => {
    const { north, tui } = await twoShops({ outboxes: true });
    const northOutbox = OutboxFile.forKey(env, north.baseUrl, north.sim.tokens.write);
    const wire = recordWire(north.sim);
    const { contact } = inboxLeadWhere(tui, (candidate) => simConsent(north.sim, candidate.phone) === true);
    const body = 'Back at the van in 5';
    await selectLeadByPhone(tui, contact.phone);
    await tui.press('c');
    await waitComposer(tui, contact.id);
    await tui.press(body, KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    wire.hold((request) => request.method === 'POST' && request.path.endsWith('/messages'));
    await confirmTheSend(tui);
    await tui.waitFor(() => wire.held === 1);

    await switchTo(tui, 'south');
    await tui.waitFor('Switch to south? y/n');
    await tui.press('y');
    await tui.waitFor((shown, state) => startupLoaded(state) && shown.includes(SOUTH_NAME), 8_000);
    await switchTo(tui, 'north');
    await tui.waitFor((shown, state) => startupLoaded(state) && shown.includes(NORTH_NAME), 8_000);
    // Still held at north: the text is on screen again, sending, and not taken over a second time.
    expect(tui.state().outbox.map((text) => [text.body, text.state])).toEqual([[body, 'sending']]);

    wire.release();
    await tui.waitFor(
      (_frame, state) => state.notice?.text === `Sent to ${contact.name} (${contact.phone}).`,
      8_000,
    );
    expect(tui.state().outbox.map((text) => [text.body, text.state])).toEqual([[body, 'sent']]);
    expect(outboundTo(north.sim, contact.id).filter((message) => message.body === body)).toHaveLength(1);
    expect(wire.writes.filter((write) => JSON.stringify(write.body).includes(body))).toHaveLength(1);
    await vi.waitFor(async () => expect((await northOutbox.inspect()).waiting).toBe(0), {
      timeout: 5_000,
    });
  });

  it('a 429 pause of the shop left does not hold up the shop switched to: its reads go at once', async () => {
    const { north, south, tui } = await twoShops();
    north.sim.faults.rateLimitBurst(1, 30);
    await tui.press('R');
    await tui.waitFor((_frame, state) => state.connection.state === 'rate_limited');
    const southReadsBefore = (await south.requests()).length;

    await switchTo(tui, 'south');
    // Within seconds, not the 30 s north was asked to wait: south's budget is its key's own.
    await tui.waitFor(
      (shown, state) => startupLoaded(state) && shown.includes(SOUTH_NAME) && state.shop === 'south',
      8_000,
    );
    expect(tui.state().connection.state).toBe('ok');
    expect((await south.requests()).length).toBeGreaterThan(southReadsBefore);
    expect(tui.session.budget.pausedUntil).toBeUndefined();
  });

  it("from a shop read-only by its config to a writable shop whose key is read-only: the key's mode is asked, and [READ-ONLY] shown", async () => {
    const { north, south, tui } = await twoShops({ northReadOnly: true, southToken: 'read' });
    // Read-only by choice: its key's mode is never asked (only GETs of the lists reach north).
    expect(tui.state()).toMatchObject({ readOnly: true, readOnlyReason: 'flag' });
    expect(tui.state().keyMode.mode).toBe('unknown');
    const northWrites = (await north.requests()).filter((request) => request.method !== 'GET');
    expect(northWrites).toEqual([]);

    await switchTo(tui, 'south');
    // Asked at once for the new key (not learned from a refused write: nothing is written).
    const frame = await tui.waitFor(
      (shown, state) =>
        state.shop === 'south' && state.keyMode.mode === 'read' && shown.includes('[READ-ONLY]'),
      8_000,
    );
    expect(frame).toContain('[south]');
    expect(tui.state()).toMatchObject({
      readOnly: true,
      readOnlyReason: 'server',
      keyMode: { mode: 'read', how: 'probe' },
    });
    const southProbes = (await south.requests()).filter((request) => request.method !== 'GET');
    expect(southProbes.length).toBeGreaterThan(0);
  });

  it('a shop whose key file is gone: said, and the shop on screen stays as it was', async () => {
    const { tui } = await twoShops();
    await rm(shopKeyFilePath(env, 'south'));
    await switchTo(tui, 'south');
    await tui.waitFor(/Cannot switch to the shop south: there is no key file at/);
    expect(tui.state().shop).toBe('north');
    expect(tui.frame()).toContain(NORTH_NAME);
  });

  it('an inbox with no shops to switch to (the demo, --base-url) hints no O, and O says why', async () => {
    // Wide enough for the whole hint line: the keys around O's place are there, O is not.
    const tui = await startTui({ columns: 220, rows: 40 });
    await tui.waitFor((_frame, state) => startupLoaded(state));
    const hintLine = plain(tui.frame()).split('\n').at(-1);
    expect(hintLine).toMatch(/tab panes · L log$/);
    expect(hintLine).not.toMatch(/O shops/);
    await tui.press('O');
    expect(tui.state().notice?.text).toBe(
      'This inbox has no other shops (the demo, or one started with --base-url).',
    );
    expect(tui.state().shopPicker).toBeUndefined();
  });
});
