import { describe, expect, it } from 'vitest';
import { KEYS, startTui } from '../support/tui.js';

describe('inbox smoke', () => {
  it('shows the shop and moves between panes', async () => {
    const tui = await startTui();
    await tui.waitFor('Rivera Plumbing');
    await tui.waitFor('Inbox — open leads');
    await tui.press('3');
    await tui.waitFor('Reviews (');
    await tui.press(KEYS.tab);
    await tui.waitFor('Actions —');
    await tui.press(KEYS.escape, '?');
    const help = await tui.waitFor('Keys — Actions');
    expect(tui.state().focus).toBe('actions');
    expect(help).toMatch(/a +approve the selected pending action/);
  });
});
