/**
 * What the simulator's answers say about who was in touch besides the threads themselves: a contact's
 * `last_contact_at` and the names in Today's activity summaries. The reference gives both without saying
 * what sets them ("not shown"); a plausible shop moves them with every text and call (`plausible`, the
 * default). `none` makes the threads the only link between a text and its writer: summaries name nobody
 * and `last_contact_at` stays what it was when the simulator first showed the contact, so tests and the
 * bench can measure the inbox when the service gives no hint at all. The world keeps the truth either
 * way; only what the API shows changes.
 */
import type { SimActivity, SimContact } from './world.js';

export type HintMode = 'plausible' | 'none';

export const HINT_MODES: readonly HintMode[] = ['plausible', 'none'];

/** What a summary says when it may name nobody: its kind in words. */
const UNNAMED_SUMMARIES: Readonly<Record<string, string>> = {
  sms_inbound: 'New text',
  text_sent: 'Text sent',
  missed_call: 'Missed call',
  lead_created: 'New lead',
  action_published: 'Action published',
};

export interface Hints {
  readonly mode: HintMode;
  /** The contact's `last_contact_at` as the API shows it (ms). */
  contactTime(contact: SimContact): number;
  /** An activity item's summary as the API shows it. */
  summary(item: SimActivity): string;
}

/** `known`: the contacts there are when the simulator starts (their times are kept from then on). */
export function createHints(mode: HintMode, known: Iterable<SimContact> = []): Hints {
  if (mode === 'plausible') {
    return { mode, contactTime: (contact) => contact.lastContactAt, summary: (item) => item.summary };
  }
  // A contact added later keeps the time it was first shown with: when it was added.
  const frozen = new Map<string, number>();
  for (const contact of known) frozen.set(contact.id, contact.lastContactAt);
  return {
    mode,
    contactTime: (contact) => {
      let at = frozen.get(contact.id);
      if (at === undefined) {
        at = contact.lastContactAt;
        frozen.set(contact.id, at);
      }
      return at;
    },
    // Reviews name reviewers, not contacts: kept.
    summary: (item) => UNNAMED_SUMMARIES[item.kind] ?? item.summary,
  };
}
