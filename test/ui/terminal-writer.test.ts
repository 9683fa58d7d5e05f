/**
 * What is written to a terminal that stops reading: nothing waits on it, and
 * what piles up is bounded. The terminal here is a stream that takes its
 * first write and then nothing until the test lets it read on, as a frozen
 * SSH session does. (The built program against a real pty whose reader
 * stops: test/e2e/stalled-terminal-pty.test.ts.)
 */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASIDE_LIMIT, createTerminalWriter } from '../../src/ui-kit/terminal-writer.js';

/** A terminal that takes one write and then waits until `read()`. */
class StoppedTerminal extends Writable {
  received = '';
  private reading = false;
  private waiting: Array<() => void> = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.received += chunk.toString('utf8');
    if (this.reading) done();
    else this.waiting.push(done);
  }
  read(): void {
    this.reading = true;
    for (const done of this.waiting.splice(0)) done();
  }
  /** Takes the write it holds and holds the next (a slow link). */
  takeOne(): void {
    this.waiting.shift()?.();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function stoppedTerminal() {
  const terminal = new StoppedTerminal();
  const writer = createTerminalWriter(terminal as unknown as NodeJS.WriteStream);
  const frames = writer.frames as NodeJS.WriteStream & { deferFrame(draw: () => void): boolean };
  return { terminal, writer, frames };
}

describe('a terminal that stops reading', () => {
  it('draws no frame until it has taken the last, then the latest one once', async () => {
    const { terminal, writer, frames } = stoppedTerminal();
    expect(frames.deferFrame(() => frames.write('never'))).toBe(false);
    frames.write('frame 1');
    expect(writer.drained).toBe(false);
    const drawn: string[] = [];
    for (const n of [2, 3, 4]) expect(frames.deferFrame(() => drawn.push(`frame ${n}`))).toBe(true);
    await settle();
    expect(drawn).toEqual([]);
    terminal.read();
    await settle();
    expect(drawn).toEqual(['frame 4']);
    expect(writer.drained).toBe(true);
  });

  it('holds at most ASIDE_LIMIT characters of what is written beside the frames, the newest, and writes them before the next frame', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ minLength: 100, maxLength: 600 }), { maxLength: 40, size: 'max' }),
        async (texts) => {
          const { terminal, writer, frames } = stoppedTerminal();
          frames.write('[frame]');
          for (const text of texts) writer.aside(text);
          frames.deferFrame(() => frames.write('[next frame]'));
          terminal.read();
          await settle();
          await settle();
          const held = terminal.received.slice('[frame]'.length, -'[next frame]'.length);
          expect(terminal.received.endsWith('[next frame]')).toBe(true);
          expect(held.length).toBeLessThanOrEqual(ASIDE_LIMIT);
          // The newest texts, whole and in order: a title set later wins over one set before.
          const kept = texts.slice(texts.length - countSuffix(texts, held));
          expect(kept.join('')).toBe(held);
          if (texts.length > 0 && (texts.at(-1)?.length ?? 0) <= ASIDE_LIMIT)
            expect(held.endsWith(texts.at(-1) ?? '')).toBe(true);
        },
      ),
      // Shrinking forty long texts takes longer than a test may: the first counterexample is clear enough.
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('writes the way back after everything the terminal has not taken yet, and says when it has', async () => {
    const { terminal, writer, frames } = stoppedTerminal();
    frames.write('frame');
    writer.aside('title');
    writer.dispose();
    writer.direct('leave');
    let drained = false;
    void writer.whenDrained().then(() => {
      drained = true;
    });
    await settle();
    expect(drained).toBe(false);
    terminal.read();
    await settle();
    await settle();
    expect(drained).toBe(true);
    // Held texts go with the screen: a title set after the way back would stay on the user's window.
    expect(terminal.received).toBe('frameleave');
  });

  describe('at exit, waiting for the terminal to take the way back', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const stallMs = 2_000;
    /** Resolves what whenTakenOrStalled says, or undefined while it says nothing. */
    const watch = (writer: ReturnType<typeof stoppedTerminal>['writer']) => {
      const said: { taken?: boolean } = {};
      void writer.whenTakenOrStalled(stallMs).then((taken) => {
        said.taken = taken;
      });
      return said;
    };

    it('waits on a slow link that reads on, however long it takes in all', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      const { terminal, writer, frames } = stoppedTerminal();
      for (const n of [1, 2, 3, 4, 5]) frames.write(`frame ${n}`);
      writer.direct('leave');
      const said = watch(writer);
      // Six writes, one taken every 1.5 s: 9 s in all, never 2 s without one.
      for (let i = 0; i < 6; i += 1) {
        await vi.advanceTimersByTimeAsync(1_500);
        expect(said.taken).toBeUndefined();
        terminal.takeOne();
        await settle();
      }
      await vi.advanceTimersByTimeAsync(100);
      expect(said.taken).toBe(true);
      expect(terminal.received.endsWith('leave')).toBe(true);
    });

    it('gives up on a terminal that has taken nothing for a while', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      const { terminal, writer, frames } = stoppedTerminal();
      frames.write('frame 1');
      frames.write('frame 2');
      writer.direct('leave');
      const said = watch(writer);
      await vi.advanceTimersByTimeAsync(1_000);
      terminal.takeOne();
      await settle();
      // Counted from what it took last.
      await vi.advanceTimersByTimeAsync(stallMs - 200);
      expect(said.taken).toBeUndefined();
      await vi.advanceTimersByTimeAsync(300);
      expect(said.taken).toBe(false);
    });

    it('says at once that a terminal which has taken everything has', async () => {
      const { terminal, writer } = stoppedTerminal();
      terminal.read();
      await expect(writer.whenTakenOrStalled(stallMs)).resolves.toBe(true);
    });
  });

  it('writes at once while the terminal reads', async () => {
    const { terminal, writer, frames } = stoppedTerminal();
    terminal.read();
    frames.write('frame');
    writer.aside('title');
    await settle();
    expect(frames.deferFrame(() => {})).toBe(false);
    expect(terminal.received).toBe('frametitle');
  });
});

/** How many of the last texts make up `held`. */
function countSuffix(texts: readonly string[], held: string): number {
  let length = 0;
  let count = 0;
  for (let i = texts.length - 1; i >= 0 && length < held.length; i -= 1) {
    length += texts[i]?.length ?? 0;
    count += 1;
  }
  return count;
}
