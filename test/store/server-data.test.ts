/**
 * Which fields of the state are the shop's data, from one list (STATE_FIELDS):
 * every field a new process starts with is classified, and forgetting the
 * server data when another key takes over puts exactly those fields back as a
 * new process has them, leaving what staff typed and chose alone.
 */
import { describe, expect, it } from 'vitest';
import {
  type AppState,
  initialState,
  SERVER_DATA_FIELDS,
  STATE_FIELDS,
  withoutServerData,
} from '../../src/store/app-store.js';
import { lineOf } from '../../src/store/line-editor.js';

describe('the fields of the state', () => {
  it('are each classified: those a new process starts with, and no others', () => {
    const started = Object.keys(initialState({ templatesProblem: 'x', readOnlyReason: 'flag' }));
    const classified = Object.keys(STATE_FIELDS);
    expect(started.filter((field) => !classified.includes(field))).toEqual([]);
    for (const field of classified)
      expect(['server', 'staff', 'process']).toContain(STATE_FIELDS[field as keyof AppState]);
  });

  it('the server data includes every list and record read, and what names the shop’s records', () => {
    expect([...SERVER_DATA_FIELDS].sort()).toEqual(
      [
        'actions',
        'apiSpec',
        'billing',
        'composer',
        'composerWaiting',
        'contacts',
        'decisions',
        'draftedReplies',
        'drafts',
        // The inbound text chosen with I: a text of this shop.
        'inboundPick',
        'inbox',
        'leads',
        'me',
        'phoneZones',
        'threadFrom',
        'presence',
        'prompt',
        'reviews',
        'seen',
        'selection',
        'sharing',
        'templatePicker',
        'textIdsBeforeSend',
        'threadNews',
        'texting',
        'today',
      ].sort(),
    );
  });
});

describe('withoutServerData', () => {
  it('puts every field of server data back as a new process has it, and touches nothing else', () => {
    // Every field holds something a shop or staff put there.
    const used = Object.fromEntries(
      Object.keys(STATE_FIELDS).map((field) => [field, { from: 'the old key', field }]),
    ) as unknown as AppState;
    used.contacts = { loading: false, query: 'ana', data: { items: [] } };
    used.composed = { ct_old: lineOf('half typed') };
    const update = withoutServerData(used);
    const fresh = initialState();
    expect(Object.keys(update).sort()).toEqual([...SERVER_DATA_FIELDS].sort());
    for (const field of SERVER_DATA_FIELDS) {
      if (field === 'contacts') continue;
      expect({ field, value: update[field] }).toEqual({ field, value: fresh[field] });
    }
    // The contacts search staff typed stays; the service's answer to it goes.
    expect(update.contacts).toEqual({ ...fresh.contacts, query: 'ana' });
    expect({ ...used, ...update }.composed).toEqual({ ct_old: lineOf('half typed') });
  });
});
