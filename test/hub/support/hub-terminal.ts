/**
 * One headless inbox terminal, for the multi-process hub tests and the hub
 * bench: the real session (client, budget, poller, outbox file, sender) and
 * the real hub code, without a screen. It says what it sees as JSON lines on
 * stdout and takes commands as JSON lines on stdin. The key comes from
 * SHOP_API_KEY, as the inbox takes it; the XDG directories from its
 * environment.
 *
 * Bundled with esbuild and run by node, like test/outbox/support/outbox-child.ts.
 */
import { createInterface } from 'node:readline';
import { OutboxFile } from '../../../src/outbox/outbox-file.js';
import type { Slot } from '../../../src/poller/reads.js';
import { createSession } from '../../../src/session/create-session.js';
import { shareSession } from '../../../src/session/share-session.js';
import { pictureCoverage } from '../../../src/store/conversation-picture.js';
import { previewSender, previewsShown } from '../../../src/store/inbound-match.js';
import { waitingConversations } from '../../../src/store/waiting.js';

export interface TerminalConfig {
  baseUrl: string;
  /** What the screen shows: the open inbox, and the first lead's thread beside it (as at 120 columns). */
  wide?: boolean;
  intervals?: { visibleMs?: number; headerMs?: number; backgroundMs?: number; rareMs?: number };
  maxRpm?: number;
  staleLockMs?: number;
  sendRetryMs?: number;
  /** Poll on its own, as every inbox did before the hub (the bench's baseline). */
  noHub?: boolean;
  /** Where the per-user hub directory is made instead of /tmp (hostile directories; the bench's several users). */
  hubRoot?: string;
  /** The hub's heartbeat, and how long a client waits for a silent hub (seconds in tests, not the defaults). */
  hubTiming?: { beatMs?: number; silenceMs?: number; takeoverMs?: number };
  /**
   * Stop this process (SIGSTOP to itself) the moment its budget grants its first request, before that request
   * is written (its connection not yet made): the window between the two, made certain instead of left to the
   * scheduler of a loaded machine.
   */
  stopAtFirstGrant?: boolean;
}

const config = JSON.parse(process.env.HUB_TERMINAL_CONFIG ?? '{}') as TerminalConfig;
const apiKey = process.env.SHOP_API_KEY ?? '';
const say = (event: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ ...event, t: Date.now() })}\n`);

const session = createSession({
  baseUrl: config.baseUrl,
  apiKey,
  ...(config.maxRpm ? { maxRpm: config.maxRpm } : {}),
  ...(config.intervals ? { intervals: config.intervals } : {}),
  visibleSlots: (state) => {
    const slots: Slot[] = [{ kind: 'inbox', filter: 'open' }];
    const first = state.inbox.open.data?.open_leads[0];
    if (config.wide && first) slots.push({ kind: 'lead', id: first.id });
    return slots;
  },
  outbox: (key) =>
    OutboxFile.forKey(process.env, config.baseUrl, key, { staleLockMs: config.staleLockMs ?? 2_000 }),
  outboxSweepMs: 60_000,
  sendRetry: { baseMs: config.sendRetryMs ?? 500, maxMs: 2_000 },
  // The simulator logs it: a test tells which terminal made a request.
  client: { userAgent: `hub-terminal/${process.pid}` },
});

if (config.stopAtFirstGrant) {
  const unsubscribe = session.budget.subscribe(() => {
    if (session.budget.usedInLastMinute === 0) return;
    unsubscribe();
    say({ e: 'stopping' });
    process.kill(process.pid, 'SIGSTOP');
  });
}

let lastInbound = '';
let lastPicture = '';
let lastPresence = '';
let lastRole = '';
let lastNotice: unknown;
const reportedSent = new Set<string>();
session.store.subscribe((state) => {
  const inbound =
    state.inbox.open.data?.latest_inbound.map((m) => `${m.occurred_at}|${m.body_preview}`) ?? [];
  const key = inbound.join('\n');
  if (key !== lastInbound) {
    lastInbound = key;
    say({ e: 'inbound', bodies: inbound.map((line) => line.split('|')[1]) });
  }
  // What the screen would say of who texted and who waits: each shown text's sender, the waiting list.
  const named = previewsShown(state).map((preview) => {
    const sender = previewSender(state, preview);
    const lead = sender.kind === 'matched' ? sender.lead.lead.id : sender.kind;
    return { at: preview.occurred_at, body: preview.body_preview, lead };
  });
  const picture = JSON.stringify({
    named,
    waiting: waitingConversations(state).map((waiting) => waiting.lead.id),
    ...pictureCoverage(state),
  });
  if (picture !== lastPicture) {
    lastPicture = picture;
    say({ e: 'picture', ...JSON.parse(picture) });
  }
  const presence = JSON.stringify(state.presence);
  if (presence !== lastPresence) {
    lastPresence = presence;
    say({ e: 'presence', ...state.presence });
  }
  const role = JSON.stringify(state.sharing ?? null);
  if (role !== lastRole) {
    lastRole = role;
    say({ e: 'sharing', ...(state.sharing ?? {}) });
  }
  if (state.notice !== lastNotice) {
    lastNotice = state.notice;
    if (state.notice) say({ e: 'notice', text: state.notice.text });
  }
  for (const text of state.outbox) {
    if ((text.state === 'sent' || text.state === 'replayed') && !reportedSent.has(text.localId)) {
      reportedSent.add(text.localId);
      say({ e: 'sent', body: text.body, state: text.state });
    }
  }
});

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  const command = JSON.parse(line) as { c: string; contactId?: string; body?: string };
  if (command.c === 'send' && command.contactId && command.body) {
    session.sender.confirm(
      { contactId: command.contactId, name: 'Customer', phone: '+15550000000' },
      command.body,
    );
    // The outbox write is done: from now on the text must reach the customer exactly once.
    void session.sender.saved().then(() => say({ e: 'confirmed', body: command.body }));
  } else if (command.c === 'compose') {
    session.store.setState({
      composer: command.contactId
        ? { contactId: command.contactId, name: 'Customer', phone: '+15550000000' }
        : undefined,
    });
  } else if (command.c === 'quit') {
    session.close();
    process.exit(0);
  }
});

if (config.noHub) {
  session.start();
  say({ e: 'sharing', role: 'alone', why: 'no hub (baseline)' });
} else {
  const sharer = shareSession(session, {
    env: process.env,
    baseUrl: config.baseUrl,
    apiKey,
    ...(config.hubRoot ? { hubRoot: config.hubRoot } : {}),
    ...config.hubTiming,
  });
  void sharer.ready.then(() => {
    session.start();
    say({ e: 'started' });
  });
}
process.on('SIGTERM', () => {
  session.close();
  process.exit(0);
});
