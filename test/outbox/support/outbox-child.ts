/**
 * One shop-inbox process for the multi-process outbox trials, bundled by the
 * test with esbuild and run with node. It uses the real session, sender and
 * outbox file against the simulator the test runs, and says on stdout (one
 * JSON object a line) what happened, so the test can kill it with SIGKILL at
 * a chosen point of a send:
 *
 * - {"event":"ready"}: started (in "confirm" mode, it now waits for "go" on stdin)
 * - {"event":"confirming","body"}: about to confirm a text (its outbox write starts)
 * - {"event":"confirmed","body"}: the outbox write that holds the text resolved
 * - {"event":"answered","body"}: the service answered the send (the outbox forgets it next)
 * - {"event":"notice","text","tone"}: the status line says something new
 * - {"event":"holding"}: inside its first outbox write, under the lock, after reading the file and before
 *   writing it (only with holdInsideFirstWriteMs: the test stops the process there with SIGSTOP)
 * - {"event":"done"}: "resume" mode: every text taken over is finished and the outbox saved
 *
 * Holds (setTimeout, only where the test asks for one) keep the process
 * between two steps long enough to be killed there: after a text's write
 * resolved and before its request, after an answer and before the outbox
 * is rewritten, or inside the first write while it holds the lock (the
 * temporary file's creation waits). The session itself is not changed.
 */
import { OutboxFile, type OutboxPersistence } from '../../../src/outbox/outbox-file.js';
import { createSession } from '../../../src/session/create-session.js';
import type { OutgoingText } from '../../../src/store/app-store.js';
import { faultyDisk } from './disk-faults.js';

export interface ChildConfig {
  mode: 'confirm' | 'resume';
  baseUrl: string;
  apiKey: string;
  stateHome: string;
  staleLockMs: number;
  texts: Array<{ contactId: string; name: string; phone: string; body: string }>;
  holdAfterWriteMs?: number;
  holdBeforeRewriteMs?: number;
  holdInsideFirstWriteMs?: number;
}

const config = JSON.parse(process.env.OUTBOX_CHILD_CONFIG ?? '{}') as ChildConfig;
const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const disk = faultyDisk();
if (config.holdInsideFirstWriteMs) {
  const held = disk.hold('create');
  void held.reached.then(() => {
    say({ event: 'holding' });
    setTimeout(held.release, config.holdInsideFirstWriteMs);
  });
}
const file = OutboxFile.forKey({ XDG_STATE_HOME: config.stateHome }, config.baseUrl, config.apiKey, {
  staleLockMs: config.staleLockMs,
  fs: disk.fs,
});
/** Texts known to be on disk. */
const written = new Set<string>();
const persistence: OutboxPersistence = {
  async load() {
    const texts = await file.load();
    for (const text of texts) written.add(text.localId);
    return texts;
  },
  keptForOtherKeys: () => file.keptForOtherKeys(),
  release: () => file.release(),
  async save(pending: readonly OutgoingText[]) {
    const forgetting = [...written].some((id) => !pending.some((text) => text.localId === id));
    if (forgetting && config.holdBeforeRewriteMs) await sleep(config.holdBeforeRewriteMs);
    await file.save(pending);
    const fresh = pending.filter((text) => !written.has(text.localId));
    for (const text of fresh) {
      written.add(text.localId);
      say({ event: 'confirmed', body: text.body });
    }
    if (fresh.length > 0 && config.holdAfterWriteMs) await sleep(config.holdAfterWriteMs);
  },
};

const session = createSession({
  baseUrl: config.baseUrl,
  apiKey: config.apiKey,
  maxRpm: 120,
  outbox: () => persistence,
  client: { retry: { baseDelayMs: 10, maxDelayMs: 50 } },
});
const answered = new Set<string>();
session.store.subscribe((state, previous) => {
  if (state.notice && state.notice !== previous.notice) {
    say({ event: 'notice', text: state.notice.text, tone: state.notice.tone });
  }
  for (const text of state.outbox) {
    if ((text.state === 'sent' || text.state === 'replayed') && !answered.has(text.localId)) {
      answered.add(text.localId);
      say({ event: 'answered', body: text.body, state: text.state });
    }
  }
});

const unfinished = () =>
  session.store.getState().outbox.some((text) => text.state === 'sending' || text.state === 'waiting');

if (config.mode === 'resume') {
  await session.sender.resume();
  while (unfinished()) await sleep(10);
  await session.sender.saved();
  say({ event: 'done' });
  session.close();
} else {
  // Alive until killed.
  setInterval(() => {}, 60_000);
  process.stdin.setEncoding('utf8');
  process.stdin.once('data', () => {
    for (const text of config.texts) {
      say({ event: 'confirming', body: text.body });
      session.sender.confirm({ contactId: text.contactId, name: text.name, phone: text.phone }, text.body);
    }
  });
  say({ event: 'ready' });
}
