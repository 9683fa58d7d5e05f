/**
 * The inbox UI for a session: the React element to render, the input layer
 * that turns stdin into commands, and the clock. The terminal runner and the
 * tests both build it here.
 */
import type { ComponentType, ReactElement } from 'react';
import type { Session } from '../session/create-session.js';
import { followPhoneZones } from '../session/follow-phone-zones.js';
import { AppServicesContext, ThemeContext } from '../ui-kit/app-context.js';
import { type Clock, createClock } from '../ui-kit/clock.js';
import type { CommandContext, Keymap } from '../ui-kit/commands/command.js';
import { plugDrawingIntoInk } from '../ui-kit/ink-drawing.js';
import { type InputSourceOptions, readTerminalInput } from '../ui-kit/input/input-source.js';
import { createMouse } from '../ui-kit/mouse.js';
import { THEMES, type Theme } from '../ui-kit/theme.js';
import { createSendFlow } from '../user-actions/send-flow.js';
import { App } from './app.js';
import { createDispatcher, type Dispatcher } from './commands/dispatch.js';
import { buildKeymap, type UserKeys } from './commands/keymap.js';
import { createController } from './controller.js';
import { followSelections } from './follow-selection.js';
import { followNewMarks } from './new-marks.js';

export interface InboxUi {
  element: ReactElement;
  /** Handles one batch of parsed input (what one read of stdin held). */
  dispatch: Dispatcher;
  keymap: Keymap;
  clock: Clock;
  /**
   * Reads keys from this stream (a TTY in raw mode, or a test's stdin) until disposed; `afterInput`
   * runs once each batch of input has been handled.
   */
  listen(
    stdin: NodeJS.ReadStream | NodeJS.EventEmitter,
    options?: InputSourceOptions & { afterInput?: () => void },
  ): () => void;
  dispose(): void;
}

export interface InboxUiOptions {
  quit(): void;
  now?: () => number;
  searchDebounceMs?: number;
  /** The user's keys from the config file (already checked with buildKeymap, or checked here). */
  keys?: UserKeys;
  /** Clicks and the wheel (SGR mouse reporting). Default on. */
  mouse?: boolean;
  /** Colours by role (default: the dark theme). */
  theme?: Theme;
  /** The wallboard's screen (src/wallboard/wallboard.tsx), when the session's view is the wallboard. */
  Wallboard?: ComponentType<{ height: number }>;
  /** "New" marks on a read-only screen fade after this long (default 30 minutes). */
  newMarksFadeMs?: number;
  /** Writes beside the frames (the clipboard's OSC 52); `tmux`: wrap them for tmux's passthrough. */
  terminal?: { write(bytes: string): void; tmux: boolean };
  /** Opens a text in the user's editor (a real terminal only). */
  editText?: (text: string) => Promise<string>;
  /** Draws the whole screen again from scratch (a real terminal only). */
  repaint?: () => void;
}

export function createInboxUi(session: Session, options: InboxUiOptions): InboxUi {
  const { store } = session;
  plugDrawingIntoInk();
  const keymap = buildKeymap(options.keys);
  const clock = createClock(options.now);
  // Before anything renders: the selection follows its record from the first change on.
  const stopFollowing = followSelections(store, options.now ? { now: options.now } : {});
  // After the selection is settled: the selected item's "new" mark goes.
  const stopMarks = followNewMarks(store, {
    ...(options.newMarksFadeMs !== undefined ? { fadeMs: options.newMarksFadeMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  // Count down every second only while a countdown is on screen; the wallboard's "updated 12 s ago" always is.
  const fastClock = (state: ReturnType<typeof store.getState>) =>
    clock.setFast(state.view === 'wallboard' || state.connection.state !== 'ok');
  fastClock(store.getState());
  const stopClock = store.subscribe(fastClock);
  // The composer's recipient's time zone (quiet hours are theirs), looked up when a composer opens.
  const stopZones = followPhoneZones(store);
  const ui = createController({
    store,
    services: {
      poller: {
        refreshVisible: () => session.poller.refreshVisible(),
        // R: everything, and whether the key may write (switched in the shop's settings meanwhile?).
        refreshAll: () => {
          session.poller.refreshAll();
          session.keyMode?.check();
        },
        request: (slot) => session.poller.request(slot),
      },
      sendFlow: createSendFlow({
        store,
        client: session.client,
        now: options.now ?? Date.now,
        deliver: (target, body) => session.sender.deliver(target, body),
      }),
      ...(options.editText ? { editText: options.editText } : {}),
      approve: (actionId, label) => void session.approve(actionId, label),
      draft: (reviewId) => void session.draft(reviewId),
      quit: options.quit,
      ...(session.shops
        ? {
            shops: {
              names: () => session.shops?.names() ?? Promise.resolve([]),
              switchTo: (name) => session.switchShop(name),
            },
          }
        : {}),
      ...(options.terminal ? { terminal: options.terminal } : {}),
      ...(options.repaint ? { repaint: options.repaint } : {}),
    },
    ...(options.searchDebounceMs !== undefined ? { searchDebounceMs: options.searchDebounceMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const mouse = options.mouse === false ? undefined : createMouse(store, ui);
  const dispatch = createDispatcher({
    store,
    ui,
    keymap,
    ...(mouse ? { onMouse: mouse.handle } : {}),
  });
  const probe: CommandContext = {
    store,
    state: store.getState,
    ui,
    input: { batch: 0, last: true },
    keymap,
    runCommand: () => {},
  };
  const element = (
    <AppServicesContext.Provider
      value={{
        store,
        clock,
        keymap,
        commandContext: () => probe,
        mouse,
        Wallboard: options.Wallboard,
      }}
    >
      <ThemeContext.Provider value={options.theme ?? THEMES.dark}>
        <App />
      </ThemeContext.Provider>
    </AppServicesContext.Provider>
  );
  const stops: Array<() => void> = [];
  return {
    element,
    dispatch,
    keymap,
    clock,
    listen(stdin, { afterInput, ...inputOptions } = {}) {
      const onBatch: Dispatcher = (batch) => {
        dispatch(batch);
        afterInput?.();
      };
      const stop = readTerminalInput(stdin, onBatch, inputOptions);
      stops.push(stop);
      return stop;
    },
    dispose: () => {
      for (const stop of stops.splice(0)) stop();
      stopFollowing();
      stopMarks();
      stopClock();
      stopZones();
      ui.dispose();
      clock.stop();
    },
  };
}
