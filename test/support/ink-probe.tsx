/**
 * A small Ink program drawn as the inbox draws (incremental rendering, the frame limit, its drawing
 * plugged in) into a fake terminal that records every byte Ink writes: the first frame, the
 * highlight moved, a narrower terminal, a repaint (ctrl-l), the way back. test/ink/same-ink.test.ts
 * runs it in-process, as the UI tests run Ink, and bundled as the CLI is, and compares the bytes.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { Box, render } from 'ink';
import { Text } from '../../src/ui-kit/components/text.js';
import { plugDrawingIntoInk } from '../../src/ui-kit/ink-drawing.js';

const ROWS = ['Ana Lima      +1 555 0101', 'Bo Chen       +1 555 0102', 'Cy Diaz       +1 555 0103'];
const MORE = ['Di Evans      +1 555 0104', 'Ed Fox        +1 555 0105', 'Flo Gray      +1 555 0106'];

class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  columns = 40;
  rows = 12;
  readonly writes: string[] = [];
  write(bytes: string): boolean {
    this.writes.push(bytes);
    return true;
  }
}

function List({ selected }: { selected: number }) {
  return (
    <Box flexDirection="column">
      {[...ROWS, ...MORE].map((row, index) => (
        <Text key={row} wrap="truncate">
          {index === selected ? '>' : ' '} {row}
        </Text>
      ))}
    </Box>
  );
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every write Ink made, in order, one string each. */
export async function probeInk(): Promise<string[]> {
  plugDrawingIntoInk();
  const terminal = new FakeTerminal();
  const instance = render(<List selected={0} />, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new PassThrough() as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    incrementalRendering: true,
    maxFps: 15,
  });
  await turn();
  // As after a key: drawn at once, not when the frame limit next allows.
  instance.drawNextFrameAtOnce();
  instance.rerender(<List selected={1} />);
  await turn();
  terminal.columns = 20;
  instance.drawNextFrameAtOnce();
  terminal.emit('resize');
  await turn();
  instance.repaint();
  await turn();
  instance.unmount();
  await turn();
  return terminal.writes;
}
