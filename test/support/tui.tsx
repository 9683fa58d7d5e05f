/**
 * Renders the real inbox (session, store, poller, client) against the
 * simulator over a real socket, with ink-testing-library. Its stdout is given
 * columns and rows that a test can change (resize), and keys are written to
 * its stdin one chunk at a time, yielding to Ink between chunks.
 */
import { render } from 'ink-testing-library';
import { afterEach } from 'vitest';
import type { ShopClientOptions } from '../../src/api/client.js';
import { visibleReads } from '../../src/panes/visible-reads.js';
import type { RefreshIntervals } from '../../src/poller/refresh-plan.js';
import { createSession, type Session, type SessionOptions } from '../../src/session/create-session.js';
import type { UserKeys } from '../../src/shell/commands/keymap.js';
import { createInboxUi } from '../../src/shell/inbox-ui.js';
import type { SimulatorOptions } from '../../src/sim/simulator.js';
import type { TokenName } from '../../src/sim/world.js';
import type { AppState } from '../../src/store/app-store.js';
import type { Keymap } from '../../src/ui-kit/commands/command.js';
import { followTerminalSize } from '../../src/ui-kit/terminal-size.js';
import { keyBytes } from './key-bytes.js';
import { startSim, type TestSim } from './sim.js';

export const KEYS = {
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  right: '\u001B[C',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlU: '\u0015',
  backspace: '\u007F',
  pasteStart: '\u001B[200~',
  pasteEnd: '\u001B[201~',
} as const;

export interface TuiOptions {
  /** An already running simulator (to share with a second client or inspect before start). */
  sim?: TestSim;
  simOptions?: SimulatorOptions;
  token?: TokenName;
  columns?: number;
  rows?: number;
  readOnly?: boolean;
  maxRpm?: number;
  intervals?: Partial<RefreshIntervals>;
  backoff?: { baseMs: number; maxMs: number };
  client?: Partial<ShopClientOptions>;
  searchDebounceMs?: number;
  /** A user's keys, as "keys" in config.json. */
  keys?: UserKeys;
  mouse?: boolean;
  /** "New" marks on a read-only screen fade after this long. */
  newMarksFadeMs?: number;
  /** The terminal runs inside tmux (as with $TMUX set): what is written beside frames is wrapped for it. */
  tmux?: boolean;
  /** The UI's clock (quiet hours, notices); the session and the simulator keep real time. */
  now?: () => number;
  /** Further session settings (key source, outbox, time zone…). */
  session?: Partial<SessionOptions>;
}

export interface TestTui {
  s: TestSim;
  session: Session;
  state(): AppState;
  frame(): string;
  /** Writes each argument as one chunk of input, letting Ink handle it before the next. */
  press(...chunks: string[]): Promise<void>;
  /** Presses the (first) key a command has in this inbox's keymap, as the terminal would send it. */
  run(...commandIds: string[]): Promise<void>;
  /** A left click on a cell (zero-based column and row), as an SGR mouse report. */
  click(x: number, y: number): Promise<void>;
  /** The mouse wheel over a cell. */
  wheel(x: number, y: number, direction: 'up' | 'down'): Promise<void>;
  keymap: Keymap;
  /** What the inbox wrote to the terminal beside its frames (the clipboard's OSC 52), in order. */
  readonly terminalWrites: readonly string[];
  /** Waits until the frame contains the text (or matches), or fails with the last frame. */
  waitFor(
    expected: string | RegExp | ((frame: string, state: AppState) => boolean),
    timeoutMs?: number,
  ): Promise<string>;
  resize(columns: number, rows: number): Promise<void>;
  readonly quitRequested: boolean;
  /** Requests the simulator received that were not GET. */
  writes(): Promise<Array<{ method: string; path: string; status: number }>>;
  close(): void;
}

const open: TestTui[] = [];

afterEach(() => {
  for (const tui of open.splice(0)) tui.close();
});

/** Lets the input layer settle a lone ESC (1 ms in tests) and React commit: a macrotask, then a short timer. */
export const settle = () => new Promise<void>((resolve) => setImmediate(() => setTimeout(resolve, 3)));

export async function startTui(options: TuiOptions = {}): Promise<TestTui> {
  const s = options.sim ?? (await startSim(options.simOptions));
  const size = { columns: options.columns ?? 80, rows: options.rows ?? 24 };
  const session = createSession({
    baseUrl: s.baseUrl,
    apiKey: s.sim.tokens[options.token ?? 'write'],
    readOnly: options.readOnly ?? false,
    columns: size.columns,
    rows: size.rows,
    maxRpm: options.maxRpm ?? 120,
    ...(options.intervals ? { intervals: options.intervals } : {}),
    backoff: options.backoff ?? { baseMs: 100, maxMs: 400 },
    sendRetry: { baseMs: 200, maxMs: 800 },
    visibleSlots: visibleReads,
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options.client },
    ...options.session,
  });
  let quitRequested = false;
  const terminalWrites: string[] = [];
  const ui = createInboxUi(session, {
    terminal: { write: (bytes) => void terminalWrites.push(bytes), tmux: options.tmux ?? false },
    quit: () => {
      quitRequested = true;
    },
    searchDebounceMs: options.searchDebounceMs ?? 60,
    ...(options.now ? { now: options.now } : {}),
    ...(options.keys ? { keys: options.keys } : {}),
    ...(options.mouse !== undefined ? { mouse: options.mouse } : {}),
    ...(options.newMarksFadeMs !== undefined ? { newMarksFadeMs: options.newMarksFadeMs } : {}),
  });
  const rendered = render(ui.element);
  // Keys go through the real input layer; a lone ESC is settled after 1 ms instead of 100 (see settle()).
  ui.listen(rendered.stdin, { escapeTimeoutMs: 1 });
  const stdout = rendered.stdout as unknown as NodeJS.EventEmitter & { columns: number; rows: number };
  Object.defineProperty(stdout, 'columns', { get: () => size.columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { get: () => size.rows, configurable: true });
  const stopSize = followTerminalSize(
    stdout as unknown as Parameters<typeof followTerminalSize>[0],
    session.store,
  );
  session.start();

  let closed = false;
  const tui: TestTui = {
    s,
    session,
    state: () => session.store.getState(),
    frame: () => rendered.lastFrame() ?? '',
    async press(...chunks) {
      for (const chunk of chunks) {
        rendered.stdin.write(chunk);
        await settle();
      }
    },
    async run(...commandIds) {
      for (const id of commandIds) {
        const key = ui.keymap.keysOf(id)[0];
        if (key === undefined) throw new Error(`command ${id} has no key`);
        rendered.stdin.write(keyBytes(key));
        await settle();
      }
    },
    async click(x, y) {
      rendered.stdin.write(`\u001B[<0;${x + 1};${y + 1}M\u001B[<0;${x + 1};${y + 1}m`);
      await settle();
    },
    async wheel(x, y, direction) {
      rendered.stdin.write(`\u001B[<${direction === 'up' ? 64 : 65};${x + 1};${y + 1}M`);
      await settle();
    },
    keymap: ui.keymap,
    terminalWrites,
    async waitFor(expected, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      const test = (frame: string) =>
        typeof expected === 'string'
          ? frame.includes(expected)
          : expected instanceof RegExp
            ? expected.test(frame)
            : expected(frame, session.store.getState());
      for (;;) {
        const frame = rendered.lastFrame() ?? '';
        if (test(frame)) return frame;
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${String(expected)}; the last frame was:\n${frame}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    },
    async resize(columns, rows) {
      size.columns = columns;
      size.rows = rows;
      stdout.emit('resize');
      await settle();
    },
    get quitRequested() {
      return quitRequested;
    },
    async writes() {
      return (await s.requests())
        .filter((request) => request.method !== 'GET')
        .map(({ method, path, status }) => ({ method, path, status }));
    },
    close() {
      if (closed) return;
      closed = true;
      session.close();
      ui.dispose();
      stopSize();
      rendered.unmount();
    },
  };
  open.push(tui);
  return tui;
}
