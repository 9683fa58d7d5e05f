/**
 * ctrl-l draws the whole screen again wherever the screen is: over a pane,
 * in the composer, a question, the help, the palette, the wallboard, the
 * key-refused screen. (What it draws, in a real terminal whose screen
 * something else wrote on: test/e2e/resize-pty.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { allContexts, buildKeymap } from '../../src/shell/commands/keymap.js';

describe('ctrl-l', () => {
  it('redraws in every context of the screen', () => {
    const keymap = buildKeymap();
    for (const context of allContexts())
      expect(keymap.resolve(context, 'ctrl-l')?.id, context).toBe('redraw');
  });

  it('can be moved to another key, like every command', () => {
    const keymap = buildKeymap({ redraw: 'ctrl-r' });
    expect(keymap.resolve('composer', 'ctrl-r')?.id).toBe('redraw');
    expect(keymap.resolve('composer', 'ctrl-l')).toBeUndefined();
  });
});
