/**
 * Looks up the zones of the number the composer is open on (and of the
 * shop's texting number, when the config names no zone) and keeps them in the
 * store, once per number: the pre-send checks read them from there. Nothing is
 * looked up, and the phone libraries are not loaded, until a composer opens.
 */

import { lookupPhoneZones, type PhoneZoneLookup, type PhoneZoneOptions } from '../rules/phone-zones.js';
import type { AppState, AppStore } from '../store/app-store.js';
import { shopTextingNumber } from '../user-actions/pre-send-facts.js';

/** The number a text is being written to: the composer's, the send question's, or a lead's still being read. */
function recipientPhone(state: AppState): string | undefined {
  if (state.composer) return state.composer.phone;
  if (state.prompt?.kind === 'confirm-send') return state.prompt.target.phone;
  return state.composerWaiting?.phone;
}

export function followPhoneZones(store: AppStore, lookup: PhoneZoneLookup = lookupPhoneZones): () => void {
  let stopped = false;
  const asked = new Set<string>();
  const ensure = (phone: string, options: PhoneZoneOptions) => {
    if (asked.has(phone) || store.getState().phoneZones[phone] !== undefined) return;
    asked.add(phone);
    store.setState((state) => ({ phoneZones: { ...state.phoneZones, [phone]: 'looking up' } }));
    void lookup(phone, options).then((zones) => {
      if (!stopped) store.setState((state) => ({ phoneZones: { ...state.phoneZones, [phone]: zones } }));
    });
  };
  const follow = (state: AppState) => {
    const phone = recipientPhone(state);
    if (!phone) return;
    const home = shopTextingNumber(state);
    if (home && !state.configTimeZone) ensure(home, {});
    ensure(phone, { homeNumber: home });
  };
  follow(store.getState());
  const unsubscribe = store.subscribe(follow);
  return () => {
    stopped = true;
    unsubscribe();
  };
}
