/**
 * One slot read through a client: the one place that knows which call fills
 * which part of the screen. The poller reads with it, and so does a hub when
 * another terminal of the box asks it for a read.
 */
import type { CallOptions, ShopClient } from '../api/client.js';
import { LIST_LIMIT } from '../store/counts.js';
import type { Slot } from './refresh-plan.js';
import type { SlotData } from './store-writes.js';

export function readSlot(
  client: ShopClient,
  slot: Slot,
  call: CallOptions,
  pageSize = LIST_LIMIT,
): Promise<SlotData> {
  const limit = pageSize;
  switch (slot.kind) {
    case 'me':
      return client.getMe(call);
    case 'today':
      return client.getToday({ limit }, call);
    case 'billing':
      return client.getBilling(call);
    case 'texting':
      return client.getTexting(call);
    case 'apiSpec':
      return client.getOpenApi(call);
    case 'inbox':
      return client.getInbox({ filter: slot.filter, limit }, call);
    case 'contacts':
      return client.getContacts({ ...(slot.query ? { q: slot.query } : {}), limit }, call);
    case 'lead':
      return client.getLead(slot.id, { limit: LIST_LIMIT }, call);
    case 'reviews':
      return client.getReviews({ limit }, call);
    case 'actions':
      return client.getActions({ status: slot.status, limit }, call);
  }
}
