/**
 * Helpers for the write-flow tests (compose/send, approve, draft, read-only,
 * quit): what the client really put on the wire, a way to hold a write in
 * flight, faults aimed at the next write only, and keyboard shortcuts to reach
 * a given lead or contact the way staff would.
 */
import { afterEach, vi } from 'vitest';
import type { ShopClient } from '../../src/api/client.js';
import type { Fault } from '../../src/sim/faults.js';
import type { LoggedRequest } from '../../src/sim/request-log.js';
import type { Simulator } from '../../src/sim/simulator.js';
import type { AppState } from '../../src/store/app-store.js';
import { selectedContact, selectedLead } from '../../src/store/selectors.js';
import { oneLine } from '../../src/ui-kit/format.js';
import type { TestTui } from './tui.js';
import { KEYS, settle } from './tui.js';

/** A write request as the simulator received it (method, path, headers that matter, JSON body). */
export interface WireWrite {
  method: string;
  /** Without the /v1 prefix. */
  path: string;
  idempotencyKey: string | null;
  body: unknown;
}

export interface WireRecorder {
  /** Every non-GET request that reached the simulator's /v1, in the order it received them. */
  readonly writes: WireWrite[];
  /**
   * Holds every later write (or, given `which`, every later request it
   * matches) at the simulator, in flight, before it is handled, until `release()`.
   */
  hold(which?: (request: LoggedRequest) => boolean): void;
  /** Lets held requests (and later ones) go. */
  release(): void;
  /** How many requests are waiting at the gate. */
  readonly held: number;
}

/**
 * Records, at the simulator, the writes that reach it over the socket, and
 * can hold requests there in flight. Restored after each test.
 */
export function recordWire(sim: Simulator): WireRecorder {
  const writes: WireWrite[] = [];
  const isWrite = (request: LoggedRequest) => request.method !== 'GET';
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let holds = isWrite;
  let held = 0;
  const add = sim.requests.add.bind(sim.requests);
  vi.spyOn(sim.requests, 'add').mockImplementation((entry) => {
    if (entry.path.startsWith('/v1/') && isWrite(entry)) {
      writes.push({
        method: entry.method,
        path: entry.path.replace(/^\/v1/, ''),
        idempotencyKey: entry.idempotencyKey,
        body: entry.body,
      });
    }
    add(entry);
  });
  // The simulator logs a request, then draws its fault, in one synchronous step: the last logged is the current one.
  const draw = sim.faults.draw.bind(sim.faults);
  vi.spyOn(sim.faults, 'draw').mockImplementation(() => {
    const current = sim.requests.list().at(-1);
    if (!gate || !current || !holds(current)) return draw();
    held += 1;
    const until = gate.then(() => {
      held -= 1;
    });
    return { kind: 'hold', until };
  });
  return {
    writes,
    hold(which = isWrite) {
      holds = which;
      gate ??= new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release() {
      open?.();
      gate = undefined;
      open = undefined;
    },
    get held() {
      return held;
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * The next request the simulator handles that `matches` meets `fault`,
 * whatever other reads the poller makes meanwhile. (The simulator logs a
 * request, then draws its fault, in one synchronous step: the last logged
 * request is the current one.)
 */
export function faultOnNext(
  sim: Simulator,
  matches: (request: LoggedRequest) => boolean,
  fault: Fault,
): void {
  const draw = sim.faults.draw.bind(sim.faults);
  let armed = true;
  sim.faults.draw = () => {
    const current = sim.requests.list().at(-1);
    if (armed && current && matches(current)) {
      armed = false;
      return fault;
    }
    return draw();
  };
}

/** The next write request (not GET) the simulator handles meets `fault`. */
export function faultOnNextWrite(sim: Simulator, fault: Fault): void {
  faultOnNext(sim, (request) => request.method !== 'GET', fault);
}

/** Non-GET requests the simulator logged to this path pattern. */
export async function writesTo(tui: TestTui, pattern: RegExp) {
  return (await tui.writes()).filter((write) => pattern.test(write.path));
}

/** Every list the poller reads at start-up has arrived and nothing is loading. */
export function startupLoaded(state: AppState): boolean {
  const all = [
    state.me,
    state.today,
    state.billing,
    state.texting,
    state.inbox.open,
    state.inbox.callbacks,
    state.contacts,
    state.reviews,
    state.actions.pending_approval,
  ];
  return all.every((loaded) => loaded.updatedAt !== undefined && !loaded.loading);
}

export async function waitStartup(tui: TestTui): Promise<void> {
  await tui.waitFor((_frame, state) => startupLoaded(state));
}

/** Selects, in the inbox, the first lead of the contact with this phone (the inbox filter, as staff would). */
export async function selectLeadByPhone(tui: TestTui, phone: string): Promise<void> {
  // esc clears a filter typed before; then the phone, which only this contact's leads match.
  await tui.press('1', '/', KEYS.escape, '/', phone, KEYS.enter);
  await tui.waitFor((_frame, state) => selectedLead(state)?.caller_phone === phone);
}

/** Selects a contact in the Contacts pane by searching for its phone. */
export async function selectContactByPhone(tui: TestTui, phone: string): Promise<void> {
  await tui.press('5', '/', KEYS.escape, '/', phone, KEYS.enter);
  await tui.waitFor(
    (_frame, state) =>
      state.contacts.query === phone && !state.contacts.loading && selectedContact(state)?.phone === phone,
  );
}

/** The customer's time zone is known (looked up from their number, or found not to be placeable). */
export const recipientZoneKnown = (state: AppState, phone: string): boolean => {
  const zones = state.phoneZones[phone];
  return zones !== undefined && zones !== 'looking up';
};

/** Waits until the composer is open for this contact, on screen, with the customer's time zone looked up. */
export async function waitComposer(tui: TestTui, contactId: string): Promise<string> {
  await tui.waitFor(
    (frame, state) =>
      state.composer?.contactId === contactId &&
      recipientZoneKnown(state, state.composer.phone) &&
      frame.includes(`To ${oneLine(state.composer.name)} (`),
  );
  // The frame drawn from the zone's answer.
  await settle();
  return tui.frame();
}

/** The question before a send, whether it asks for y or for a typed word (no consent on record: send). */
export const SEND_QUESTION = /\? y\/n|\? Type (send|override), then enter/;

/** Answers yes to the send question on screen: y, or the word it asks for and enter. */
export async function confirmTheSend(tui: TestTui): Promise<void> {
  const prompt = tui.state().prompt;
  if (prompt?.kind !== 'confirm-send') throw new Error('no send question on screen');
  if (prompt.word === undefined) await tui.press('y');
  else await tui.press(prompt.word, KEYS.enter);
}

/** The text typed for a contact, as the store holds it. */
export const composedText = (tui: TestTui, contactId: string): string =>
  tui.state().composed[contactId]?.text ?? '';

/**
 * Writes each chunk to the terminal back to back, without letting Ink or
 * React run in between (as a fast typist or a slow event loop delivers keys),
 * then lets everything settle.
 */
export async function typeBackToBack(tui: TestTui, chunks: readonly string[]): Promise<void> {
  // press() writes its first chunk synchronously, before its first await:
  // starting them all before awaiting any puts every chunk on stdin at once.
  await Promise.all(chunks.map((chunk) => tui.press(chunk)));
}

/** The contact (in the simulator's world) of a seeded lead. */
export function simContactOfLead(sim: Simulator, leadId: string, shop = sim.shops.main) {
  const lead = shop.leads.find((candidate) => candidate.id === leadId);
  const contact = shop.contacts.find((candidate) => candidate.id === lead?.contactId);
  if (!lead || !contact) throw new Error(`no seeded lead ${leadId}`);
  return { lead, contact };
}

/** Outbound messages the simulator holds for a contact, across all of their leads. */
export function outboundTo(sim: Simulator, contactId: string, shop = sim.shops.main) {
  return shop.leads
    .filter((lead) => lead.contactId === contactId)
    .flatMap((lead) => lead.messages.filter((message) => message.direction === 'outbound'));
}

/** The latest consent record of a phone in the simulator: true, false, or null when there is none. */
export function simConsent(sim: Simulator, phone: string, shop = sim.shops.main): boolean | null {
  const records = shop.consents
    .filter((record) => record.phone === phone)
    .sort((a, b) => a.recordedAt - b.recordedAt);
  return records.at(-1)?.smsInitial ?? null;
}

/**
 * An open lead of the inbox (as the app has it) whose contact matches, with
 * a phone no other contact's lead shares (so a phone filter selects it).
 */
export function inboxLeadWhere(
  tui: TestTui,
  test: (contact: { id: string; name: string; phone: string }) => boolean,
) {
  const rows = tui.state().inbox.open.data?.open_leads ?? [];
  for (const row of rows) {
    const { contact } = simContactOfLead(tui.s.sim, row.id);
    if (!/^[\p{L} .'-]+$/u.test(contact.name)) continue;
    if (test(contact)) return { leadId: row.id, contact };
  }
  throw new Error('no lead in the inbox fits');
}

/** The row of the Reviews list that is unreplied and has no reply awaiting approval at the simulator (-1: none). */
export function unrepliedReviewIndex(tui: TestTui): number {
  const shop = tui.s.sim.shops.main;
  return (tui.state().reviews.data?.items ?? []).findIndex(
    (review) =>
      review.replied_at === null &&
      !shop.actions.some(
        (action) =>
          action.status === 'pending_approval' &&
          action.target.type === 'review_reply' &&
          action.target.reviewId === review.id,
      ),
  );
}

/**
 * In Reviews: selects an unreplied review with no reply awaiting approval and drafts one (d), until the
 * draft names the action that holds it (then a in Reviews applies).
 */
export async function draftWithItsAction(tui: TestTui): Promise<void> {
  await tui.waitFor((_f, state) => state.reviews.data !== undefined);
  const index = unrepliedReviewIndex(tui);
  if (index < 0) throw new Error('no unreplied review without a reply awaiting approval');
  await tui.press('g', ...Array.from({ length: index }, () => 'j'), 'd');
  await tui.waitFor(/awaits approval as action/);
}

/**
 * A seeded missed call with no reply whose caller gave consent (a plain y sends to them) and has a plain
 * name (a phone filter finds only their leads): the lead and the contact, as the simulator has them.
 */
export async function consentingCallerWaiting(s: { sim: Simulator; client(): ShopClient }) {
  const callbacks = (await s.client().getInbox({ filter: 'callbacks', limit: 100 })).open_leads;
  for (const row of callbacks) {
    const { lead, contact } = simContactOfLead(s.sim, row.id);
    if (simConsent(s.sim, contact.phone) === true && /^[\p{L} .'-]+$/u.test(contact.name))
      return { lead, contact };
  }
  throw new Error('the seed has no consenting caller waiting for a callback');
}

/**
 * A time zone where it is mid-afternoon now (a fixed offset, Etc/GMT±N), so that a send is never in
 * quiet hours whenever the suite runs, while every clock of the inbox, the simulator and the notices
 * stays the same real one.
 */
export function afternoonZone(now: number = Date.now()): string {
  const offset = ((((15 - new Date(now).getUTCHours()) % 24) + 36) % 24) - 12;
  // Etc/GMT names count the other way: Etc/GMT-3 is three hours ahead of UTC.
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
