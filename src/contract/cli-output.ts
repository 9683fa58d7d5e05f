/**
 * What the command line prints with `--json`: one schema per command, the
 * contract with the scripts that read it. Field names are the service's
 * (snake_case), its records are passed on whole (fields this version does not
 * know included), and what the inbox adds has names of its own: `sender`
 * (who wrote an inbound text, when a thread read shows it), `waiting` (how long
 * a customer has waited for a reply), `findings` (what the checks before a
 * send found). Each field the inbox adds or shapes says what it means in its
 * description, which `npm run docs` lists; docs/cli.md shows an example of each
 * command, checked against these.
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

/**
 * The JSON Schema keyword that marks an object built on one of the shop's records: its value names the
 * record and the fields that are the record's (the others are the inbox's).
 */
export const SHOP_RECORD_KEYWORD = 'x-shop-record';

export interface ShopRecordMark {
  record: string;
  fields: string[];
}

/**
 * One of the shop's records passed on whole with fields the inbox adds, parsed as one loose object. The
 * record's id and field names go in the metadata, since a spread shape leaves no trace in the JSON Schema.
 */
function shopRecordWith<Shape extends z.ZodRawShape, Added extends z.ZodRawShape>(
  record: z.ZodObject<Shape, z.core.$loose>,
  added: Added,
) {
  const mark: ShopRecordMark = {
    record: z.globalRegistry.get(record)?.id ?? 'a record of the shop',
    fields: Object.keys(record.shape),
  };
  return z.looseObject({ ...record.shape, ...added }).meta({ [SHOP_RECORD_KEYWORD]: mark });
}

const ListComplete = z
  .boolean()
  .describe(
    'true: the list is all there is (shorter than --limit); false: it was cut at --limit (no cursor)',
  );

const ConsentStatus = z.enum(['consent given', 'consent not given', 'no consent record', 'consent unknown']);

/** What failed: the code's meaning names the codes of the command's own. */
const failure = (codes: string) =>
  z.object({
    code: z.string().describe(codes),
    message: z.string().describe('what went wrong, in plain words'),
  });

export const CliError = z
  .object({
    error: z
      .object({
        code: z
          .string()
          .describe(
            "the shop's error code (unauthorized, no_subscription, read_only, not_found, rate_limited…), the client's (network, timeout, server, redirect…), or the command's own (settings, ambiguous, idempotency_key_reused, outbox)",
          ),
        message: z.string().describe('what went wrong, in plain words: the same words as on stderr'),
        exit_code: z.int().describe('the exit code the command ends with'),
        retry_after: z
          .number()
          .describe('seconds the shop asked to wait before trying again (rate_limited)')
          .optional(),
      })
      .describe('the failure'),
  })
  .describe(
    'any failure after the command line was read: also on stdout with --json, the same words on stderr',
  );

export const Waiting = z
  .object({
    since: timestamp.describe("when the wait began: the missed call, or the customer's newest text"),
    seconds: z.int().nonnegative().describe('how long they have waited, in seconds, when the command ran'),
    why: z
      .enum(['missed_call', 'inbound_text'])
      .describe(
        'missed_call: a missed call on the callbacks list, no text back; inbound_text: the newest text is theirs',
      ),
  })
  .nullable()
  .describe(
    'how long the customer has waited for a reply; null: nobody waits, or the thread was not read (thread_read)',
  );

export const KeyModeOutput = z
  .object({
    mode: z
      .enum(['write', 'read', 'unknown'])
      .describe('write: the key may change things; read: it may only read; unknown: no clear answer (why)'),
    why: z
      .string()
      .nullable()
      .describe('for unknown: why; for read from the config: that read_only is set; otherwise null'),
    source: z
      .enum(['shop', 'config'])
      .describe(
        'shop: asked of the shop (a write that changes nothing); config: read_only is set in config.json (not asked)',
      ),
  })
  .describe('what the key may do');

export const OutboxOutput = z
  .union([
    z
      .object({
        path: z.string().describe('the outbox file'),
        waiting: z.int().describe('texts of this key confirmed and not yet known sent'),
        others: z.int().describe('entries of other keys (or unreadable by this version) in the same file'),
        damage: z
          .object({
            unreadable_bytes: z.int().describe('bytes that could not be read as entries'),
            cut_short: z
              .boolean()
              .describe('its first or last line is missing: entries may be missing without a trace'),
          })
          .nullable()
          .describe(
            'the file is damaged (the next inbox of this key keeps what it can read and sets the file aside); null: it is not',
          ),
        kept_aside: z
          .array(
            z.object({
              path: z.string().describe('the damaged file, kept byte for byte'),
              unreadable_bytes: z.int().describe('bytes of it that could not be read as entries'),
              recovered: z.int().describe('entries read whole from it (they stay in the outbox)'),
            }),
          )
          .describe('damaged files set aside earlier, oldest first'),
      })
      .describe('the file was read'),
    z
      .object({
        path: z.string().describe('the outbox file'),
        problem: z.string().describe('why it cannot be read'),
      })
      .describe('the file cannot be read'),
  ])
  .describe("this key's outbox: texts confirmed and not yet known sent");

export const StatusOutput = z
  .object({
    base_url: z.string().describe("the shop's API root the command used"),
    key_source: z
      .enum(['key-file', 'env', 'config'])
      .describe('where the key came from: --key-file, SHOP_API_KEY, or the saved login'),
    key_mode: KeyModeOutput,
    me: ShopOverview.describe("the shop's overview (GET /me), whole"),
    billing: Billing.describe("the shop's billing (GET /billing), whole"),
    texting: TextingSetup.describe("the shop's texting setup (GET /texting), whole"),
    outbox: OutboxOutput,
  })
  .describe("the key, the shop's three answers and this key's outbox");

export const Sender = z
  .object({
    lead_id: id.describe('the lead whose thread holds the text'),
    contact_id: id.describe("the lead's contact"),
    name: z.string().describe("the contact's name"),
    phone: z.string().describe("the contact's number"),
  })
  .nullable()
  .describe(
    'who wrote the text: the contact of a thread read that holds a text of the same time and words (previews carry no lead or phone); null: no thread read shows it',
  );

export const InboxOutput = z
  .object({
    filter: z
      .string()
      .describe('the list read, as the shop names it: open, or callbacks (missed calls nobody texted back)'),
    complete: z
      .boolean()
      .describe(
        'true: the lists are all there is (shorter than --limit); false: one was cut at --limit (no cursor)',
      ),
    leads: z
      .array(
        shopRecordWith(InboxLead, {
          thread_read: z
            .boolean()
            .describe("this lead's thread was read (the newest --threads leads): waiting is known"),
          waiting: Waiting,
        }),
      )
      .describe('the leads of that list, as the shop gives them, each with what the inbox adds'),
    latest_inbound: z
      .array(shopRecordWith(InboundPreview, { sender: Sender }))
      .describe('the newest inbound texts, as the shop gives them, each with its sender'),
    threads_read: z.int().nonnegative().describe('how many threads were read (the newest --threads leads)'),
  })
  .describe('the inbox: its leads and newest inbound texts, who wrote each text and who waits for a reply');

export const ThreadOutput = shopRecordWith(LeadDetail, {
  consent_status: ConsentStatus.describe("the composer's words for consent_latest"),
  opted_out: z
    .object({
      message_id: z.string().nullable().describe("the text's id; null: the shop gave none"),
      occurred_at: z.string().describe('when it was received'),
      body: z.string().describe('its words'),
    })
    .nullable()
    .describe(
      "the customer's latest keyword text, when it is an opt-out word (STOP…) with no START or YES after it; null: none",
    ),
  waiting: Waiting,
}).describe('one lead as GET /leads/{id} gives it, with what the inbox adds');

export const ContactsOutput = z
  .object({
    query: z
      .string()
      .nullable()
      .describe("the shop's search asked for (part of a name, or digits of a number); null: none"),
    complete: ListComplete,
    items: z.array(Contact).describe('the contacts the shop listed'),
  })
  .describe("the shop's contact list, passed on whole");

export const ReviewsOutput = z
  .object({
    unreplied_only: z.boolean().describe('--unreplied was given: items holds only the reviews with no reply'),
    complete: ListComplete,
    unreplied_in_page: z
      .int()
      .describe('unreplied reviews as the shop counts them on the page it gave (before --unreplied)'),
    items: z.array(Review).describe('the reviews the shop listed'),
  })
  .describe("the shop's reviews, passed on whole");

export const ActionsOutput = z
  .object({
    status: z.string().nullable().describe('the --status asked for; null: every status'),
    complete: ListComplete,
    items: z.array(Action).describe('the actions the shop listed, newest first'),
  })
  .describe("the shop's agent actions, passed on whole");

export const FindingOutput = z
  .object({
    check: z.string().describe('which check found it (stable: a script may look for it)'),
    level: z
      .enum(['block', 'strong', 'warn'])
      .describe(
        'block: sent only with its flag, when it has one; strong: a word typed on a terminal sends it; warn: y on a terminal',
      ),
    tag: z.string().describe('a few words for a one-line summary (opted out, quiet hours…)'),
    message: z.string().describe('what it found, in plain words'),
    flag: z
      .string()
      .nullable()
      .describe('the flag that sends anyway (--yes, --consent-ok, --override); null: nothing does'),
    allowed: z.boolean().describe('that flag was given (or the question on a terminal was answered so)'),
  })
  .describe('one thing a check before sending found, and what lets the text go all the same');

export const SendOutput = z
  .object({
    outcome: z
      .enum(['sent', 'replayed', 'refused', 'waiting', 'not_sent'])
      .describe(
        'sent; replayed (the shop had this Idempotency-Key: nothing new was sent); refused (a check, or the answer no: nothing sent, no outbox entry); waiting (not known sent: kept in the outbox with its key, sent by the same command again or any inbox of this key); not_sent (the shop refused it, or the outbox could not be written: nothing sent)',
      ),
    contact: z
      .object({
        id: z.string().describe("the contact's id"),
        name: z.string().describe("the contact's name"),
        phone: z.string().describe('the number the text goes to'),
      })
      .describe('who the text is for, as the shop lists them'),
    body: z.string().describe('the text, exactly as it is (or would have been) sent'),
    idempotency_key: z
      .string()
      .nullable()
      .describe('the Idempotency-Key the text is sent with; null: refused, so none was used'),
    resumed: z
      .boolean()
      .describe(
        'taken over from the outbox: a send of the same text that did not finish (same key, or same contact and words)',
      ),
    consent: z
      .object({
        status: ConsentStatus.describe("the composer's words for the contact's latest consent record"),
        recorded_at: z.string().nullable().describe('when that record was made; null: there is none to see'),
      })
      .describe("the contact's consent, as the checks saw it"),
    customer_time: z
      .object({
        text: z
          .string()
          .describe(
            'the customer\'s time in words, as "21:07 for the customer (America/Los_Angeles, from the area code)"',
          ),
        quiet: z
          .boolean()
          .describe('quiet hours (before 08:00 or from 21:00) in at least one of their zones'),
        zones: z
          .array(
            z.object({
              zone: z.string().describe('a time zone the customer may be in (IANA name)'),
              time: z.string().describe('the time there, HH:MM'),
              quiet: z.boolean().describe('quiet hours there'),
            }),
          )
          .describe("each zone the customer may be in, from their area code or the shop's zone"),
      })
      .describe("the customer's local time, for the quiet-hours check"),
    findings: z.array(FindingOutput).describe('what the checks before sending found'),
    error: failure(
      "the shop's error code, the client's (network, timeout…), or outbox (it could not be written)",
    )
      .nullable()
      .describe('why it was not sent, or is not known sent; null: nothing failed'),
  })
  .describe('what became of the text, and what the checks before it found');

export const ApproveOutput = z
  .object({
    outcome: z
      .enum(['approved', 'already_published', 'refused', 'not_approved', 'unknown'])
      .describe(
        'approved; already_published (nothing changed); refused (not confirmed: nothing done); not_approved (the shop refused); unknown (the answer was lost and the shop could not say)',
      ),
    action: Action.describe('the action, as the shop listed it'),
    status: z.string().describe("the action's status as the shop gave it last"),
    error: failure(
      "the shop's error code, the client's (network, timeout…), or not_pending (not awaiting approval)",
    )
      .nullable()
      .describe('why it was not approved, or is not known to be; null: nothing failed'),
  })
  .describe('what became of the action');

/** Every --json document, by command: the examples of docs/cli.md are checked against these. */
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
