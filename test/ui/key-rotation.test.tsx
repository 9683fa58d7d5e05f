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
import { startTui } from '../support/tui.js';

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
