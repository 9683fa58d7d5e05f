/**
 * What the key may do, known before anyone types: the session asks the shop
 * at start (client.probeKeyMode: a write that changes nothing), again every
 * few minutes and on R, and learns from every write's answer too (a refusal
 * with read_only, a write carried out). A read-only key puts the process in
 * read-only mode (readOnlyReason 'server'): the header says [READ-ONLY] and
 * c, d, a say why they cannot be used. When the key is switched to write
 * mode in the shop's settings, the next answer lifts it.
 *
 * Each answer is remembered per API and key (src/config/key-mode-file.ts):
 * the next start shows it on its first frame, then asks again; the other
 * terminals of the key see it at once. A terminal that reads through its
 * box's hub does not ask at start when the answer is fresh (the hub, or
 * whichever terminal's turn comes first, asks every few minutes and writes
 * the file), and every terminal skips its turn when another has just asked.
 *
 * An answer that says nothing (see key-mode-probe.ts) changes nothing: the
 * last clear answer stands, or the mode stays unknown and nothing is blocked.
 * Newer answers win over older ones, whichever terminal had them.
 */
import type { HttpShopClient } from '../api/client.js';
import type { KeyModeMemory, RememberedKeyMode } from '../config/key-mode-file.js';
import { type AppStore, KEY_MODE_NOT_ASKED } from '../store/app-store.js';
import { enterReadOnly, type KeyModeWitness } from '../user-actions/context.js';

export interface KeyModeOptions {
  /** Where answers are remembered for the key (none: this process only, as in the demo). */
  memory?: (apiKey: string) => KeyModeMemory;
  /** How often the shop is asked again. Default 5 minutes. */
  checkEveryMs?: number;
  /** First wait before asking again after no clear answer (network, 5xx, 429); doubles up to checkEveryMs. Default 30 s. */
  retryMs?: number;
}

export interface KeyModeDeps {
  store: AppStore;
  /** The key's own client over HTTP (never through the hub: the probe is this terminal's). */
  client: () => HttpShopClient;
  /** When a 429's pause of every request ends, if one is on. */
  pausedUntil: () => number | undefined;
  now: () => number;
  /** The key can write again: texts waiting in its outbox may go. */
  onWritable: () => void;
  random?: () => number;
}

export const DEFAULT_KEY_MODE_CHECK_MS = 5 * 60_000;
const DEFAULT_RETRY_MS = 30_000;

type Known = RememberedKeyMode;

export class KeyModeTracker implements KeyModeWitness {
  private readonly checkEveryMs: number;
  private readonly retryMs: number;
  private readonly random: () => number;
  private memory: KeyModeMemory | undefined;
  private stopWatch: (() => void) | undefined;
  private knowledge: Known | undefined;
  private timer: NodeJS.Timeout | undefined;
  private asking: AbortController | undefined;
  private failures = 0;
  private started = false;
  private closed = false;
  /** Changes with the key: an answer about the previous key is dropped. */
  private generation = 0;

  constructor(
    private readonly deps: KeyModeDeps,
    private readonly options: KeyModeOptions,
    apiKey: string,
  ) {
    this.checkEveryMs = options.checkEveryMs ?? DEFAULT_KEY_MODE_CHECK_MS;
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.random = deps.random ?? Math.random;
    this.recallFor(apiKey);
  }

  /** Asks now, unless this terminal reads through a hub and the answer it has is fresh; then every few minutes. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    const viaHub = this.deps.store.getState().sharing?.role === 'client';
    if (viaHub && this.knowledge && this.age() < this.checkEveryMs) {
      this.schedule(this.checkEveryMs - this.age());
      return;
    }
    void this.ask();
  }

  /** R: ask now (one request, within the budget). */
  check(): void {
    if (this.started && !this.closed) void this.ask();
  }

  refused(): void {
    this.learn({ mode: 'read', how: 'refused', at: this.deps.now() }, false);
  }

  accepted(): void {
    // Known already, and lately: the file is not rewritten for every text.
    if (this.knowledge?.mode === 'write' && this.age() < this.checkEveryMs) return;
    this.learn({ mode: 'write', how: 'accepted', at: this.deps.now() }, true);
  }

  /** Another key took over (a rotation): what was known is about the old key; the new one is asked at once. */
  switchKey(apiKey: string): void {
    // Closed while a shop read-only by choice was shown: asking again for a shop that may write.
    this.closed = false;
    this.generation += 1;
    this.asking?.abort();
    this.asking = undefined;
    this.failures = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopWatch?.();
    this.knowledge = undefined;
    this.deps.store.setState({ keyMode: KEY_MODE_NOT_ASKED });
    this.recallFor(apiKey);
    if (this.started && !this.closed) void this.ask();
  }

  close(): void {
    this.closed = true;
    this.asking?.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopWatch?.();
  }

  private recallFor(apiKey: string): void {
    this.memory = this.options.memory?.(apiKey);
    const remembered = this.memory?.recall();
    if (remembered) this.apply(remembered, { announce: false, learnedHere: false });
    // Another terminal's answer (or this one's own, coming back): only a newer one changes anything.
    this.stopWatch = this.memory?.watch((answer) =>
      this.apply(answer, { announce: true, learnedHere: false }),
    );
  }

  private age(): number {
    return this.knowledge ? this.deps.now() - this.knowledge.at : Number.POSITIVE_INFINITY;
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    // Spread a little, so that terminals started together do not keep asking at the same moment.
    const spread = ms * (0.95 + this.random() * 0.1);
    this.timer = setTimeout(() => this.turn(), Math.max(0, spread));
    this.timer.unref?.();
  }

  /** This terminal's turn to ask: skipped when another terminal of the key asked lately. */
  private turn(): void {
    this.timer = undefined;
    if (this.closed) return;
    if (this.age() < this.checkEveryMs * 0.9) this.schedule(this.checkEveryMs - this.age());
    else void this.ask();
  }

  private async ask(): Promise<void> {
    if (this.asking || this.closed) return;
    // A refused key stops everything; a new key (switchKey) starts asking again.
    if (this.deps.store.getState().fatal) return this.schedule(this.checkEveryMs);
    const paused = this.deps.pausedUntil();
    if (paused !== undefined) return this.schedule(paused - this.deps.now() + 50);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const generation = this.generation;
    const asking = new AbortController();
    this.asking = asking;
    const answer = await this.deps.client().probeKeyMode({ signal: asking.signal });
    if (this.asking === asking) this.asking = undefined;
    if (generation !== this.generation || this.closed) return;
    if (answer.mode !== 'unknown') {
      this.failures = 0;
      this.learn({ mode: answer.mode, how: 'probe', at: this.deps.now() }, true);
      return this.schedule(this.checkEveryMs);
    }
    // No clear answer: what was known stands; with nothing known, the screen can say why.
    if (!this.knowledge) this.deps.store.setState({ keyMode: { mode: 'unknown', why: answer.why } });
    if (!answer.transient) return this.schedule(this.checkEveryMs);
    this.failures += 1;
    this.schedule(Math.min(this.checkEveryMs, this.retryMs * 2 ** (this.failures - 1)));
  }

  private learn(answer: Known, announce: boolean): void {
    this.apply(answer, { announce, learnedHere: true });
    void this.memory?.remember(answer).catch(() => {});
  }

  /** Puts an answer in force: the store says it, and read-only mode follows it unless chosen by staff. */
  private apply(answer: Known, { announce, learnedHere }: { announce: boolean; learnedHere: boolean }): void {
    const known = this.knowledge?.at;
    if (known !== undefined && (known > answer.at || (known === answer.at && !learnedHere))) return;
    const before = this.knowledge?.mode;
    this.knowledge = answer;
    const { store, now } = this.deps;
    store.setState({ keyMode: answer });
    const state = store.getState();
    // --read-only or the config's read_only: the process never writes, whatever the key may do.
    if (state.readOnly && state.readOnlyReason !== 'server') return;
    if (answer.mode === 'read') {
      if (state.readOnly) return;
      enterReadOnly(store, this.deps.client());
      if (announce && before === 'write')
        store.setState({
          notice: {
            text: "This API key is read-only now (the shop's API settings changed): texting, drafting and approving are off until write mode is turned on there.",
            tone: 'warning',
            at: now(),
            background: true,
          },
        });
      return;
    }
    if (!state.readOnly) return;
    this.deps.client().setReadOnly(false);
    store.setState({
      readOnly: false,
      readOnlyReason: undefined,
      ...(announce
        ? {
            notice: {
              text: 'Write mode is on for this API key: texting, drafting and approving work again.',
              tone: 'success' as const,
              at: now(),
              background: true as const,
            },
          }
        : {}),
    });
    this.deps.onWritable();
  }
}
