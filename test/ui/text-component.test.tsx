/**
 * The one component that draws text: whatever string reaches it (nested, or
 * among other children, from any source) is sanitized before Ink sees it.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Text } from '../../src/ui-kit/components/text.js';
import { INJECTION_PAYLOADS } from '../support/hostile-server.js';

/** Ink's own styling (bold), the one escape sequence it may write. */
const SGR = new RegExp(`${'\u001B'}\\[[0-9;]*m`, 'g');

describe('Text', () => {
  it('sanitizes every string child, nested or not, whatever the caller forgot', () => {
    for (const payload of INJECTION_PAYLOADS.filter((each) => each.kind === 'control')) {
      const { lastFrame, unmount } = render(
        <Text>
          id {payload.text} · <Text bold>{`kind ${payload.text}`}</Text> {7}
        </Text>,
      );
      const frame = lastFrame() ?? '';
      unmount();
      // Ink's own styling (bold) is the only escape sequence left, and no other control.
      const withoutStyles = frame.replace(SGR, '');
      expect(withoutStyles, payload.name).not.toMatch(/(?!\n)[\p{Cc}\u202A-\u202E\u2066-\u2069]/u);
      expect(withoutStyles).toContain('id ');
      expect(withoutStyles).toContain(' 7');
    }
  });
});
