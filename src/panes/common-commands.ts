/**
 * Commands several panes share, each built for one pane: the filter or
 * search line, clearing it, texting the selected record's contact, and being
 * done with its conversation. One id each ("filter", "compose", "done"), so a
 * user's keymap changes them everywhere.
 */
import type { AppState } from '../store/app-store.js';
import { isDone, markDone, markRead } from '../store/conversation-marks.js';
import { inboxRows, searchText, threadEntryId, threadList } from '../store/selectors.js';
import { newestInboundAt } from '../store/waiting.js';
import { recipientLabel } from '../text/recipient.js';
import type { Command, CommandContext } from '../ui-kit/commands/command.js';

export function filterCommands(
  pane: string,
  words: { label: string; hint: string; clearLabel: string },
): Command[] {
  return [
    {
      id: 'filter',
      mode: 'pane',
      pane,
      keys: ['/'],
      label: words.label,
      hint: words.hint,
      run: (context) => context.ui.startSearch(),
    },
    {
      id: 'filter.clear',
      mode: 'pane',
      pane,
      keys: ['esc'],
      label: words.clearLabel,
      silentWhenOff: true,
      when: (context) => (searchText(context.state(), pane) ? true : 'nothing to clear'),
      run: (context) => context.ui.clearSearch(),
    },
  ];
}

/** c: text the contact of what is selected (writes: inert and hidden in read-only mode). */
export function composeCommand(
  pane: string,
  label: string,
  how: { when: (context: CommandContext) => true | string; run: (context: CommandContext) => void },
): Command {
  return { id: 'compose', mode: 'pane', pane, keys: ['c'], label, hint: 'text', writes: true, ...how };
}

/** What `y` copies in a pane: a name for it ("Ray Whitaker's phone number") and the text, or why there is none. */
export type Copyable = { what: string; text: string } | string;

/** y: copy what is selected (a phone number, a text, a link) to the terminal's clipboard, over SSH too. */
export function copyCommand(
  pane: string,
  copyable: (context: CommandContext) => Copyable,
  command: { id?: string; keys?: readonly string[]; label?: string; hint?: string } = {},
): Command {
  return {
    id: command.id ?? 'copy',
    mode: 'pane',
    pane,
    keys: command.keys ?? ['y'],
    label:
      command.label ?? 'copy the selected phone number, text or link to the clipboard (OSC 52, over SSH too)',
    hint: command.hint ?? 'copy',
    when: (context) => {
      const found = copyable(context);
      return typeof found === 'string' ? found : true;
    },
    run: (context) => {
      const found = copyable(context);
      if (typeof found !== 'string') context.ui.copy(found.what, found.text);
    },
  };
}

/** The lead done would apply to, or why there is none. */
function doneTarget(
  state: AppState,
  leadId: string | undefined,
): { leadId: string; name: string; phone: string; newest: number } | string {
  if (!leadId) return 'no lead is selected';
  const detail = state.leads[leadId]?.data;
  if (!detail) return "the lead's thread is not read yet: open it (enter) first";
  const newest = newestInboundAt(detail);
  if (newest === undefined) return 'the customer has not texted in this thread: nothing to be done with';
  if (isDone(state.conversations, leadId, newest))
    return 'already done: it comes back when the customer writes again';
  return { leadId, name: detail.contact.name, phone: detail.contact.phone, newest };
}

/** Marks the conversation done (and read): off the waiting list until the customer writes again. */
function markConversationDone(context: CommandContext, leadId: string | undefined): void {
  const target = doneTarget(context.state(), leadId);
  if (typeof target === 'string') return;
  context.store.setState((state) => ({
    conversations: markRead(
      markDone(state.conversations, target.leadId, target.newest),
      target.leadId,
      target.newest,
    ),
    notice: {
      text: `Done: ${recipientLabel({ name: target.name, phone: target.phone })} is off the waiting list until they write again (kept on this machine only).`,
      tone: 'success',
      at: context.ui.now(),
    },
  }));
}

/**
 * e: done with the conversation of the selected lead (or the thread's): off the waiting list until the customer
 * writes again. Kept by this inbox (it writes nothing to the shop), so it works read-only too.
 */
export function doneCommand(pane: string, leadIdOf: (state: AppState) => string | undefined): Command {
  return {
    id: 'done',
    mode: 'pane',
    pane,
    keys: ['e'],
    label: 'done: off the waiting list until the customer writes again (kept on this machine; read-only too)',
    hint: 'done',
    when: (context) => {
      const target = doneTarget(context.state(), leadIdOf(context.state()));
      return typeof target === 'string' ? target : true;
    },
    run: (context) => markConversationDone(context, leadIdOf(context.state())),
  };
}

/**
 * Opens a lead's thread on one of its texts: highlighted in the Inbox when the Inbox as shown lists the lead
 * (so the two agree), else the lead itself; the thread's selection on that text, not following the thread's end
 * (newer texts leave it selected).
 */
export function openThreadAtText(context: CommandContext, leadId: string, messageId: string): void {
  const state = context.state();
  const at = inboxRows(state).findIndex((row) => row.id === leadId);
  if (at === -1) context.ui.openThread({ list: 'lead', leadId });
  else {
    context.ui.select('inbox', at);
    context.ui.openThread({ list: 'inbox' });
  }
  const entries = threadList(context.state()).rows;
  const index = entries.findIndex((entry) => entry.kind === 'message' && entry.message.id === messageId);
  const entry = entries[index];
  if (entry)
    context.store.setState((now) => ({
      selection: { ...now.selection, thread: { id: threadEntryId(entry), index } },
    }));
}
