/** Contacts: the contact list, searched on the service by name or phone fragment (/). */
import { Box } from 'ink';
import { memo } from 'react';
import type { Contact } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import { listCount } from '../store/counts.js';
import { contactList, leadIdForContact, searchText, selectedContact } from '../store/selectors.js';
import { useAppState, useClockNow, useTheme } from '../ui-kit/app-context.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { Text } from '../ui-kit/components/text.js';
import { age, enumLabel, oneLine } from '../ui-kit/format.js';
import { composeCommand, copyCommand, filterCommands } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

const ContactRow = memo(function ContactRow({
  contact,
  selected,
  now,
}: {
  contact: Contact;
  selected: boolean;
  now: number;
}) {
  return (
    <Box width="100%">
      <Box flexGrow={1} flexBasis={0} minWidth={10}>
        <Text wrap="truncate-end" inverse={selected} bold={selected}>
          {oneLine(contact.name)}
        </Text>
      </Box>
      <Box width={14} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end">{oneLine(contact.phone)}</Text>
      </Box>
      <Box width={24} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end" dimColor={!contact.email}>
          {contact.email ? oneLine(contact.email) : 'no email'}
        </Text>
      </Box>
      <Box width={8} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end">{enumLabel(contact.stage)}</Text>
      </Box>
      <Box width={5} flexShrink={0} marginLeft={1}>
        <Text dimColor>{age(contact.last_contact_at, now)}</Text>
      </Box>
    </Box>
  );
});

function ContactsPane({ height, focused }: PaneProps) {
  const theme = useTheme();
  const loaded = useAppState((state) => statusOf(state.contacts));
  // The title names the search the list on screen answers, not one still on its way.
  const shown = useAppState((state) => state.contacts.loadedQuery ?? '');
  const asked = useAppState((state) => state.contacts.query);
  const search = useAppState((state) => ({
    text: searchText(state, 'contacts'),
    editing: state.searching && focused,
  }));
  const rows = useAppState((state) => contactList(state).rows);
  const selected = useSelectedIndex('contacts', contactList);
  const now = useClockNow();
  const pending = search.text.trim() !== asked || asked !== shown;
  return (
    <PaneFrame
      title={`Contacts${shown ? ` matching “${oneLine(shown)}”` : ''} ${listCount({ updatedAt: loaded.updatedAt, shown: rows.length, loaded: rows.length })}`}
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <Text
        color={search.editing ? theme.accent : undefined}
        dimColor={!search.editing && !search.text}
        wrap="truncate-end"
      >
        / {search.text || (search.editing ? '' : 'search by name or phone')}
        {search.editing ? '▏' : ''}
        {pending ? '  (searching…)' : ''}
      </Text>
      <ListWindow
        pane="contacts"
        items={rows}
        selected={selected}
        height={Math.max(1, frameContentRows(height) - 1)}
        rowKey={(item) => item.id}
        empty={loaded.updatedAt === undefined ? ' ' : shown ? 'No contact matches.' : 'No contacts.'}
        renderRow={(item, isSelected) => (
          <ContactRow contact={item} selected={isSelected && focused} now={now} />
        )}
      />
    </PaneFrame>
  );
}

export const contactsPane: PaneDescriptor = {
  id: 'contacts',
  title: 'Contacts',
  Component: ContactsPane,
  list: {
    identity: (state: AppState) => state.contacts.loadedQuery,
    of: contactList,
    noun: 'contact',
    rowLabel: (contact: Contact) => oneLine(contact.name),
  },
  reads: (state) => [{ kind: 'contacts', query: state.contacts.query }],
  // A search is answered later: the answer to the new query is still a change staff asked for.
  choices: (state) => [state.contacts.query, state.contacts.loadedQuery],
  filter: {
    asked: (state) => state.contacts.query,
    ask: (state, query) => ({
      update: { contacts: { ...state.contacts, query } },
      read: { kind: 'contacts', query },
    }),
  },
  commands: [
    {
      id: 'open',
      mode: 'pane',
      pane: 'contacts',
      keys: ['enter'],
      label: "open the selected lead's thread",
      hint: 'open thread',
      when: (context) => {
        const state = context.state();
        const contact = selectedContact(state);
        if (!contact) return 'no contact is selected';
        return leadIdForContact(state, contact)
          ? true
          : `${oneLine(contact.name)} has no lead in the inbox's lists: no thread to open (c texts them)`;
      },
      run: (context) => {
        const state = context.state();
        const contact = selectedContact(state);
        // From now on the thread is the lead of the contact highlighted here, until the Inbox is back.
        if (contact && leadIdForContact(state, contact)) context.ui.openThread({ list: 'contacts' });
      },
    },
    ...filterCommands('contacts', {
      label: 'search by name or phone fragment (on the service)',
      hint: 'search',
      clearLabel: 'clear the search',
    }),
    copyCommand('contacts', (context) => {
      const contact = selectedContact(context.state());
      return contact
        ? { what: `${oneLine(contact.name)}'s phone number`, text: contact.phone }
        : 'no contact is selected';
    }),
    composeCommand('contacts', 'text the selected contact', {
      when: (context) => (selectedContact(context.state()) ? true : 'no contact is selected'),
      run: (context) => {
        const contact = selectedContact(context.state());
        if (contact) context.ui.composeToContact(contact);
      },
    }),
  ],
};
