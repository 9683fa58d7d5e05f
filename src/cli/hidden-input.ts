/**
 * Reads one line from a terminal without echoing it, for a secret. The
 * terminal is in raw mode only while reading and is always put back, also
 * when the read is cancelled or the process is told to stop.
 */
import { StringDecoder } from 'node:string_decoder';
import type { ReadStream } from 'node:tty';
import stripAnsi from 'strip-ansi';

/** The person cancelled the input (or the process was told to stop); exit with `exitCode`. */
export class InputCancelled extends Error {
  override name = 'InputCancelled';
  constructor(readonly exitCode: number) {
    super('input cancelled');
  }
}

/** Exit statuses as a shell reports a death by these signals (128 + number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

export function isTerminal(stream: NodeJS.ReadableStream): stream is ReadStream {
  return (
    (stream as Partial<ReadStream>).isTTY === true && typeof (stream as ReadStream).setRawMode === 'function'
  );
}

function collectLine(stdin: ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let chars: string[] = [];
    const onSignal = Object.fromEntries(
      Object.entries(STOP_SIGNALS).map(([signal, code]) => [signal, () => finish(new InputCancelled(code))]),
    );
    function finish(outcome: string | InputCancelled) {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      for (const [signal, handler] of Object.entries(onSignal)) process.off(signal, handler);
      stdin.pause();
      if (typeof outcome === 'string') resolve(outcome);
      else reject(outcome);
    }
    function onData(chunk: Buffer | string) {
      // Arrow keys and other escape sequences are not part of a key.
      const text = stripAnsi(typeof chunk === 'string' ? chunk : decoder.write(chunk));
      for (const char of text) {
        if (char === '\r' || char === '\n') return finish(chars.join(''));
        if (char === '\u0003') return finish(new InputCancelled(130)); // ctrl-c
        if (char === '\u0004') return finish(new InputCancelled(1)); // ctrl-d
        if (char === '\u007f' || char === '\b') chars.pop();
        else if (char === '\u0015')
          chars = []; // ctrl-u: clear the line
        else if (char >= ' ') chars.push(char);
      }
    }
    const onEnd = () => finish(new InputCancelled(1));
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    for (const [signal, handler] of Object.entries(onSignal)) process.once(signal, handler);
    stdin.resume();
  });
}

/** Shows the prompt on `output`, reads a line without echo; rejects with InputCancelled on ctrl-c / ctrl-d. */
export async function readHiddenLine(
  stdin: ReadStream,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  const wasRaw = stdin.isRaw;
  // Raw mode before the prompt: whatever is typed once the prompt shows is never echoed.
  stdin.setRawMode(true);
  try {
    output.write(prompt);
    return await collectLine(stdin);
  } finally {
    stdin.setRawMode(wasRaw);
    output.write('\n');
  }
}
