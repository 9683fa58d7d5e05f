/**
 * One number of missed calls with no reply, wherever it is shown: the header,
 * the callbacks list's title, Today, the window title and the wallboard count
 * them by one definition from one read (src/store/counts.ts), also while the
 * list's answer is still on its way after /me's, after a missed call arrives
 * and after a reply answers some. Against the simulator over a real socket.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { notifySettings, startNotifier } from '../../src/shell/notifier.js';
import { waitingCounts } from '../../src/store/counts.js';
import { startSim } from '../support/sim.js';
import { KEYS, startTui, type TestTui } from '../support/tui.js';
import {
  afternoonZone,
  confirmTheSend,
  consentingCallerWaiting,
  recordWire,
  SEND_QUESTION,
  waitComposer,
  waitStartup,
} from '../support/write-flows.js';

/** Nothing is read again on its own within a test: only what the test or a key asks for. */
const STILL = {
  visibleMs: 600_000,
  headerMs: 600_000,
  backgroundMs: 600_000,
  rareMs: 600_000,
  burstMs: 600_000,
  pacedMs: 600_000,
};

const number = (pattern: RegExp, text: string): number => {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`${pattern} not found in:\n${text}`);
  return Number(match[1]);
};

/** The window titles the inbox's notifier writes to the terminal, in order. */
function watchTitles(tui: TestTui): string[] {
  const titles: string[] = [];
  const stop = startNotifier({
    store: tui.session.store,
    settings: notifySettings(undefined, false),
    // A title is written alone, as OSC 2: ESC ] 2 ; text BEL.
    write: (bytes) => {
      if (bytes.startsWith('\u001B]2;')) titles.push(bytes.slice(4, -1));
    },
    tmux: false,
  });
  onTestFinished(stop);
  return titles;
}

/** The count of callbacks in every place that shows one, from one copy of the reads and its screens. */
async function everyCount(tui: TestTui, titles: readonly string[]) {
  for (let attempt = 0; ; attempt++) {
    const state = tui.state();
    await tui.press('1');
    const inbox = await tui.waitFor(/Inbox — missed calls with no reply \(\d+/);
    const header = number(/(\d+) callbacks?\b/, inbox.split('\n')[1] ?? '');
    // "(7)", or "(6 of 7 · the rest on the dashboard)": the count is the whole, the one after "of".
    const [, shown, whole] = /Inbox — missed calls with no reply \((\d+)(?: of (\d+))?/.exec(inbox) ?? [];
    const list = Number(whole ?? shown);
    await tui.press('6');
    const today = number(
      /(\d+) missed calls? with no reply/,
      await tui.waitFor(/missed calls? with no reply/),
    );
    await tui.press('1');
    // The screens must come from the copy read first: a read that landed in between means look again.
    const now = tui.state();
    if (now.inbox.callbacks.data !== state.inbox.callbacks.data || now.me.data !== state.me.data) {
      if (attempt < 3) continue;
      throw new Error('the callbacks list or /me kept changing while the screens were read');
    }
    return {
      header,
      list,
      today,
      title: number(/· (\d+) callbacks? ·/, titles.at(-1) ?? ''),
      wallboard: Number(waitingCounts(state).missed),
    };
  }
}

const all = (count: number) => ({ header: count, list: count, today: count, title: count, wallboard: count });

describe('the count of missed calls with no reply', () => {
  it('is the same in the header, the list, Today, the title and the wallboard, whatever arrives', async () => {
    const s = await startSim();
    const shop = s.sim.shops.main;
    // A customer waiting for a callback, who calls again, and has given consent (a plain y sends).
    const { lead: first, contact } = await consentingCallerWaiting(s);
    const callbacks = (await s.client().getInbox({ filter: 'callbacks', limit: 100 })).open_leads;
    const tui = await startTui({
      sim: s,
      columns: 120,
      rows: 40,
      intervals: STILL,
      // Mid-afternoon in the shop's zone whenever the suite runs: the send is outside quiet hours.
      session: { timeZone: afternoonZone() },
    });
    const titles = watchTitles(tui);
    await waitStartup(tui);
    await tui.press('f');
    const before = callbacks.length;
    expect(await everyCount(tui, titles)).toEqual(all(before));

    // The customer calls again. /me is answered before the list: every place still shows the list's count.
    const again = s.sim.missedCall(contact.id);
    const wire = recordWire(s.sim);
    wire.hold((request) => request.path === '/v1/inbox' && request.query.includes('filter=callbacks'));
    // From Today, R reads /me before the callbacks list (what is on screen comes first).
    await tui.press('6', 'R');
    await tui.waitFor((_f, state) => state.me.data?.inbox_pulse.needs_callback === before + 1);
    expect(await everyCount(tui, titles)).toEqual(all(before));
    wire.release();
    await tui.waitFor(
      (_f, state) => state.inbox.callbacks.data?.open_leads.some((row) => row.id === again) === true,
    );
    await tui.waitFor((_f, state) => !Object.values(state.inbox).some((loaded) => loaded.loading));
    expect(await everyCount(tui, titles)).toEqual(all(before + 1));

    // A reply from the older call's thread answers both calls of that customer, whichever lead holds it.
    await tui.press('/', contact.phone, KEYS.enter);
    await tui.waitFor((_f, state) => state.inbox.callbacks.data !== undefined);
    const rows = tui
      .state()
      .inbox.callbacks.data?.open_leads.filter((row) => row.caller_phone === contact.phone);
    expect(rows?.map((row) => row.id)).toEqual([again, first.id]);
    await tui.press('j', 'c');
    await waitComposer(tui, contact.id);
    expect(tui.state().composer?.leadId).toBe(first.id);
    await tui.press('Sorry we missed you, calling back now.', KEYS.enter);
    await tui.waitFor(SEND_QUESTION);
    await confirmTheSend(tui);
    await tui.waitFor(`Sent to ${contact.name} (${contact.phone}).`);
    await tui.waitFor(
      (_f, state) =>
        state.inbox.callbacks.data?.open_leads.every((row) => row.caller_phone !== contact.phone) === true &&
        state.me.data?.inbox_pulse.needs_callback === before - 1,
    );
    await tui.press('1', '/', KEYS.escape);
    expect(await everyCount(tui, titles)).toEqual(all(before - 1));
    expect(
      shop.leads.filter((lead) => lead.contactId === contact.id && lead.answeredAt !== undefined),
    ).toHaveLength(2);
  });
});
