/**
 * Reads the terminal: each chunk of stdin goes through the parser, and the
 * events it completes go to the handler together, as one batch (keys that
 * arrived in one read). The only timers of the input layer live here: a lone
 * ESC becomes the escape key after a short pause, and a paste whose end never
 * came is closed after a long one.
 */
import type { InputEvent } from './key-event.js';
import { createInputParser } from './parse-input.js';

export interface InputBatch {
  events: InputEvent[];
  /** Increases with every read; events of one batch arrived together. */
  id: number;
}

export interface InputSourceOptions {
  /** How long a lone ESC waits for the rest of a sequence before it is the escape key. Default 100 ms, as vim's ttimeoutlen. */
  escapeTimeoutMs?: number;
  /** How long the start of a sequence (ESC [ …) waits for its end over a slow link before it is dropped. Default 1 s. */
  sequenceTimeoutMs?: number;
  /** How long a paste may pause before it is taken as ended. Default 2 s. */
  pasteTimeoutMs?: number;
}

/** The longest wait `ESCDELAY` may ask for: past it, esc itself would feel broken. */
const MAX_ESCAPE_DELAY_MS = 2_000;

/**
 * The escape key's wait from `ESCDELAY` (milliseconds, as ncurses reads it): a link slow or jittery enough to
 * split an arrow's bytes by more than 100 ms can ask for longer. Anything else than a whole number from 1 to
 * 2000 is ignored.
 */
export function escapeDelayFrom(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = env.ESCDELAY?.trim();
  if (!value || !/^\d+$/.test(value)) return undefined;
  const ms = Number(value);
  return ms >= 1 && ms <= MAX_ESCAPE_DELAY_MS ? ms : undefined;
}

export interface InputSource {
  /** Feeds one read of input, as stdin's 'data' would. */
  feed(chunk: string | Buffer): void;
  dispose(): void;
}

export function createInputSource(
  onBatch: (batch: InputBatch) => void,
  options: InputSourceOptions = {},
): InputSource {
  const parser = createInputParser();
  const escapeTimeoutMs = options.escapeTimeoutMs ?? 100;
  const sequenceTimeoutMs = options.sequenceTimeoutMs ?? 1_000;
  const pasteTimeoutMs = options.pasteTimeoutMs ?? 2_000;
  let batches = 0;
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;

  const deliver = (events: InputEvent[]) => {
    if (events.length === 0 || disposed) return;
    batches += 1;
    onBatch({ events, id: batches });
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const holding = parser.holding;
    if (holding === 'nothing') return;
    timer = setTimeout(
      () => {
        timer = undefined;
        deliver(holding === 'paste' ? parser.endPaste() : parser.flush());
        schedule();
      },
      holding === 'paste' ? pasteTimeoutMs : holding === 'sequence' ? sequenceTimeoutMs : escapeTimeoutMs,
    );
    timer.unref?.();
  };

  return {
    feed(chunk) {
      if (disposed) return;
      deliver(parser.feed(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      schedule();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** Reads a terminal's stdin in raw mode; returns how to stop (raw mode itself is ended by the terminal runner). */
export function readTerminalInput(
  stdin: NodeJS.ReadStream | NodeJS.EventEmitter,
  onBatch: (batch: InputBatch) => void,
  options?: InputSourceOptions,
): () => void {
  const source = createInputSource(onBatch, options);
  const stream = stdin as NodeJS.ReadStream;
  if (stream.isTTY && typeof stream.setRawMode === 'function') stream.setRawMode(true);
  stream.setEncoding?.('utf8');
  const onData = (chunk: string | Buffer) => source.feed(chunk);
  stream.on('data', onData);
  stream.resume?.();
  return () => {
    stream.off('data', onData);
    // A flowing stdin keeps the process alive: stop reading so that quitting ends it.
    stream.pause?.();
    source.dispose();
  };
}
