/**
 * Runs the inbox in this terminal until staff quit: the alternate screen, Ink
 * tuned for slow links, and the way back on every exit path (q, SIGTERM,
 * SIGHUP from a dropped SSH session, SIGINT, a crash).
 */
import { render } from 'ink';
import type { ShopInboxConfig } from '../config/config-file.js';
import { visibleReads } from '../panes/visible-reads.js';
import { wallboardReads } from '../poller/wallboard-reads.js';
import type { Session } from '../session/create-session.js';
import type { View } from '../store/app-store.js';
import { editExternally } from '../ui-kit/external-editor.js';
import { collectWhenIdle, v8YoungGeneration } from '../ui-kit/idle-collection.js';
import { escapeDelayFrom } from '../ui-kit/input/input-source.js';
import { traceKeys } from '../ui-kit/key-trace.js';
import { markStart, tracingStart } from '../ui-kit/start-trace.js';
import { enterFullScreen } from '../ui-kit/terminal.js';
import { followTerminalSize } from '../ui-kit/terminal-size.js';
import { chooseTheme, type ThemeChoice } from '../ui-kit/theme.js';
import type { UserKeys } from './commands/keymap.js';
import { createInboxUi } from './inbox-ui.js';
import { notifySettings, startNotifier } from './notifier.js';

export interface RunInboxOptions {
  /** The user's keys from the config file. */
  keys?: UserKeys;
  /** Clicks and the wheel (off: the terminal's own text selection works as usual). */
  mouse: boolean;
  /** The inbox (default) or the wallboard. */
  view?: View;
  /** Colours: a theme, or auto (COLORFGBG); NO_COLOR removes them all. */
  theme?: ThemeChoice;
  /** The config's notifications (title, desktop, bell, which events). */
  notify?: ShopInboxConfig['notify'];
  /** "New" marks on a read-only screen fade after this long. */
  newMarksFadeMs?: number;
  /** The wallboard of several shops: each shop's name and store (the session shown here is the first's). */
  wallboardShops?: ReadonlyArray<{ name: string; store: Session['store'] }>;
}

const HANG_UP_EXIT = 129;
/**
 * How long a process that has quit waits, while its terminal takes nothing (a frozen SSH session), for it
 * to take the way back (the main screen, the cursor) before it ends anyway. A slow link that reads on is
 * waited for.
 */
const EXIT_WAIT_MS = 2_000;
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: HANG_UP_EXIT, SIGINT: 130, SIGTERM: 143 };

/** Shows a started session (see start-inbox-session.ts) until staff quit; closes it on the way out. */
export async function runInbox(session: Session, options: RunInboxOptions): Promise<number> {
  const { stdout, stdin } = process;
  const wallboard = options.view === 'wallboard';
  // The wallboard's code is loaded only for a wallboard.
  const Wallboard = !wallboard
    ? undefined
    : options.wallboardShops
      ? (await import('../wallboard/multi-wallboard.js')).multiWallboard(options.wallboardShops)
      : (await import('../wallboard/wallboard.js')).Wallboard;
  session.poller.setVisibleSlots(wallboard ? wallboardReads : visibleReads);
  // Nothing on the wallboard is clicked: the mouse stays the terminal's.
  const mouse = options.mouse && !wallboard;
  const notify = notifySettings(options.notify, wallboard);
  // Keys are pressed only on the inbox: there the young generation is collected while the screen rests.
  const young = wallboard ? undefined : v8YoungGeneration();
  const idle = young ? collectWhenIdle({ young }) : undefined;
  // A terminal that went away (a dropped SSH session, a closed pty) ends the inbox as a hang-up does.
  const screen = enterFullScreen(
    { stdout, stdin, stderr: process.stderr },
    { onGone: () => shutdown(HANG_UP_EXIT), mouse, title: notify.title },
  );

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let instance: ReturnType<typeof render> | undefined;
  /**
   * Ink draws its last frame when it unmounts: that must happen on the alternate screen, before
   * the terminal is given back, or the frame lands on the shell's screen.
   */
  const unmountThenRestore = () => {
    try {
      instance?.unmount();
    } catch {
      // Unmounting writes to the terminal, which may be gone.
    }
    screen.restore();
  };
  let closing = false;
  const stopNotifier = startNotifier({
    store: session.store,
    settings: notify,
    tmux: Boolean(process.env.TMUX),
    write: (text) => {
      if (!closing) screen.write(text);
    },
  });
  const shutdown = (code: number) => {
    if (closing) return;
    closing = true;
    stopNotifier();
    idle?.stop();
    session.store.setState({ quitting: true });
    session.close();
    ui.dispose();
    unmountThenRestore();
    finish(code);
  };

  const onRender = () => {
    idle?.framed();
    if (!tracingStart) return;
    markStart('first-frame');
    const { me, inbox, inboxFilter } = session.store.getState();
    if (me.data !== undefined && inbox[inboxFilter].data !== undefined) markStart('data-frame');
  };
  const draw = () =>
    render(ui.element, {
      stdout: screen.output,
      stdin,
      exitOnCtrlC: false,
      patchConsole: false,
      // Over SSH, bytes per frame are what staff feel: redraw only changed lines, at most 15 times a second.
      incrementalRendering: true,
      maxFps: 15,
      onRender,
    });
  const escapeTimeoutMs = escapeDelayFrom(process.env);
  const escapeOption = escapeTimeoutMs === undefined ? {} : { escapeTimeoutMs };
  const listen = () =>
    ui.listen(stdin, {
      // Ink's instance has these two by its patch (patches/README.md).
      afterInput: () => instance?.drawNextFrameAtOnce(),
      ...escapeOption,
    });
  let stopListening: () => void = () => {};
  /**
   * The terminal goes to the user's editor and comes back: keys are no longer read (stdin paused), Ink
   * is unmounted, raw mode, mouse, paste and the alternate screen are turned off; then all of it is
   * turned on again and a new Ink draws the whole screen (the state lives in the store).
   */
  const editText = async (text: string) => {
    let handedOver = false;
    try {
      return await editExternally(text, {
        env: process.env,
        handOver: () => {
          handedOver = true;
          stopListening();
          try {
            instance?.unmount();
          } catch {
            // The terminal may be gone; the editor will say so.
          }
          instance = undefined;
          return screen.suspend();
        },
        takeBack: () => {
          if (!closing) screen.resume();
        },
      });
    } finally {
      // Drawn again once the edited text is in the store (the caller's continuation runs first), so that
      // the first frame already shows it.
      if (handedOver)
        setTimeout(() => {
          if (closing) return;
          stopListening = listen();
          instance = draw();
        }, 0);
    }
  };

  const ui = createInboxUi(session, {
    quit: () => shutdown(0),
    mouse,
    theme: chooseTheme(options.theme ?? 'auto', process.env),
    ...(Wallboard ? { Wallboard } : {}),
    ...(options.newMarksFadeMs !== undefined ? { newMarksFadeMs: options.newMarksFadeMs } : {}),
    // The clipboard (OSC 52) is written to the terminal itself, between frames; tmux needs it wrapped.
    terminal: { write: (bytes) => screen.write(bytes), tmux: Boolean(process.env.TMUX) },
    // ctrl-l: the whole screen drawn again from scratch.
    repaint: () => instance?.repaint(),
    editText,
    ...(options.keys ? { keys: options.keys } : {}),
  });
  const onSignal = (signal: NodeJS.Signals) => shutdown(SIGNAL_EXIT[signal] ?? 1);
  let crashed = false;
  const onCrash = (error: unknown) => {
    if (crashed) return;
    crashed = true;
    unmountThenRestore();
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    // Every key this process used (a new one after a rotation too) is redacted. The process ends once
    // the terminal has taken the report (its writes do not wait: see terminal.ts), or after a while.
    process.stderr.write(`shop-inbox crashed: ${session.redact(text)}\n`, () => process.exit(70));
    setTimeout(() => process.exit(70), EXIT_WAIT_MS).unref();
  };
  // On any exit, even process.exit() from a dependency, the terminal comes back.
  const onExit = () => unmountThenRestore();
  const stopFollowingSize = followTerminalSize(stdout, session.store);
  for (const signal of Object.keys(SIGNAL_EXIT)) process.on(signal, onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('exit', onExit);
  const stopKeyTrace = traceKeys(process.env, { stdin, stdout });

  try {
    // Raw mode before the first frame: a key pressed as soon as the shop shows is a key, not a
    // line the terminal echoes and keeps (the first frame can already hold the inbox).
    // What a key changed is drawn at once, not when the frame limit next allows.
    stopListening = listen();
    instance = draw();
    return await finished;
  } finally {
    stopKeyTrace();
    stopFollowingSize();
    stopNotifier();
    for (const signal of Object.keys(SIGNAL_EXIT)) process.off(signal, onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    process.off('exit', onExit);
    screen.restore();
    // A terminal that does not read keeps what it has not taken queued, and the process alive: not for ever.
    void screen.whenTakenOrStalled(EXIT_WAIT_MS).then((taken) => {
      if (!taken) process.exit();
    });
  }
}
