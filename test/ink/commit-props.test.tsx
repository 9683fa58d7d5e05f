/**
 * At each commit Ink's reconciler compares a node's old and new props, and its old and new style, and
 * applies what changed: a new value, and a key that is gone set to nothing (a border taken away, a colour
 * dropped). The comparison is patched to make no arrays or empty objects (patches/README.md). Here a box
 * and a text are given random props, step by step, each prop present or left out (not set to undefined:
 * left out), and every frame must be the frame a fresh Ink draws of the same tree. The box keeps its
 * width: Yoga's layout of a box whose width and border changed is not always its layout of the same box
 * made anew (with or without the patch; see test/ink/unchanged-subtrees.test.tsx).
 */
import chalk from 'chalk';
import fc from 'fast-check';
import { Box, type BoxProps, render } from 'ink';
import { expect, it, onTestFinished } from 'vitest';
import { Text, type TextProps } from '../../src/ui-kit/components/text.js';
import { plugDrawingIntoInk } from '../../src/ui-kit/ink-drawing.js';
import { FakeTerminal, wholeFrameOptions } from '../support/fake-terminal.js';

/** Each prop present or absent (the key itself left out), as a component's spread of optional props makes them. */
const boxProps: fc.Arbitrary<BoxProps> = fc.record(
  {
    borderStyle: fc.constantFrom('single' as const, 'round' as const),
    borderColor: fc.constantFrom('red', 'cyan'),
    backgroundColor: fc.constantFrom('blue', 'yellow'),
    flexDirection: fc.constantFrom('row' as const, 'column' as const),
  },
  { requiredKeys: [] },
);
const textProps: fc.Arbitrary<TextProps> = fc.record(
  {
    color: fc.constantFrom('red', 'green'),
    backgroundColor: fc.constantFrom('blue', 'white'),
    bold: fc.constant(true),
    italic: fc.constant(true),
    underline: fc.constant(true),
    strikethrough: fc.constant(true),
    inverse: fc.constant(true),
    dimColor: fc.constant(true),
  },
  { requiredKeys: [] },
);

function Tree({ box, text }: { box: BoxProps; text: TextProps }) {
  return (
    <Box width={24} {...box}>
      <Text {...text}>Ana Lima</Text>
      <Text>+1 555 0101</Text>
    </Box>
  );
}

function freshFrame(box: BoxProps, text: TextProps): string {
  const terminal = new FakeTerminal(40, 12);
  const instance = render(<Tree box={box} text={text} />, wholeFrameOptions(terminal));
  const frame = terminal.last;
  instance.unmount();
  return frame;
}

it('applies every prop and style given, changed or taken away, as a fresh Ink draws them', () => {
  plugDrawingIntoInk();
  const level = chalk.level;
  chalk.level = 3;
  onTestFinished(() => {
    chalk.level = level;
  });
  fc.assert(
    fc.property(fc.array(fc.tuple(boxProps, textProps), { minLength: 2, maxLength: 8 }), (steps) => {
      const terminal = new FakeTerminal(40, 12);
      const [first, ...rest] = steps as Array<[BoxProps, TextProps]>;
      if (!first) return;
      const instance = render(<Tree box={first[0]} text={first[1]} />, wholeFrameOptions(terminal));
      try {
        for (const [box, text] of rest) {
          instance.rerender(<Tree box={box} text={text} />);
          expect(terminal.last).toBe(freshFrame(box, text));
        }
      } finally {
        instance.unmount();
      }
    }),
    { numRuns: 150 },
  );
});
