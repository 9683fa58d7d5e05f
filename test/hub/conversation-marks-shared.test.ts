/**
 * Read and done are shared by the terminals of one user on a shop through
 * their hub (a `marks` line each way), kept in a private file of the state
 * directory that outlives the terminals, and an unreadable file is said, not
 * fatal. Real sessions, the real socket, the real simulator and files.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationMarksFile } from '../../src/config/conversation-marks-file.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { shareSession } from '../../src/session/share-session.js';
import { markDone, markRead } from '../../src/store/conversation-marks.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';

const sessions: Session[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  // A terminal closed just now may still be writing its marks: the removal is retried.
  await Promise.all(
    dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })),
  );
});

async function userPlace() {
  const dir = await mkdtemp(join(tmpdir(), 'marks-'));
  dirs.push(dir);
  return {
    env: { XDG_RUNTIME_DIR: join(dir, 'run'), XDG_STATE_HOME: join(dir, 'state'), HOME: dir },
    hubRoot: join(dir, 'tmp'),
  };
}

async function terminal(test: TestSim, place: Awaited<ReturnType<typeof userPlace>>, share = true) {
  const session = createSession({
    baseUrl: test.baseUrl,
    apiKey: test.sim.tokens.write,
    visibleSlots: () => [{ kind: 'inbox', filter: 'open' }],
    intervals: {
      visibleMs: 60_000,
      headerMs: 60_000,
      backgroundMs: 60_000,
      rareMs: 300_000,
      burstMs: 60_000,
      pacedMs: 60_000,
    },
    conversationMarks: (apiKey, baseUrl) => ConversationMarksFile.forKey(place.env, baseUrl, apiKey),
  });
  sessions.push(session);
  let role: string | undefined;
  if (share) {
    const sharer = shareSession(session, {
      env: place.env,
      hubRoot: place.hubRoot,
      baseUrl: test.baseUrl,
      apiKey: test.sim.tokens.write,
    });
    role = (await sharer.ready).role;
  }
  session.start();
  return { session, role };
}

const marksOf = (session: Session) => session.store.getState().conversations;

/** The file's text once it holds every one of these words. */
async function fileHolding(path: string, words: readonly string[], timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (words.every((word) => text.includes(word))) return text;
    if (Date.now() > deadline) throw new Error(`${path} never held ${words.join(', ')}: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('read and done, shared and kept', () => {
  it("one terminal's done and another's read reach each other through the hub, and outlive both in a 0600 file", async () => {
    const test = await startSim();
    const place = await userPlace();
    const a = await terminal(test, place);
    const b = await terminal(test, place);
    expect([a.role, b.role].sort()).toEqual(['client', 'hub']);

    // Done in one (whichever is the hub), seen in the other.
    a.session.store.setState((state) => ({ conversations: markDone(state.conversations, 'lead_x', 1_000) }));
    await until(() => (marksOf(b.session).leads.lead_x?.done === 1_000 ? true : undefined), 5_000);
    // Read in the other, seen in the first: both directions of the link.
    b.session.store.setState((state) => ({ conversations: markRead(state.conversations, 'lead_y', 2_000) }));
    await until(() => (marksOf(a.session).leads.lead_y?.read === 2_000 ? true : undefined), 5_000);

    // Kept in the state directory, private, merged from both.
    const file = ConversationMarksFile.forKey(place.env, test.baseUrl, test.sim.tokens.write);
    const text = await fileHolding(file.path, ['lead_x', 'lead_y']);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    expect(text).not.toContain(test.sim.tokens.write);

    for (const session of sessions.splice(0)) session.close();
    // A terminal started later, alone: the marks are there.
    const c = await terminal(test, place, false);
    await until(() => (marksOf(c.session).leads.lead_x?.done === 1_000 ? true : undefined), 5_000);
    expect(marksOf(c.session).leads.lead_y?.read).toBe(2_000);
  }, 20_000);

  it('a file that cannot be read is said, and the inbox goes on without it (and keeps new marks)', async () => {
    const test = await startSim();
    const place = await userPlace();
    const file = ConversationMarksFile.forKey(place.env, test.baseUrl, test.sim.tokens.write);
    await mkdir(dirname(file.path), { recursive: true, mode: 0o700 });
    await writeFile(file.path, '{"version":1, not json', { mode: 0o600 });
    const { session } = await terminal(test, place, false);
    await until(() =>
      session.store.getState().notice?.text.startsWith('Read and done:') ? true : undefined,
    );
    expect(session.store.getState().notice?.text).toBe(
      `Read and done: read and done marks were not read from ${file.path} (it is not valid JSON): starting without them.`,
    );
    expect(session.store.getState().notice?.tone).toBe('warning');
    session.store.setState((state) => ({ conversations: markDone(state.conversations, 'lead_z', 5) }));
    await until(
      async () => ((await readFile(file.path, 'utf8')).includes('lead_z') ? true : undefined),
      5_000,
    );
  });
});
