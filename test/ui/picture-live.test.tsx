/**
 * The picture of every open conversation against a live shop over a real socket, with the simulator's hints
 * and with none (`--hints none`: summaries name nobody and `last_contact_at` stays, so only the threads link
 * a text to its writer). Between the checks the simulator's live mode makes its events (texts into open
 * threads, missed calls, reviews, actions, staff answering from the dashboard); after each round every text
 * the Inbox shows names its writer, the one the simulator's world says wrote it, and the waiting list is the
 * world's: every open lead whose thread ends with the customer's text, and no other.
 */
import { describe, expect, it } from 'vitest';
import type { HintMode } from '../../src/sim/hints.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { isOpen } from '../../src/sim/views.js';
import type { AppState } from '../../src/store/app-store.js';
import { pictureCoverage } from '../../src/store/conversation-picture.js';
import { previewSender, previewsShown } from '../../src/store/inbound-match.js';
import { waitingConversations } from '../../src/store/waiting.js';
import { startSim } from '../support/sim.js';
import { startTui } from '../support/tui.js';
import { waitStartup } from '../support/write-flows.js';
import { lines, plain } from './nav-pane-helpers.js';

/** Fast, so that a round takes a second: the order of the reads is the inbox's own. */
const FAST = {
  visibleMs: 400,
  headerMs: 1_000,
  backgroundMs: 1_500,
  rareMs: 5_000,
  burstMs: 0,
  pacedMs: 500,
};

/** The open lead whose thread holds this inbound text in the world, or null when no open lead's does. */
function writerOf(sim: Simulator, at: string, body: string): string | null {
  const shown = body.replace(/…$/, '');
  const lead = sim.shops.main.leads.find((each) =>
    each.messages.some(
      (message) =>
        message.direction === 'inbound' &&
        message.occurredAt === Date.parse(at) &&
        message.body.startsWith(shown),
    ),
  );
  return lead && isOpen(lead) ? lead.id : null;
}

/** The open leads whose newest text is the customer's, in the world. */
function waitingInWorld(sim: Simulator): string[] {
  return sim.shops.main.leads
    .filter((lead) => isOpen(lead))
    .filter(
      (lead) =>
        [...lead.messages].sort((a, b) => a.occurredAt - b.occurredAt).at(-1)?.direction === 'inbound',
    )
    .map((lead) => lead.id)
    .sort();
}

/** What the inbox says of each shown text: its writer's lead, or why it names none. */
const namedBy = (state: AppState) =>
  previewsShown(state).map((preview) => {
    const sender = previewSender(state, preview);
    return sender.kind === 'matched' ? sender.lead.lead.id : sender.kind;
  });

describe.each<HintMode>(['plausible', 'none'])('a live shop, hints %s', (hints) => {
  it('every text shown names the writer the world says; the waiting list is the world’s, round after round', async () => {
    const s = await startSim({ hints, rateLimitPerMinute: 100_000 });
    const tui = await startTui({ sim: s, columns: 120, rows: 40, intervals: FAST, maxRpm: 6_000 });
    await waitStartup(tui);
    for (let round = 0; round < 6; round += 1) {
      // Three of the live mode's events between two looks, as a live shop makes them.
      for (let event = 0; event < 3; event += 1) s.sim.tick();
      if (round % 2 === 0) s.sim.inject('inbound_text');
      const expected = () => ({
        named: previewsShown(tui.state()).map(
          (preview) => writerOf(s.sim, preview.occurred_at, preview.body_preview) ?? 'no-open-lead',
        ),
        waiting: waitingInWorld(s.sim),
      });
      const seen = (state: AppState) => ({
        named: namedBy(state),
        waiting: waitingConversations(state)
          .map((each) => each.lead.id)
          .sort(),
      });
      // The world holds still now: the inbox catches up with it by itself.
      await tui
        .waitFor((_frame, state) => {
          const { read, of } = pictureCoverage(state);
          return read === of && JSON.stringify(seen(state)) === JSON.stringify(expected());
        }, 10_000)
        .catch(() => undefined);
      expect(seen(tui.state()), `round ${round}`).toEqual(expected());
    }
    // On screen: the newest text with its writer's name and number, and the header's count of who waits.
    const newest = previewsShown(tui.state())[0];
    const writer = tui
      .state()
      .inbox.open.data?.open_leads.find((lead) => lead.id === namedBy(tui.state())[0]);
    if (!newest || !writer) throw new Error('the newest text shown names no open lead');
    const frame = await tui.waitFor(newest.body_preview.slice(0, 20));
    expect(
      lines(plain(frame)).some((line) => line.includes(`${writer.contact_name} (${writer.caller_phone}):`)),
    ).toBe(true);
    await tui.waitFor(`${waitingInWorld(s.sim).length} waiting`);
  }, 90_000);
});
