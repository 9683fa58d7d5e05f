/** A pane's title line: the title keeps its width, the status gives way, and the separator between stays whole. */
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PaneFrame } from '../../src/ui-kit/components/pane-frame.js';
import { Text } from '../../src/ui-kit/components/text.js';

const SGR = new RegExp(`${'\u001B'}\\[[0-9;]*m`, 'g');

function titleLine(width: number, title: string, status: string): string {
  const { lastFrame, unmount } = render(
    <Box width={width}>
      <PaneFrame
        title={title}
        focused={false}
        width={width}
        height={4}
        status={<Text wrap="truncate-end">{status}</Text>}
      >
        <Text>row</Text>
      </PaneFrame>
    </Box>,
  );
  const frame = (lastFrame() ?? '').replace(SGR, '');
  unmount();
  return frame.split('\n')[1] ?? '';
}

describe('PaneFrame', () => {
  it('cuts the status, never the spaces of the " · " before it (seen: "Claim Now ·updated 0 s…")', () => {
    // The title is 30 columns; the frame's border and padding take 4.
    for (let width = 30; width <= 60; width += 1) {
      const line = titleLine(width, 'Thread — PRIZE DEPT␍␇Claim Now', 'updated 0 s ago');
      expect(line, `at ${width} columns`).not.toMatch(/·\S/);
      if (width >= 38) expect(line, `at ${width} columns`).toContain('Claim Now · ');
    }
  });

  it('shows the whole status when there is room', () => {
    expect(titleLine(80, 'Inbox — open leads (29)', 'updated 0 s ago')).toContain(
      'Inbox — open leads (29) · updated 0 s ago',
    );
  });
});
