/**
 * Two shop-inbox processes of one user, same key, confirm texts at the same
 * moment and are killed with SIGKILL at varied points of a send; then two
 * processes start again. Counted at the simulator (the texts in its world),
 * never by trusting the app: every text whose outbox write resolved reaches
 * the customer exactly once, and a text killed before its write resolved at
 * most once.
 *
 * The children are real node processes running a small script bundled with
 * esbuild (support/outbox-child.ts); the simulator runs here, so it outlives
 * them.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../scripts/bundle-options.mjs';
import { OutboxFile } from '../../src/outbox/outbox-file.js';
import { startSim, type TestSim } from '../support/sim.js';
import { until } from '../support/until.js';
import type { ChildConfig } from './support/outbox-child.js';
import { storedEntries } from './support/stored-entries.js';

const TRIALS = 24;
const LANES = 3;
/** proper-lockfile's floor: a lock left by a child killed while holding it is given up after 2 s. */
const STALE_LOCK_MS = 2_000;
/** Long enough to kill a child inside it; a killed child never sleeps it out. */
const HOLD_MS = 3_000;
const LATENCY_MS = 250;

const KILL_POINTS = ['during-write', 'after-write', 'in-flight', 'after-answer'] as const;
type KillPoint = (typeof KILL_POINTS)[number];

let workDir = '';
let childScript = '';

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'shop-inbox-outbox-trials-'));
  childScript = join(workDir, 'outbox-child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./support/outbox-child.ts', import.meta.url))],
    outfile: childScript,
    bundle: true,
    alias: BUNDLE_ALIASES,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
});

/** Every child started, so that none outlives a failed test. */
const spawned = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of spawned) child.kill('SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

interface Child {
  process: ChildProcess;
  events: Array<{ event: string; body?: string; text?: string }>;
  stderr: string;
  exited: Promise<void>;
  /** Resolves with the first event that matches. */
  next(match: (event: { event: string; body?: string }) => boolean): Promise<void>;
}

/** Starts a child; `inside` runs it through another command (`unshare … sh -c '…; exec "$@"'`). */
function startChild(config: ChildConfig, inside: string[] = []): Child {
  const [command = process.execPath, ...args] = [...inside, process.execPath, childScript];
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, OUTBOX_CHILD_CONFIG: JSON.stringify(config) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  const events: Child['events'] = [];
  const waiters: Array<{ match: (event: Child['events'][number]) => boolean; resolve: () => void }> = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const event = JSON.parse(buffered.slice(0, end)) as Child['events'][number];
      buffered = buffered.slice(end + 1);
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  // 'close', not 'exit': a child's last lines can still be in its stdout pipe when it has exited, and a
  // child that said "done" and ended must not be taken for one that died before saying it.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const handle: Child = {
    process: child,
    events,
    get stderr() {
      return stderr;
    },
    exited,
    next: (match) =>
      events.some(match)
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push({ match, resolve });
          }),
  };
  return handle;
}

/** Resolves when the child says so, or fails with what it wrote on stderr. */
async function expectEvent(child: Child, match: (event: Child['events'][number]) => boolean, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no ${what} from the child within 15 s; stderr:\n${child.stderr}`)),
      15_000,
    );
  });
  const died = child.exited.then(() => {
    if (!child.events.some(match))
      throw new Error(`the child exited before ${what}; stderr:\n${child.stderr}`);
  });
  try {
    await Promise.race([child.next(match), timeout, died]);
  } finally {
    clearTimeout(timer);
  }
}

async function kill(child: Child) {
  child.process.kill('SIGKILL');
  await child.exited;
}

/** Kills the child at its point of the send; returns once it is dead. */
async function killAt(
  t: TestSim,
  child: Child,
  point: KillPoint,
  texts: ChildConfig['texts'],
  textIndex: number,
) {
  const body = texts[textIndex]?.body;
  switch (point) {
    case 'during-write':
      // Right after it starts to confirm: its outbox write may or may not have finished.
      await expectEvent(child, (e) => e.event === 'confirming' && e.body === body, 'confirming');
      return kill(child);
    case 'after-write':
      // Its write resolved; the request waits behind the hold.
      await expectEvent(child, (e) => e.event === 'confirmed', 'confirmed');
      return kill(child);
    case 'in-flight': {
      // The simulator holds the request (latency) before answering.
      const path = `/v1/contacts/${texts[textIndex]?.contactId}/messages`;
      await until(
        () =>
          t.sim.requests.list().some((r) => r.method === 'POST' && r.path === path && r.status === 0)
            ? true
            : undefined,
        15_000,
      );
      return kill(child);
    }
    case 'after-answer':
      // The service answered; the outbox rewrite that forgets the text waits behind the hold.
      await expectEvent(child, (e) => e.event === 'answered', 'answered');
      return kill(child);
  }
}

/** One trial: two processes confirm, are killed at their points, two start again; then count. */
async function runTrial(trial: number) {
  const t = await startSim({ rateLimitPerMinute: 100_000 });
  const stateHome = await mkdtemp(join(workDir, 'state-'));
  const shop = t.sim.shops.main;
  const points: KillPoint[] = [
    KILL_POINTS[trial % 4] as KillPoint,
    KILL_POINTS[(trial + 1 + Math.floor(trial / 4)) % 4] as KillPoint,
  ];
  if (points.includes('in-flight')) t.sim.faults.setRates({ latencyMs: LATENCY_MS });

  const children = points.map((point, c) => {
    const texts = [0, 1].map((k) => {
      const contact = shop.contacts[(trial * 4 + c * 2 + k) % shop.contacts.length];
      if (!contact) throw new Error('no contact');
      return {
        contactId: contact.id,
        name: contact.name,
        phone: contact.phone,
        body: `trial ${trial} process ${c} text ${k}`,
      };
    });
    const config: ChildConfig = {
      mode: 'confirm',
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.write,
      stateHome,
      staleLockMs: STALE_LOCK_MS,
      texts,
      ...(point === 'after-write' ? { holdAfterWriteMs: HOLD_MS } : {}),
      ...(point === 'after-answer' ? { holdBeforeRewriteMs: HOLD_MS } : {}),
    };
    return { point, texts, textIndex: (trial + c) % 2, child: startChild(config) };
  });
  await Promise.all(children.map(({ child }) => expectEvent(child, (e) => e.event === 'ready', 'ready')));
  // Both confirm at the same moment.
  for (const { child } of children) child.process.stdin?.write('go\n');
  await Promise.all(
    children.map(({ child, point, texts, textIndex }) => killAt(t, child, point, texts, textIndex)),
  );
  t.sim.faults.setRates({ latencyMs: 0 });

  // Both start again: whichever takes a dead process's text sends it.
  const restarted = [0, 1].map(() =>
    startChild({
      mode: 'resume',
      baseUrl: t.baseUrl,
      apiKey: t.sim.tokens.write,
      stateHome,
      staleLockMs: STALE_LOCK_MS,
      texts: [],
    }),
  );
  await Promise.all(restarted.map((child) => expectEvent(child, (e) => e.event === 'done', 'done')));
  await Promise.all(restarted.map((child) => child.exited));
  // A request of a killed process may still be inside the simulator's latency: let it land.
  await until(() => (t.sim.requests.list().every((r) => r.status !== 0) ? true : undefined), 5_000);

  const delivered = (body: string) =>
    shop.leads.flatMap((lead) => lead.messages).filter((m) => m.direction === 'outbound' && m.body === body)
      .length;
  for (const { child, point, texts } of children) {
    for (const { body } of texts) {
      const confirmed = child.events.some((e) => e.event === 'confirmed' && e.body === body);
      const outcome = { trial, point, body, confirmed, delivered: delivered(body) };
      if (confirmed) expect(outcome).toEqual({ ...outcome, delivered: 1 });
      else expect(outcome.delivered).toBeLessThanOrEqual(1);
    }
  }
  // Nothing is left waiting: every text on disk was sent and forgotten.
  const file = OutboxFile.forKey({ XDG_STATE_HOME: stateHome }, t.baseUrl, t.sim.tokens.write);
  expect({ trial, texts: await storedEntries(file.path) }).toEqual({ trial, texts: [] });
  await t.sim.close();
}

describe('two processes of one user killed at any point of a send', () => {
  it(`never lose a confirmed text and never send one twice (${TRIALS} trials)`, async () => {
    // Trials run a few at a time: most of a trial is waiting (a lock left by a killed process goes stale after 2 s).
    const lanes = Array.from({ length: LANES }, (_unused, lane) => lane);
    let failed = false;
    await Promise.all(
      lanes.map(async (lane) => {
        for (let trial = lane; trial < TRIALS && !failed; trial += LANES) {
          await runTrial(trial).catch((error: unknown) => {
            failed = true;
            throw error;
          });
        }
      }),
    );
  }, 240_000);
});

describe('a process frozen while it holds the outbox lock', () => {
  it('does not write over what another process added once its lock went stale (SIGSTOP, then SIGCONT)', async () => {
    const t = await startSim({ rateLimitPerMinute: 100_000 });
    const stateHome = await mkdtemp(join(workDir, 'frozen-'));
    const shop = t.sim.shops.main;
    const textFor = (index: number, body: string) => {
      const contact = shop.contacts[index];
      if (!contact) throw new Error('no contact');
      return { contactId: contact.id, name: contact.name, phone: contact.phone, body };
    };
    const base = { mode: 'confirm', baseUrl: t.baseUrl, apiKey: t.sim.tokens.write, stateHome } as const;
    // Both hold once their record is written, so that the file can be read before anything is sent.
    const frozen = startChild({
      ...base,
      staleLockMs: STALE_LOCK_MS,
      texts: [textFor(0, 'Written by the frozen one')],
      holdInsideFirstWriteMs: 1_000,
      holdAfterWriteMs: 60_000,
    });
    const other = startChild({
      ...base,
      staleLockMs: STALE_LOCK_MS,
      texts: [textFor(1, 'Written while it was frozen')],
      holdAfterWriteMs: 60_000,
    });
    try {
      await Promise.all(
        [frozen, other].map((child) => expectEvent(child, (e) => e.event === 'ready', 'ready')),
      );
      frozen.process.stdin?.write('go\n');
      // It read the file and holds the lock, about to write: frozen there, as by a stalled terminal.
      await expectEvent(frozen, (e) => e.event === 'holding', 'holding');
      frozen.process.kill('SIGSTOP');
      // The other waits until the frozen one's lock is stale, takes it, and writes its own text.
      other.process.stdin?.write('go\n');
      await expectEvent(other, (e) => e.event === 'confirmed', 'confirmed');
      frozen.process.kill('SIGCONT');
      await expectEvent(frozen, (e) => e.event === 'confirmed', 'confirmed');

      const file = OutboxFile.forKey({ XDG_STATE_HOME: stateHome }, t.baseUrl, t.sim.tokens.write);
      expect((await storedEntries(file.path)).map((entry) => entry.body).sort()).toEqual([
        'Written by the frozen one',
        'Written while it was frozen',
      ]);
      await Promise.all([kill(frozen), kill(other)]);

      // The next process sends both: one text per confirmation, at the simulator.
      const next = startChild({ ...base, mode: 'resume', staleLockMs: STALE_LOCK_MS, texts: [] });
      await expectEvent(next, (e) => e.event === 'done', 'done');
      await next.exited;
      const delivered = (body: string) =>
        shop.leads
          .flatMap((lead) => lead.messages)
          .filter((m) => m.direction === 'outbound' && m.body === body).length;
      expect([delivered('Written by the frozen one'), delivered('Written while it was frozen')]).toEqual([
        1, 1,
      ]);
      expect(await storedEntries(file.path)).toEqual([]);
    } finally {
      frozen.process.kill('SIGCONT');
      await t.sim.close();
    }
  }, 30_000);
});

describe('a read-only disk under the outbox (a real one: a tmpfs remounted read-only in a private namespace)', () => {
  const mountable = (() => {
    try {
      execFileSync('unshare', ['-r', '-m', 'sh', '-c', 'mount -t tmpfs tmpfs /tmp'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!mountable)('y sends nothing and says the directory is read-only', async () => {
    const t = await startSim({ rateLimitPerMinute: 100_000 });
    const stateHome = await mkdtemp(join(workDir, 'read-only-'));
    const dir = join(stateHome, 'shop-inbox');
    await mkdir(dir, { mode: 0o700 });
    const contact = t.sim.shops.main.contacts[0];
    if (!contact) throw new Error('no contact');
    const readOnly = [
      'unshare',
      '-r',
      '-m',
      'sh',
      '-c',
      'mount -t tmpfs -o mode=0700 tmpfs "$0" && mount -o remount,ro "$0" && exec "$@"',
      dir,
    ];
    const child = startChild(
      {
        mode: 'confirm',
        baseUrl: t.baseUrl,
        apiKey: t.sim.tokens.write,
        stateHome,
        staleLockMs: STALE_LOCK_MS,
        texts: [
          { contactId: contact.id, name: contact.name, phone: contact.phone, body: 'On a read-only disk' },
        ],
      },
      readOnly,
    );
    try {
      await expectEvent(child, (e) => e.event === 'ready', 'ready');
      child.process.stdin?.write('go\n');
      await expectEvent(
        child,
        (e) => e.event === 'notice' && /^Not sent to /.test(e.text ?? ''),
        'the notice',
      );
      expect(child.events.find((e) => e.event === 'notice')?.text).toBe(
        `Not sent to ${contact.name} (${contact.phone}): a text is sent only once it is saved in the outbox, and ${dir} is read-only (on a file system mounted read-only). The text is back in the composer.`,
      );
      expect(t.sim.requests.list().filter((r) => r.method === 'POST')).toEqual([]);
    } finally {
      await kill(child);
      await t.sim.close();
    }
  });
});
