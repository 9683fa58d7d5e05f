/**
 * What the command line prints with `--json`: one schema per command, the
 * contract with the scripts that read it. Field names are the service's
 * (snake_case), its records are passed on whole (fields this version does not
 * know included), and what the inbox adds has names of its own: `sender`
 * (who wrote an inbound text, when a thread read shows it), `waiting` (how long
 * a customer has waited for a reply), `findings` (what the checks before a
 * send found). The README shows an example of each, checked against these.
 */
import * as z from 'zod';
import { id, timestamp } from './primitives.js';
import {
  Action,
  Billing,
  Contact,
  InboundPreview,
  InboxLead,
  LeadDetail,
  Review,
  ShopOverview,
  TextingSetup,
} from './resources.js';

/** Any failure after the command line was read: also on stdout with --json, the same words on stderr. */
export const CliError = z.object({
  error: z.object({
    /** The shop's error code (unauthorized, read_only, rate_limited, not_found…) or the client's (network, timeout…), or settings. */
    code: z.string(),
    message: z.string(),
    exit_code: z.int(),
    retry_after: z.number().optional(),
  }),
});

/** How long a customer has waited: since their missed call (no text back yet) or their newest text. */
export const Waiting = z
  .object({
    since: timestamp,
    seconds: z.int().nonnegative(),
    why: z.enum(['missed_call', 'inbound_text']),
  })
  .nullable();

export const KeyModeOutput = z.object({
  mode: z.enum(['write', 'read', 'unknown']),
  /** For unknown: why; for read from the config: that read_only is set. */
  why: z.string().nullable(),
  /** Asked of the shop (a write that changes nothing), or read_only in config.json (not asked). */
  source: z.enum(['shop', 'config']),
});

export const OutboxOutput = z.union([
  z.object({
    path: z.string(),
    /** Texts of this key confirmed and not yet known sent. */
    waiting: z.int(),
    /** Entries of other keys (or unreadable by this version) in the same file. */
    others: z.int(),
    damage: z.object({ unreadable_bytes: z.int(), cut_short: z.boolean() }).nullable(),
    kept_aside: z.array(z.object({ path: z.string(), unreadable_bytes: z.int(), recovered: z.int() })),
  }),
  z.object({ path: z.string(), problem: z.string() }),
]);

export const StatusOutput = z.object({
  base_url: z.string(),
  key_source: z.enum(['key-file', 'env', 'config']),
  key_mode: KeyModeOutput,
  me: ShopOverview,
  billing: Billing,
  texting: TextingSetup,
  outbox: OutboxOutput,
});

/** The contact a thread the command read shows for an inbound text (previews carry no lead or phone). */
export const Sender = z
  .object({ lead_id: id, contact_id: id, name: z.string(), phone: z.string() })
  .nullable();

export const InboxOutput = z.object({
  filter: z.string(),
  /** The lists are all there is (shorter than the limit asked for); false: cut at the limit, no cursor. */
  complete: z.boolean(),
  leads: z.array(
    z.looseObject({
      ...InboxLead.shape,
      /** This lead's thread was read (the newest --threads leads): `waiting` is known. */
      thread_read: z.boolean(),
      waiting: Waiting,
    }),
  ),
  latest_inbound: z.array(z.looseObject({ ...InboundPreview.shape, sender: Sender })),
  threads_read: z.int().nonnegative(),
});

export const ThreadOutput = z.looseObject({
  ...LeadDetail.shape,
  consent_status: z.enum(['consent given', 'consent not given', 'no consent record', 'consent unknown']),
  /** The customer's latest keyword text is an opt-out word (STOP…), with no START or YES after it. */
  opted_out: z
    .object({ message_id: z.string().nullable(), occurred_at: z.string(), body: z.string() })
    .nullable(),
  waiting: Waiting,
});

export const ContactsOutput = z.object({
  query: z.string().nullable(),
  complete: z.boolean(),
  items: z.array(Contact),
});

export const ReviewsOutput = z.object({
  unreplied_only: z.boolean(),
  complete: z.boolean(),
  /** As the shop counts it on the page it gave (before --unreplied). */
  unreplied_in_page: z.int(),
  items: z.array(Review),
});

export const ActionsOutput = z.object({
  status: z.string().nullable(),
  complete: z.boolean(),
  items: z.array(Action),
});

/** One thing a check before sending found, and what lets the text go all the same. */
export const FindingOutput = z.object({
  check: z.string(),
  level: z.enum(['block', 'strong', 'warn']),
  tag: z.string(),
  message: z.string(),
  /** The flag that sends anyway (--yes, --consent-ok, --override); null: nothing does. */
  flag: z.string().nullable(),
  /** That flag was given (or the question on a terminal was answered so). */
  allowed: z.boolean(),
});

export const SendOutput = z.object({
  /**
   * sent; replayed (the shop had this Idempotency-Key: nothing new was sent); refused (a check, or the
   * answer no: nothing sent, no outbox entry); waiting (not known sent: kept in the outbox with its key,
   * sent by the same command again or any inbox of this key); not_sent (the shop refused it: nothing sent).
   */
  outcome: z.enum(['sent', 'replayed', 'refused', 'waiting', 'not_sent']),
  contact: z.object({ id: z.string(), name: z.string(), phone: z.string() }),
  body: z.string(),
  idempotency_key: z.string().nullable(),
  /** Taken over from the outbox: a send of the same text that did not finish (same key, or same contact and words). */
  resumed: z.boolean(),
  consent: z.object({
    status: z.enum(['consent given', 'consent not given', 'no consent record', 'consent unknown']),
    recorded_at: z.string().nullable(),
  }),
  customer_time: z.object({
    text: z.string(),
    quiet: z.boolean(),
    zones: z.array(z.object({ zone: z.string(), time: z.string(), quiet: z.boolean() })),
  }),
  findings: z.array(FindingOutput),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const ApproveOutput = z.object({
  /** approved; already_published (nothing changed); refused (not confirmed: nothing done); not_approved (the shop refused); unknown (the answer was lost and the shop could not say). */
  outcome: z.enum(['approved', 'already_published', 'refused', 'not_approved', 'unknown']),
  action: Action,
  /** The action's status as the shop gave it last. */
  status: z.string(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

/** Every --json document, by command: the README's examples are checked against these. */
export const CLI_OUTPUTS = {
  status: StatusOutput,
  inbox: InboxOutput,
  thread: ThreadOutput,
  contacts: ContactsOutput,
  reviews: ReviewsOutput,
  actions: ActionsOutput,
  send: SendOutput,
  approve: ApproveOutput,
  error: CliError,
} as const;

export type StatusOutput = z.infer<typeof StatusOutput>;
export type InboxOutput = z.infer<typeof InboxOutput>;
export type ThreadOutput = z.infer<typeof ThreadOutput>;
export type SendOutput = z.infer<typeof SendOutput>;
export type ApproveOutput = z.infer<typeof ApproveOutput>;
export type FindingOutput = z.infer<typeof FindingOutput>;
