/**
 * A terminal for Ink tests in-process: a TTY of a set size that keeps what was written last, and
 * the options that make Ink write every frame whole to it (what is compared is the frame, not the
 * bytes that draw it).
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

export class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  last = '';
  constructor(
    public columns = 40,
    public rows = 30,
  ) {
    super();
  }
  write(bytes: string): boolean {
    this.last = bytes;
    return true;
  }
}

export const wholeFrameOptions = (terminal: FakeTerminal) => ({
  stdout: terminal as unknown as NodeJS.WriteStream,
  stdin: new PassThrough() as unknown as NodeJS.ReadStream,
  exitOnCtrlC: false,
  patchConsole: false,
  debug: true,
});
