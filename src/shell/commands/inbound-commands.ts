/**
 * The keys while one of the Inbox's latest inbound texts is being chosen (I in the Inbox): j/k and the ends
 * choose, enter opens its thread at that text, esc gives the keys back to the list of leads. The global keys
 * (help, panes, refresh, the palette) work meanwhile; these hide the global ones they share (keymap.ts).
 */
import { movePick, openPreview, pickedPreview, previewOpens } from '../../panes/inbox.js';
import type { Command } from '../../ui-kit/commands/command.js';

/** A command that chooses the newest or the oldest of the latest inbound texts shown. */
function toEnd(
  end: 'newest' | 'oldest',
  command: Pick<Command, 'id' | 'keys' | 'label' | 'helpRow'>,
): Command {
  const step = end === 'newest' ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  return { ...command, mode: 'inbound', inPalette: false, run: (context) => movePick(context, step) };
}

export const INBOUND_COMMANDS: readonly Command[] = [
  {
    id: 'inbound.open',
    mode: 'inbound',
    keys: ['enter', 'i'],
    label: 'open the highlighted inbound text in its thread, at that text',
    hint: 'open',
    inPalette: false,
    when: (context) => {
      const { shown, index } = pickedPreview(context.state());
      return index < 0
        ? 'that text is no longer among the latest: j/k choose another'
        : previewOpens(
            context.state(),
            shown[index],
            index === 0 ? 'the latest inbound text' : 'that inbound text',
          );
    },
    run: (context) => {
      const { shown, index } = pickedPreview(context.state());
      const preview = shown[index];
      if (!preview) return;
      context.store.setState({ inboundPick: undefined });
      openPreview(context, preview);
    },
  },
  {
    id: 'inbound.down',
    mode: 'inbound',
    keys: ['j', 'down'],
    label: 'the next (older) inbound text',
    helpRow: { id: 'inbound.move', label: 'older / newer inbound text' },
    hint: 'choose',
    inPalette: false,
    run: (context) => movePick(context, 1),
  },
  {
    id: 'inbound.up',
    mode: 'inbound',
    keys: ['k', 'up'],
    label: 'the previous (newer) inbound text',
    helpRow: { id: 'inbound.move', label: 'older / newer inbound text' },
    inPalette: false,
    run: (context) => movePick(context, -1),
  },
  toEnd('newest', {
    id: 'inbound.newest',
    keys: ['g', 'home'],
    label: 'the newest inbound text',
    helpRow: { id: 'inbound.ends', label: 'newest / oldest inbound text' },
  }),
  toEnd('oldest', {
    id: 'inbound.oldest',
    keys: ['G', 'end'],
    label: 'the oldest inbound text',
    helpRow: { id: 'inbound.ends', label: 'newest / oldest inbound text' },
  }),
  // The block is a few texts: a page is all of it.
  toEnd('newest', {
    id: 'inbound.page-up',
    keys: ['ctrl-u', 'pgup'],
    label: 'a page up: the newest inbound text',
    helpRow: { id: 'inbound.page', label: 'a page up / down: the newest / oldest inbound text' },
  }),
  toEnd('oldest', {
    id: 'inbound.page-down',
    keys: ['ctrl-d', 'pgdn'],
    label: 'a page down: the oldest inbound text',
    helpRow: { id: 'inbound.page', label: 'a page up / down: the newest / oldest inbound text' },
  }),
  {
    id: 'inbound.back',
    mode: 'inbound',
    keys: ['esc', 'I', 'q'],
    label: 'back to the list of leads',
    hint: 'back',
    inPalette: false,
    run: (context) => context.store.setState({ inboundPick: undefined }),
  },
];
