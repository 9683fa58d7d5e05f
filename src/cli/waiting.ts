/**
 * What the command line adds to the shop's records: who wrote an inbound text
 * (a preview carries no lead or phone: a thread read must hold a text of the
 * same time and words). How long a customer has waited is the store's
 * definition (src/store/waiting.ts), the inbox's too.
 */
import type { InboundPreview, LeadDetail } from '../contract/resources.js';
import { leadOfPreview } from '../store/inbound-match.js';

/** The thread (among those read) holding an inbound text of the preview's time and words. */
export function threadOfPreview(
  preview: InboundPreview,
  threads: ReadonlyMap<string, LeadDetail>,
): LeadDetail | undefined {
  const leads = Object.fromEntries([...threads].map(([id, data]) => [id, { data, loading: false }]));
  return leadOfPreview({ leads }, preview);
}
