/**
 * The send flow's outcomes, as values, with a real session against the
 * simulator over a real socket: the question, the thread read again, and
 * what became of the text (sent, replayed, parked for retry with its key,
 * refused by the shop, not recorded), the question asked again when the
 * thread cannot be read, and nothing sent when the question was closed while
 * the thread was read. Each outcome is shown by the shell's own renderer
 * (shell/send-outcome-view.ts), which is what puts the question in the store.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { storeData } from '../../src/poller/store-writes.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { showSendStep } from '../../src/shell/send-outcome-view.js';
import type { TokenName } from '../../src/sim/world.js';
import type { ComposerTarget } from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';
import { withSeenTexts } from '../../src/user-actions/pre-send-facts.js';
import { createSendFlow } from '../../src/user-actions/send-flow.js';
import type { SendOutcome } from '../../src/user-actions/send-outcome.js';
import { startSim, type TestSim } from '../support/sim.js';

/** Noon UTC, the shop's zone UTC: no quiet hours for a customer whose zone is the shop's. */
const NOON_UTC = Date.parse('2026-11-21T12:00:00Z');
const quiet = {
  visibleMs: 60_000,
  headerMs: 60_000,
  backgroundMs: 60_000,
  rareMs: 60_000,
  burstMs: 60_000,
  pacedMs: 60_000,
};

const sessions: Session[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) {
    session.close();
    await session.sender.saved();
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Setup {
  token?: TokenName;
  shop?: 'main' | 'noNumber';
  /** The outbox file's state directory (default: none, as in the demo). */
  env?: NodeJS.ProcessEnv;
}

/** A session, the flow over it, and the composer open on a contact whose lead was read, with `body` typed. */
async function composing(t: TestSim, body: string, setup: Setup = {}) {
  const token = setup.token ?? 'write';
  const session = createSession({
    baseUrl: t.baseUrl,
    apiKey: t.sim.tokens[token],
    client: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 } },
    intervals: quiet,
    timeZone: 'UTC',
    machineTimeZone: 'UTC',
    ...(setup.env ? { outbox: (key: string) => OutboxFile.forKey(setup.env ?? {}, t.baseUrl, key) } : {}),
  });
  sessions.push(session);
  const { store } = session;
  const flow = createSendFlow({
    store,
    client: session.client,
    now: () => NOON_UTC,
    deliver: (target, text) => session.sender.deliver(target, text),
  });
  const shop = t.sim.shops[setup.shop ?? 'main'];
  // A consenting contact (a plain y), so that every outcome here follows a plain y.
  const lead = shop.leads.find((candidate) => {
    const contact = shop.contacts.find((c) => c.id === candidate.contactId);
    const consent = shop.consents.filter((record) => record.phone === contact?.phone).at(-1);
    return consent?.smsInitial === true;
  });
  const contact = shop.contacts.find((c) => c.id === lead?.contactId);
  if (!lead || !contact) throw new Error('the seed has no consenting contact with a lead');
  const detail = await session.client.getLead(lead.id, { limit: 100 });
  storeData(store, { kind: 'lead', id: lead.id }, detail, NOON_UTC);
  const target: ComposerTarget = withSeenTexts(store.getState(), {
    contactId: contact.id,
    name: contact.name,
    phone: contact.phone,
    leadId: lead.id,
  });
  store.setState({ composer: target, composed: { [contact.id]: lineOf(body) } });
  const show = (outcome: SendOutcome) =>
    showSendStep(outcome, undefined, {
      store,
      notify: (text, tone = 'info') => store.setState({ notice: { text, tone, at: NOON_UTC } }),
      askedIn: () => {},
    });
  const outbound = () =>
    shop.leads
      .filter((l) => l.contactId === contact.id)
      .flatMap((l) => l.messages)
      .filter((m) => m.direction === 'outbound' && m.body === body).length;
  return { session, store, flow, show, lead, contact, outbound };
}

const posts = async (t: TestSim) => (await t.requests()).filter((request) => request.method === 'POST');

/** Asks, answers y, and returns what reading the thread again led to. */
async function askAndConfirm(flow: ReturnType<typeof createSendFlow>, show: (outcome: SendOutcome) => void) {
  const asked = flow.ask();
  expect(asked.kind).toBe('asked');
  show(asked);
  const checking = flow.answer(true);
  if (checking.kind !== 'checking') throw new Error(`expected the thread read again, got ${checking.kind}`);
  show(checking);
  return checking.result;
}

/** Every POST to the simulator meets `fault` until the returned function is called. */
function failPosts(t: TestSim, status: 503): () => void {
  const draw = t.sim.faults.draw.bind(t.sim.faults);
  let failing = true;
  t.sim.faults.draw = () => {
    const current = t.sim.requests.list().at(-1);
    if (failing && current?.method === 'POST') return { kind: 'status', status };
    return draw();
  };
  return () => {
    failing = false;
  };
}

describe('the send flow, step by step', () => {
  it('asked → checking → sending (checked) → sent: one POST, the exact text, to the contact asked about', async () => {
    const t = await startSim();
    const { flow, show, contact, outbound } = await composing(t, 'See you at 3');
    const afterReread = await askAndConfirm(flow, show);
    if (afterReread.kind !== 'sending') throw new Error(`expected sending, got ${afterReread.kind}`);
    expect(afterReread).toMatchObject({ checked: true, target: { contactId: contact.id } });
    const delivery = await afterReread.result;
    expect(delivery).toMatchObject({ kind: 'sent', text: { contactId: contact.id, body: 'See you at 3' } });
    expect(await posts(t)).toHaveLength(1);
    expect(outbound()).toBe(1);
  });

  it('an answer lost after the text went out: replayed with the same key, one text at the simulator', async () => {
    const t = await startSim();
    const { flow, show, outbound } = await composing(t, 'Your part arrived');
    const draw = t.sim.faults.draw.bind(t.sim.faults);
    let dropped = false;
    t.sim.faults.draw = () => {
      const current = t.sim.requests.list().at(-1);
      if (!dropped && current?.method === 'POST') {
        dropped = true;
        return { kind: 'drop_response' };
      }
      return draw();
    };
    const afterReread = await askAndConfirm(flow, show);
    if (afterReread.kind !== 'sending') throw new Error(`expected sending, got ${afterReread.kind}`);
    expect(await afterReread.result).toMatchObject({ kind: 'replayed' });
    const keys = (await posts(t)).map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(outbound()).toBe(1);
  });

  it('no answer at all: parked, waiting with its key for a retry, nothing sent', async () => {
    const t = await startSim();
    const { flow, show, store, outbound } = await composing(t, 'Running late');
    failPosts(t, 503);
    const afterReread = await askAndConfirm(flow, show);
    if (afterReread.kind !== 'sending') throw new Error(`expected sending, got ${afterReread.kind}`);
    const delivery = await afterReread.result;
    expect(delivery).toMatchObject({ kind: 'parked', reason: expect.stringMatching(/HTTP 503/) });
    if (delivery.kind !== 'parked') return;
    expect(delivery.retryAt).toBeGreaterThan(0);
    const waiting = store.getState().outbox.find((text) => text.localId === delivery.text.localId);
    expect(waiting).toMatchObject({ state: 'waiting', idempotencyKey: delivery.text.idempotencyKey });
    expect(outbound()).toBe(0);
  });

  it('the shop refuses the text (no texting number): refused, with the reason', async () => {
    const t = await startSim();
    const { flow, show, outbound } = await composing(t, 'Hello', { token: 'no_number', shop: 'noNumber' });
    const afterReread = await askAndConfirm(flow, show);
    if (afterReread.kind !== 'sending') throw new Error(`expected sending, got ${afterReread.kind}`);
    expect(await afterReread.result).toMatchObject({
      kind: 'refused',
      reason: { kind: 'shop', why: expect.stringMatching(/no texting number/) },
    });
    expect(outbound()).toBe(0);
  });

  it('the outbox cannot be written: refused as not recorded, and nothing reaches the shop', async () => {
    const t = await startSim();
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-flow-'));
    dirs.push(dir);
    const env = { XDG_STATE_HOME: dir };
    await mkdir(OutboxFile.forKey(env, t.baseUrl, t.sim.tokens.write).path, { recursive: true });
    const { flow, show, outbound } = await composing(t, 'On our way', { env });
    const afterReread = await askAndConfirm(flow, show);
    if (afterReread.kind !== 'sending') throw new Error(`expected sending, got ${afterReread.kind}`);
    expect(await afterReread.result).toMatchObject({
      kind: 'refused',
      reason: { kind: 'not-recorded', why: expect.stringMatching(/is a directory, not a file/) },
    });
    expect(await posts(t)).toEqual([]);
    expect(outbound()).toBe(0);
  });

  it('the thread cannot be read again: asked again with why; no POST until the next yes, exactly one after', async () => {
    const t = await startSim();
    const { flow, show, store, lead, outbound } = await composing(t, 'See you at 3');
    const draw = t.sim.faults.draw.bind(t.sim.faults);
    t.sim.faults.draw = () => {
      const current = t.sim.requests.list().at(-1);
      if (current?.method === 'GET' && current.path === `/v1/leads/${lead.id}`)
        return { kind: 'status', status: 503 };
      return draw();
    };
    const afterReread = await askAndConfirm(flow, show);
    expect(afterReread).toMatchObject({
      kind: 'ask-again',
      because: { kind: 'reread-failed', why: "the shop's API had a problem (HTTP 503)." },
      prompt: { body: 'See you at 3', rereadFailed: "the shop's API had a problem (HTTP 503)." },
    });
    show(afterReread);
    expect(store.getState().prompt).toMatchObject({ kind: 'confirm-send', rereadFailed: expect.any(String) });
    expect(await posts(t)).toEqual([]);

    const sending = flow.answer(true);
    if (sending.kind !== 'sending') throw new Error(`expected sending, got ${sending.kind}`);
    expect(sending.checked).toBe(false);
    expect(await sending.result).toMatchObject({ kind: 'sent' });
    expect(await posts(t)).toHaveLength(1);
    expect(outbound()).toBe(1);
  });

  it('the question closed while the thread is read (esc): withdrawn, nothing sent', async () => {
    const t = await startSim();
    const { flow, show, store, outbound } = await composing(t, 'Never mind');
    const asked = flow.ask();
    show(asked);
    const checking = flow.answer(true);
    if (checking.kind !== 'checking') throw new Error(`expected checking, got ${checking.kind}`);
    show(checking);
    store.setState({ prompt: undefined });
    expect(await checking.result).toEqual({ kind: 'withdrawn' });
    expect(await posts(t)).toEqual([]);
    expect(outbound()).toBe(0);
  });
});
