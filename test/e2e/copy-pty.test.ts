/**
 * Copy (y) through the built CLI in a real pseudo-terminal: the terminal
 * receives one OSC 52 sequence whose text is the selected lead's phone, and
 * inside tmux ($TMUX set) the sequence comes wrapped for tmux's passthrough.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Inbox } from '../../src/contract/resources.js';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-copy-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-copy-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

async function open(s: TestSim, extraEnv: NodeJS.ProcessEnv = {}) {
  const env = terminalEnv(home, {
    SHOP_API_BASE_URL: s.baseUrl,
    SHOP_API_KEY: s.sim.tokens.write,
    ...extraEnv,
  });
  const t = spawnInTerminal(process.execPath, [bundle.cliPath], { cols: 100, rows: 30, env });
  terminals.push(t);
  await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
  return t;
}

async function firstLeadPhone(s: TestSim): Promise<string> {
  const inbox = (await s.client().getInbox({ filter: 'open', limit: 100 })) as Inbox;
  const phone = inbox.open_leads[0]?.caller_phone;
  if (!phone) throw new Error('no open lead');
  return phone;
}

describe('copy in a real terminal', () => {
  it("y sends the terminal one OSC 52 sequence with the selected lead's phone", async () => {
    const s = await startSim();
    const phone = await firstLeadPhone(s);
    const t = await open(s);
    // What the terminal itself is asked to put on the clipboard (xterm's parser, as a terminal would).
    const clipboard: string[] = [];
    t.term.parser.registerOscHandler(52, (data) => {
      clipboard.push(data);
      return true;
    });
    t.send('y');
    await t.waitFor(() => clipboard.length > 0, 'an OSC 52 sequence');
    await t.waitForText('Copied');
    expect(clipboard).toHaveLength(1);
    const [target, payload] = (clipboard[0] ?? '').split(';');
    expect(target).toBe('c');
    expect(Buffer.from(payload ?? '', 'base64').toString('utf8')).toBe(phone);
    expect(t.screenText()).toContain(`phone number: ${phone}`);
  });

  it('inside tmux ($TMUX set) the sequence is wrapped for passthrough, its ESC doubled', async () => {
    const s = await startSim();
    const phone = await firstLeadPhone(s);
    const t = await open(s, { TMUX: '/tmp/tmux-1000/default,1234,0' });
    t.send('y');
    await t.waitForText('Copied');
    const base64 = Buffer.from(phone).toString('base64');
    expect(t.output()).toContain(`\u001BPtmux;\u001B\u001B]52;c;${base64}\u0007\u001B\\`);
    expect(t.output()).not.toContain(`\u001BPtmux;\u001B]52;`);
  });
});
