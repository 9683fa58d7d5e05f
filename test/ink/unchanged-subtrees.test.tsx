/**
 * The patched Ink draws again only the subtrees something changed in since the last frame: every change
 * of a node (a child added, moved or removed, a style, an attribute, a text, a transform, hidden or shown)
 * marks it and the nodes above it, and a subtree left unmarked, at the same place and size under the same
 * transformers, writes what it wrote then (patches/README.md). A mark forgotten anywhere would leave old
 * text on the screen. Here a random tree of boxes and texts is changed step by step in one Ink, and after
 * every step its frame is compared with the frame the same Ink draws with every node marked changed.
 * (Not with a fresh Ink drawing the tree from nothing: Ink's layout after some changes, such as a padding
 * given to a row of texts, differs from a fresh layout of the same tree, with or without this patch.)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import chalk from 'chalk';
import fc from 'fast-check';
import { Box, render } from 'ink';
import { memo, useState } from 'react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Text } from '../../src/ui-kit/components/text.js';
import { plugDrawingIntoInk } from '../../src/ui-kit/ink-drawing.js';
import { FakeTerminal, wholeFrameOptions } from '../support/fake-terminal.js';

type Spec =
  | {
      kind: 'box';
      key: string;
      direction: 'row' | 'column';
      width?: number;
      height?: number;
      padding: number;
      border: boolean;
      borderColor?: string;
      hidden: boolean;
      clip: boolean;
      grow: number;
      children: Spec[];
    }
  | {
      kind: 'text';
      key: string;
      text: string;
      color?: string;
      bold: boolean;
      inverse: boolean;
      wrap: 'wrap' | 'truncate-end';
      inner?: { text: string; color?: string };
    };

const words = fc.constantFrom(
  'Ana Lima',
  '+1 555 0101',
  'Any update?',
  '漢字 名前',
  'ok',
  '',
  'a longer line of words to wrap',
);
const color = fc.option(fc.constantFrom('red', 'cyan', 'green', '#ff8800'), { nil: undefined });

const textSpec = (key: string): fc.Arbitrary<Spec> =>
  fc.record({
    kind: fc.constant('text' as const),
    key: fc.constant(key),
    text: words,
    color,
    bold: fc.boolean(),
    inverse: fc.boolean(),
    wrap: fc.constantFrom('wrap' as const, 'truncate-end' as const),
    inner: fc.option(fc.record({ text: words, color }), { nil: undefined }),
  });

const boxSpec = (key: string, depth: number): fc.Arbitrary<Spec> =>
  fc.record({
    kind: fc.constant('box' as const),
    key: fc.constant(key),
    direction: fc.constantFrom('row' as const, 'column' as const),
    width: fc.option(fc.integer({ min: 6, max: 30 }), { nil: undefined }),
    height: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
    padding: fc.integer({ min: 0, max: 1 }),
    border: fc.boolean(),
    borderColor: color,
    hidden: fc.boolean().map((hidden) => hidden && depth > 0),
    clip: fc.boolean(),
    grow: fc.integer({ min: 0, max: 1 }),
    children:
      depth >= 2
        ? fc
            .array(fc.nat({ max: 5 }), { maxLength: 3 })
            .chain((ids) => fc.tuple(...ids.map((id) => textSpec(`t${id}`))))
        : fc
            .array(fc.tuple(fc.nat({ max: 5 }), fc.boolean()), { maxLength: 3 })
            .chain((ids) =>
              fc.tuple(
                ...ids.map(([id, isBox]) => (isBox ? boxSpec(`b${id}`, depth + 1) : textSpec(`t${id}`))),
              ),
            ),
  });

/** Children keyed as React needs: the same key twice among siblings keeps only the first. */
const uniqueChildren = (children: Spec[]) =>
  children.filter((child, index) => children.findIndex((other) => other.key === child.key) === index);

/**
 * Memoized as the inbox's rows are: a subtree whose spec object is the same is not rendered again, so its
 * nodes are left unmarked and drawn from the last frame, while a change beside or inside it is drawn anew.
 */
const Tree = memo(function TreeNode({ spec }: { spec: Spec }) {
  if (spec.kind === 'text') {
    return (
      <Text color={spec.color} bold={spec.bold} inverse={spec.inverse} wrap={spec.wrap}>
        {spec.text}
        {spec.inner ? <Text color={spec.inner.color}> {spec.inner.text}</Text> : null}
      </Text>
    );
  }
  return (
    <Box
      flexDirection={spec.direction}
      width={spec.width}
      height={spec.height}
      padding={spec.padding}
      borderStyle={spec.border ? 'single' : undefined}
      borderColor={spec.borderColor}
      display={spec.hidden ? 'none' : 'flex'}
      overflow={spec.clip ? 'hidden' : 'visible'}
      flexGrow={spec.grow}
    >
      {uniqueChildren(spec.children).map((child) => (
        <Tree key={child.key} spec={child} />
      ))}
    </Box>
  );
});

/** One small change somewhere in the tree, as a live screen makes them: the rest keeps its objects. */
type Change = { at: number; kind: number; value: number; text: string; another: Spec };
const change = fc.record({
  at: fc.nat(),
  kind: fc.nat({ max: 9 }),
  value: fc.integer({ min: 6, max: 30 }),
  text: words,
  another: fc.oneof(textSpec('t9'), boxSpec('b9', 2)),
});

function changed(spec: Spec, { at, kind, value, text, another }: Change): Spec {
  let index = at % count(spec);
  const visit = (node: Spec): Spec => {
    if (index-- === 0) return changeOne(node);
    if (node.kind === 'text') return node;
    const children = node.children.map(visit);
    return children.every((child, position) => child === node.children[position])
      ? node
      : { ...node, children };
  };
  const changeOne = (node: Spec): Spec => {
    if (node.kind === 'text') {
      if (kind < 4) return { ...node, text };
      if (kind < 6) return { ...node, color: node.color === 'red' ? 'cyan' : 'red' };
      if (kind < 8) return { ...node, inner: node.inner ? undefined : { text, color: undefined } };
      return { ...node, bold: !node.bold };
    }
    switch (kind) {
      case 0:
        return { ...node, width: value };
      case 1:
        return { ...node, height: Math.min(value, 8) };
      case 2:
        return { ...node, hidden: !node.hidden };
      case 3:
        return { ...node, border: !node.border };
      case 4:
        return { ...node, borderColor: node.borderColor === 'red' ? 'green' : 'red' };
      case 5:
        return { ...node, children: node.children.slice(1) };
      case 6:
        return { ...node, children: [...node.children].reverse() };
      case 7:
        return { ...node, children: [another, ...node.children] };
      case 8:
        return { ...node, padding: node.padding === 0 ? 1 : 0 };
      default:
        return { ...node, direction: node.direction === 'row' ? 'column' : 'row' };
    }
  };
  return visit(spec);
}

function count(spec: Spec): number {
  return spec.kind === 'text' ? 1 : 1 + spec.children.reduce((sum, child) => sum + count(child), 0);
}

interface InkNode {
  childNodes?: InkNode[];
  internal_changed?: boolean;
}
interface InkInstance {
  rootNode: InkNode;
  onRender(): void;
}
// Ink's package exports only its entry; its table of instances is loaded by its path in node_modules.
const instances = (
  (await import(pathToFileURL(resolve('node_modules', 'ink', 'build', 'instances.js')).href)) as {
    default: WeakMap<object, InkInstance>;
  }
).default;

/** The frame the same Ink draws when every node counts as changed (nothing drawn from the last frame). */
function frameDrawnWhole(terminal: FakeTerminal): string {
  const ink = instances.get(terminal);
  if (!ink) throw new Error('no Ink draws to this terminal');
  const markAll = (node: InkNode) => {
    node.internal_changed = true;
    for (const child of node.childNodes ?? []) markAll(child);
  };
  markAll(ink.rootNode);
  // The layout as it is: Yoga laid out again after some changes differs from its first layout (see above).
  ink.onRender();
  return terminal.last;
}

/** The tree, changed from inside as the inbox's store changes it (a `rerender` would draw Ink's whole app anew). */
let showSpec: (spec: Spec) => void = () => {};
function Root({ first }: { first: Spec }) {
  const [spec, setSpec] = useState(first);
  showSpec = setSpec;
  return <Tree spec={spec} />;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Shows `first`, then each change at its width, and compares every frame with the one the same Ink draws whole. */
async function compareStepByStep(
  first: Spec,
  steps: ReadonlyArray<readonly [Change, number]>,
): Promise<void> {
  const terminal = new FakeTerminal();
  const instance = render(<Root first={first} />, wholeFrameOptions(terminal));
  let spec = first;
  try {
    for (const [step, columns] of steps) {
      spec = changed(spec, step);
      if (columns !== terminal.columns) {
        terminal.columns = columns;
        terminal.emit('resize');
      }
      showSpec(spec);
      await turn();
      const drawn = terminal.last;
      expect(drawn).toBe(frameDrawnWhole(terminal));
    }
  } finally {
    instance.unmount();
  }
}

/** Colours, bold and inverse in the frames for this test (there is no terminal here), so that a stale style shows. */
function withColours(): void {
  const level = chalk.level;
  chalk.level = 3;
  onTestFinished(() => {
    chalk.level = level;
  });
}

describe('Ink drawing only what changed', () => {
  it('draws after every change the frame it draws when every node counts as changed', async () => {
    plugDrawingIntoInk();
    withColours();
    await fc.assert(
      fc.asyncProperty(
        boxSpec('root', 0),
        fc.array(fc.tuple(change, fc.constantFrom(40, 40, 40, 40, 25)), { minLength: 1, maxLength: 12 }),
        (first, steps) => compareStepByStep(first, steps),
      ),
      { numRuns: 200 },
    );
  });

  it('draws anew what Yoga laid out again inside a box that kept its place and size (found by the property)', async () => {
    plugDrawingIntoInk();
    const text = (key: string, words: string, inner?: string): Spec => ({
      kind: 'text',
      key,
      text: words,
      bold: false,
      inverse: false,
      wrap: 'wrap',
      ...(inner ? { inner: { text: inner } } : {}),
    });
    const box = (key: string, children: Spec[]): Spec => ({
      kind: 'box',
      key,
      direction: 'row',
      padding: 0,
      border: false,
      hidden: false,
      clip: false,
      grow: 0,
      children,
    });
    const name = 'Ana Lima';
    const first = box('root', [
      text('t5', name),
      // b0's second t0 is not drawn (keys are unique among siblings) but counts where a change lands.
      box('b2', [box('b0', [text('t0', name), text('t0', name)]), text('t0', name)]),
      box('b3', [text('t0', name), text('t1', name, name)]),
    ]);
    const empty = box('b9', []);
    // The whole row squeezed into 6 columns, a text changed, then 9 columns: the rows of texts inside are
    // laid out again, some boxes keeping their size while what is inside them moves.
    const steps: Change[] = [
      { at: 0, kind: 0, value: 6, text: name, another: empty },
      { at: 1415457861, kind: 0, value: 6, text: '+1 555 0101', another: empty },
      { at: 0, kind: 0, value: 9, text: name, another: empty },
    ];
    await compareStepByStep(
      first,
      steps.map((step) => [step, 40] as const),
    );
  });

  it('writes again, without visiting it, a subtree nothing changed in beside one that changed', async () => {
    plugDrawingIntoInk();
    const terminal = new FakeTerminal();
    let setWords: (words: string) => void = () => {};
    const Still = memo(function Still() {
      return (
        <Box flexDirection="column" width={12}>
          <Text>left alone</Text>
          <Box display="none">
            <Text>hidden</Text>
          </Box>
          <Text>and still</Text>
        </Box>
      );
    });
    function Pair() {
      const [words, set] = useState('first');
      setWords = set;
      return (
        <Box flexDirection="row">
          <Still />
          <Box width={12}>
            <Text>{words}</Text>
          </Box>
        </Box>
      );
    }
    const instance = render(<Pair />, wholeFrameOptions(terminal));
    try {
      const ink = instances.get(terminal);
      const still = ink?.rootNode.childNodes?.[0]?.childNodes?.[0] as
        | (InkNode & { internal_drawn?: object })
        | undefined;
      const before = still?.internal_drawn;
      expect(before).toBeDefined();
      setWords('second');
      await turn();
      expect(terminal.last).toContain('second');
      expect(terminal.last).toContain('left alone');
      // Written from its last frame: what it remembers is the same object, not one made by a new visit.
      expect(still?.internal_drawn).toBe(before);
    } finally {
      instance.unmount();
    }
  });

  it('cuts a text that stayed where it was at the clip of its box as the box is now', async () => {
    const terminal = new FakeTerminal();
    let setSize: (size: { width: number; height: number }) => void = () => {};
    const lines = ['one 1 one', 'two 2 two', 'three 3', 'four 4 four', 'five 5 five'];
    function Clipped() {
      const [size, set] = useState({ width: 12, height: 5 });
      setSize = set;
      // The frame keeps its height (5 rows): only the clip changes.
      return (
        <Box height={5} width={20} flexDirection="column">
          <Box
            width={size.width}
            height={size.height}
            overflow="hidden"
            flexDirection="column"
            flexShrink={0}
          >
            <Box flexShrink={0} width={12} height={5}>
              <Text>{lines.join('\n')}</Text>
            </Box>
          </Box>
        </Box>
      );
    }
    const instance = render(<Clipped />, wholeFrameOptions(terminal));
    try {
      const rows = () => terminal.last.split('\n').map((row) => row.trimEnd());
      expect(rows()).toEqual(lines);
      // The box is shorter, the text inside it the same at the same place: it is cut at the box's new bottom.
      setSize({ width: 12, height: 3 });
      await turn();
      expect(rows()).toEqual([...lines.slice(0, 3), '', '']);
      // Narrower: cut at the box's new right edge.
      setSize({ width: 5, height: 3 });
      await turn();
      expect(rows()).toEqual(['one 1', 'two 2', 'three', '', '']);
      setSize({ width: 12, height: 5 });
      await turn();
      expect(rows()).toEqual(lines);
    } finally {
      instance.unmount();
    }
  });

  it('gives each style its own transform: texts of different styles draw in their own', () => {
    withColours();
    const terminal = new FakeTerminal();
    const styles = [
      { color: 'red' },
      { color: 'green' },
      { color: 'green', bold: true },
      { color: 'green', inverse: true },
      { color: 'green', dimColor: true },
      { color: 'green', italic: true },
      { color: 'green', underline: true },
      { color: 'green', strikethrough: true },
      { color: 'green', bold: true, italic: true, underline: true, strikethrough: true, inverse: true },
      { color: 'green', backgroundColor: 'red' },
      { backgroundColor: 'green' },
      {},
    ];
    const instance = render(
      <Box flexDirection="column">
        {styles.map((style) => (
          <Text key={JSON.stringify(style)} {...style}>
            x
          </Text>
        ))}
      </Box>,
      wholeFrameOptions(terminal),
    );
    const rows = terminal.last.split('\n');
    instance.unmount();
    expect(new Set(rows).size).toBe(styles.length);
    expect(rows[0]).toBe(chalk.red('x'));
    expect(rows[2]).toBe(chalk.bold(chalk.green('x')));
  });
});
