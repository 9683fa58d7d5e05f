/**
 * Notifications of the built CLI in a real pseudo-terminal, against the
 * simulator on a real socket, read from the raw bytes the program wrote: the
 * title with the counts, OSC 9 / OSC 777 and the bell for what arrives after
 * start-up, once per item, and nothing for what was there at start.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

let home: string;
let bundle: BuiltCli;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-notify-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-notify-pty-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

const ESC = '\u001B';
const BEL = '\u0007';
const OSC = new RegExp(`${ESC}\\](\\d+);([^${BEL}${ESC}]*)${BEL}`, 'g');

function openWallboard(sim: TestSim, extraEnv: NodeJS.ProcessEnv = {}) {
  const terminal = spawnInTerminal(process.execPath, [bundle.cliPath, '--wallboard'], {
    cols: 80,
    rows: 24,
    env: terminalEnv(home, {
      SHOP_API_BASE_URL: sim.baseUrl,
      SHOP_API_KEY: sim.sim.tokens.read,
      ...extraEnv,
    }),
  });
  terminals.push(terminal);
  return terminal;
}

/** The OSC sequences in `raw`: [number, text]. */
const oscs = (raw: string) => [...raw.matchAll(OSC)].map((match) => [match[1], match[2]] as const);
/** Bells that are not the end of an OSC sequence. */
const bells = (raw: string) => raw.replace(OSC, '').split('\u0007').length - 1;

/** Waits until the simulator has answered `count` more reads of `path` (and `query`) after `since` requests. */
async function readsAfter(sim: TestSim, since: number, path: string, query: string, count: number) {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const reads = (await sim.requests())
      .slice(since)
      .filter((request) => request.path.endsWith(path) && request.query.includes(query));
    if (reads.length >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} reads of ${path}?${query}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('notifications', () => {
  it('a new missed call: exactly one title update, one OSC 9, one OSC 777, one bell; nothing for old items', async () => {
    const sim = await startSim();
    const terminal = openWallboard(sim);
    const me = await sim.client('read').getMe();
    const open = await sim.client('read').getInbox({ filter: 'open', limit: 50 });
    const sameDay = open.open_leads.filter((lead) => lead.urgency === 'same_day').length;
    const startTitle = `shop-inbox · ${me.inbox_pulse.needs_callback} callbacks · ${sameDay} same-day`;
    await terminal.waitFor(
      () => oscs(terminal.output()).some(([number, text]) => number === '2' && text === startTitle),
      'the title with the counts',
    );
    // The user's title is kept aside first.
    expect(terminal.output().startsWith(`${ESC}[22;0t`)).toBe(true);
    // A whole round of reads: every list behind a notification has its baseline.
    const atStart = (await sim.requests()).length;
    await readsAfter(sim, 0, '/actions', 'status=pending_approval', 1);
    await readsAfter(sim, atStart, '/inbox', 'filter=callbacks', 1);
    await readsAfter(sim, atStart, '/today', '', 1);
    await terminal.settle();
    // Dozens of missed calls, texts, same-day leads and actions were there at start: none is news.
    expect(oscs(terminal.output()).filter(([number]) => number === '9' || number === '777')).toEqual([]);
    expect(bells(terminal.output())).toBe(0);

    const before = terminal.output().length;
    const since = (await sim.requests()).length;
    expect(sim.sim.inject('missed_call')).not.toBeNull();
    // The new lead: not same-day, so that only the callbacks count changes.
    const lead = sim.sim.shops.main.leads.at(-1);
    if (lead) lead.urgency = 'this_week';
    const caller = sim.sim.shops.main.contacts.find((contact) => contact.id === lead?.contactId);

    await terminal.waitFor(
      () => oscs(terminal.output().slice(before)).some(([number]) => number === '9'),
      'a desktop notification',
      20_000,
    );
    // Two more rounds of every read: a list read again must not say it twice.
    await readsAfter(sim, since, '/inbox', 'filter=callbacks', 3);
    await readsAfter(sim, since, '/me', '', 3);
    await terminal.settle();
    const after = terminal.output().slice(before);
    const sequences = oscs(after);
    expect(sequences.filter(([number]) => number === '2')).toEqual([
      ['2', `shop-inbox · ${me.inbox_pulse.needs_callback + 1} callbacks · ${sameDay} same-day`],
    ]);
    const desktop = sequences.filter(([number]) => number === '9');
    expect(desktop).toHaveLength(1);
    expect(desktop[0]?.[1]).toContain(`Missed call: ${caller?.name}`);
    expect(sequences.filter(([number]) => number === '777')).toEqual([
      ['777', `notify;shop-inbox;${desktop[0]?.[1]}`],
    ]);
    expect(bells(after)).toBe(1);

    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
    // The user's title is back.
    expect(terminal.output()).toContain(`${ESC}[23;0t`);
    expect(terminal.output().lastIndexOf(`${ESC}[23;0t`)).toBeGreaterThan(
      terminal.output().lastIndexOf(`${ESC}]2;`),
    );
  }, 90_000);

  it('inside tmux: passed through with ESC doubled; customer text sanitized and cut', async () => {
    const sim = await startSim();
    const terminal = openWallboard(sim, { TMUX: '/tmp/tmux-test/default,1,0' });
    await terminal.waitForText(/updated \d+ s ago/);
    const atStart = (await sim.requests()).length;
    await readsAfter(sim, atStart, '/today', '', 1);
    const before = terminal.output().length;
    const hostile = `New text from Mallory: \u001B]0;owned\u0007\u001B[2J\u009D8;;http://evil\u0007 ${'x'.repeat(300)}`;
    sim.sim.shops.main.activity.push({ kind: 'sms_inbound', summary: hostile, createdAt: Date.now() });
    await terminal.waitFor(
      () => terminal.output().slice(before).includes(`${ESC}Ptmux;`),
      'a notification passed through tmux',
      20_000,
    );
    await terminal.settle();
    const after = terminal.output().slice(before);
    const wrapped = [...after.matchAll(new RegExp(`${ESC}Ptmux;([\\s\\S]*?)${ESC}\\\\`, 'g'))].map(
      (match) => match[1] ?? '',
    );
    expect(wrapped).toHaveLength(2);
    for (const inner of wrapped) {
      // Every ESC of the sequence inside is doubled; undoubled, it is one OSC with no other escape in it.
      expect(inner.replaceAll(`${ESC}${ESC}`, '')).not.toContain(ESC);
      const sequence = inner.replaceAll(`${ESC}${ESC}`, ESC);
      expect(sequence).toMatch(new RegExp(`^${ESC}\\](9|777);[^${ESC}${BEL}\u009D]*${BEL}$`));
      const text = sequence.replace(new RegExp(`^${ESC}\\](9;|777;notify;shop-inbox;)`), '').slice(0, -1);
      expect(text.startsWith('Text from Mallory: ')).toBe(true);
      expect(Array.from(text).length).toBeLessThanOrEqual(100);
      expect(text.endsWith('…')).toBe(true);
    }
    terminal.send('q');
    expect((await terminal.exited).exitCode).toBe(0);
  }, 60_000);

  it('in the inbox: the title by default, no desktop notification or bell unless the config turns them on', async () => {
    const sim = await startSim();
    /** The inbox until a same-day lead that arrived after start-up has been told (`told` says when). */
    const runInbox = async (config: object | undefined, told: (after: string) => boolean) => {
      if (config) {
        await mkdir(join(home, 'config', 'shop-inbox'), { recursive: true, mode: 0o700 });
        await writeFile(join(home, 'config', 'shop-inbox', 'config.json'), JSON.stringify(config), {
          mode: 0o600,
        });
      }
      const terminal = spawnInTerminal(process.execPath, [bundle.cliPath], {
        cols: 120,
        rows: 40,
        env: terminalEnv(home, { SHOP_API_BASE_URL: sim.baseUrl, SHOP_API_KEY: sim.sim.tokens.read }),
      });
      terminals.push(terminal);
      // The open leads are read (their count is in the pane's title): the baseline is taken.
      await terminal.waitForText(/Inbox — open leads \(\d+\)/);
      await terminal.settle();
      const before = terminal.output().length;
      // A same-day lead: the open leads are on screen, read every 10 s.
      expect(sim.sim.inject('missed_call')).not.toBeNull();
      const lead = sim.sim.shops.main.leads.at(-1);
      if (lead) lead.urgency = 'same_day';
      await terminal.waitFor(
        () => told(terminal.output().slice(before)),
        'the new same-day lead told',
        20_000,
      );
      await terminal.settle();
      const whole = terminal.output();
      terminal.send('q');
      expect((await terminal.exited).exitCode).toBe(0);
      const caller = sim.sim.shops.main.contacts.find((contact) => contact.id === lead?.contactId)?.name;
      return { whole, after: whole.slice(before), caller };
    };

    const byDefault = await runInbox(undefined, (after) => oscs(after).some(([number]) => number === '2'));
    expect(byDefault.whole.startsWith(`${ESC}[22;0t`)).toBe(true);
    expect(oscs(byDefault.after).filter(([number]) => number === '9' || number === '777')).toEqual([]);
    expect(bells(byDefault.after)).toBe(0);

    const turnedOn = await runInbox(
      { notify: { desktop: true, bell: true, title: false } },
      (after) =>
        // The bell comes in a write of its own, after the notifications.
        oscs(after).some(([number]) => number === '9') && bells(after) > 0,
    );
    // One item, one notification: a missed call that is also same-day (whichever list told it first).
    const told = oscs(turnedOn.after).filter(([number]) => number === '9');
    expect(told).toHaveLength(1);
    expect(told[0]?.[1]).toMatch(new RegExp(`^(Missed call|SAME DAY lead): ${turnedOn.caller} \\(`));
    expect(bells(turnedOn.after)).toBe(1);
    // The title is off: nothing is written to it, and the user's is neither pushed nor popped.
    expect(oscs(turnedOn.whole).filter(([number]) => number === '2')).toEqual([]);
    expect(turnedOn.whole).not.toContain(`${ESC}[22;0t`);
  }, 90_000);
});
