/**
 * The full-screen stop after a rotated key, as staff see it: when the key came
 * from the saved login or --key-file, it says where the inbox waits for a new
 * one and that it resumes by itself, and it does, back to the panes; when it
 * came from SHOP_API_KEY, it says that cannot change while the process runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeConfig } from '../../src/config/config-file.js';
import { writeKeyFile } from '../../src/config/key-file.js';
import { keyFilePath } from '../../src/config/paths.js';
import { KEYS, startTui } from '../support/tui.js';
import { draftWithItsAction } from '../support/write-flows.js';

/** Reads go on every 300 ms, so the rotation is noticed soon. */
const BUSY = { visibleMs: 300, headerMs: 300, backgroundMs: 60_000, rareMs: 60_000 };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the refused-key screen', () => {
  it('after a login: waits for `shop-inbox login`, then the inbox comes back by itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-login-'));
    dirs.push(dir);
    const env = { XDG_CONFIG_HOME: dir };
    const tui = await startTui({
      intervals: BUSY,
      columns: 170,
      session: { keySource: { kind: 'config', env }, keyWatch: { pollMs: 1_000, debounceMs: 30 } },
    });
    // As `shop-inbox login` leaves it.
    await writeKeyFile(keyFilePath(env), tui.s.sim.tokens.write);
    await writeConfig(env, { base_url: tui.s.baseUrl });
    await tui.waitFor('Inbox');
    tui.s.sim.rotateToken('write');

    const frame = await tui.waitFor('refused this key');
    expect(frame).toContain(
      `Waiting for a new key: run \`shop-inbox login\` (it saves the key in ${keyFilePath(env)}). The inbox then resumes by itself.`,
    );
    expect(frame).toContain('The refused key is not tried again. Press q to quit.');
    expect(frame).not.toContain('Nothing is being retried');

    await writeKeyFile(keyFilePath(env), tui.s.sim.tokens.write);
    const back = await tui.waitFor(
      (f, state) => !state.fatal && state.me.data !== undefined && !f.includes('refused'),
    );
    expect(back).toContain('Inbox');
    const refused = (await tui.s.requests()).filter((request) => request.token === 'write:rotated');
    expect(refused.map((request) => request.status)).toEqual([401]);
  });

  it('with --key-file: says to save the new key in that file, and comes back when it is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-keyfile-'));
    dirs.push(dir);
    const path = join(dir, 'shop.key');
    const tui = await startTui({
      intervals: BUSY,
      columns: 170,
      session: { keySource: { kind: 'key-file', path }, keyWatch: { pollMs: 1_000, debounceMs: 30 } },
    });
    await writeFile(path, `${tui.s.sim.tokens.write}\n`, { mode: 0o600 });
    await tui.waitFor('Inbox');
    tui.s.sim.rotateToken('write');
    const frame = await tui.waitFor('refused this key');
    expect(frame).toContain(
      `Waiting for a new key: save it in ${path}, the key file this inbox was started with`,
    );
    await writeKeyFile(path, tui.s.sim.tokens.write);
    await tui.waitFor((f, state) => !state.fatal && state.me.data !== undefined && !f.includes('refused'));
  });

  it('with another shop’s key saved in the file: nothing of the first shop stays on any pane', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-keyfile-'));
    dirs.push(dir);
    const path = join(dir, 'shop.key');
    const tui = await startTui({
      intervals: BUSY,
      columns: 170,
      rows: 40,
      session: { keySource: { kind: 'key-file', path }, keyWatch: { pollMs: 1_000, debounceMs: 30 } },
    });
    await writeFile(path, `${tui.s.sim.tokens.write}\n`, { mode: 0o600 });
    const first = tui.s.sim.shops.main;
    const other = tui.s.sim.shops.other;
    await tui.waitFor(first.identity.businessName);
    // A reply drafted in the first shop, shown with its text; a thread of it open.
    await tui.press('3');
    await draftWithItsAction(tui);
    const drafted = Object.values(tui.state().draftedReplies)[0];
    if (!drafted) throw new Error('no reply drafted');
    const draftText = drafted.reply.slice(0, 40);
    await tui.waitFor(draftText);
    const lead = tui.state().inbox.open.data?.open_leads[0];
    if (!lead) throw new Error('no open lead');
    await tui.press('1', KEYS.enter);
    await tui.waitFor((_f, state) => state.leads[lead.id]?.data !== undefined);
    await tui.waitFor(lead.caller_phone);
    // Staff are writing to that customer when the key is refused.
    await tui.press('c');
    await tui.waitFor((_f, state) => state.composer?.phone === lead.caller_phone);
    await tui.press('Half-typed for the first shop');

    tui.s.sim.rotateToken('write');
    await tui.waitFor('refused this key');
    await writeKeyFile(path, tui.s.sim.tokens.other_shop);
    await tui.waitFor(other.identity.businessName);
    await tui.waitFor(
      (_f, state) => state.inbox.open.data !== undefined && state.actions.pending_approval.data !== undefined,
    );

    const traces = [first.identity.businessName, draftText, lead.caller_phone, drafted.actionId];
    const otherPhones = new Set(other.contacts.map((contact) => contact.phone));
    expect(otherPhones.has(lead.caller_phone)).toBe(false);
    for (const pane of ['1', '2', '3', '4', '5', '6']) {
      await tui.press(pane);
      const frame = await tui.waitFor((f) => f.includes(other.identity.businessName));
      expect({ pane, left: traces.filter((trace) => frame.includes(trace)) }).toEqual({ pane, left: [] });
    }
    expect(tui.frame()).not.toContain('refused');
    // The text typed is kept, out of sight: the composer of the first shop's customer is closed.
    expect(tui.state().composer).toBeUndefined();
    expect(Object.values(tui.state().composed).map((line) => line.text)).toEqual([
      'Half-typed for the first shop',
    ]);
  });

  it('says that a key from SHOP_API_KEY cannot change while shop-inbox runs', async () => {
    const tui = await startTui({ intervals: BUSY, columns: 170, session: { keySource: { kind: 'env' } } });
    await tui.waitFor('Inbox');
    tui.s.sim.rotateToken('write');
    const frame = await tui.waitFor('refused this key');
    expect(frame).toContain('This key came from SHOP_API_KEY, which cannot change while shop-inbox runs');
    expect(frame).toContain('Nothing is being retried. Press q to quit.');
    expect(frame).not.toContain('resumes by itself');
  });
});
