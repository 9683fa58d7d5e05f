import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints.js';
import { ErrorBody, successEnvelope } from '../../src/contract/envelopes.js';
import { Contact, InboxLead, LeadDetail, ReviewList, ShopOverview } from '../../src/contract/resources.js';

const lead = {
  id: 'lead_1',
  status: 'new',
  urgency: 'same_day',
  contact_name: 'Dana Ortiz',
  caller_phone: '+15035550100',
  job_type: 'water heater',
  created_at: '2026-11-21T09:00:00Z',
};

describe('contract: tolerant where the reference is open', () => {
  it('keeps fields the reference does not list', () => {
    const parsed = InboxLead.parse({ ...lead, lead_id_hint: 'x', tags: ['vip'] });
    expect(parsed).toMatchObject({ lead_id_hint: 'x', tags: ['vip'] });
  });

  it('accepts status, urgency, stage, source, direction and kind values it has not seen', () => {
    expect(InboxLead.parse({ ...lead, status: 'awaiting_parts', urgency: 'emergency' }).status).toBe(
      'awaiting_parts',
    );
    const detail = LeadDetail.parse({
      lead: {
        id: 'l',
        status: 'won',
        urgency: 'flexible',
        contact_id: 'c',
        source: 'web_chat',
        created_at: 'x',
      },
      contact: { id: 'c', name: 'A', phone: '+1', stage: 'vip_customer' },
      messages: [{ id: 'm', direction: 'system', body: 'hi', occurred_at: '2026-11-21T09:00:00Z' }],
      consent_latest: null,
    });
    expect(detail.messages[0]?.direction).toBe('system');
    expect(detail.consent_latest).toBeNull();
  });

  it('accepts null where the reference marks a field nullable, and where a shop may lack it', () => {
    expect(
      Contact.parse({ id: 'c', name: 'A', phone: '+1', email: null, stage: 'lead', last_contact_at: null })
        .email,
    ).toBeNull();
    const reviews = ReviewList.parse({
      items: [
        {
          id: 'r',
          reviewer_name: 'B',
          rating: 2,
          review_text: 't',
          created_at_google: '2026-11-01T00:00:00Z',
          replied_at: null,
        },
      ],
      unreplied_in_page: 1,
    });
    expect(reviews.items[0]?.replied_at).toBeNull();
  });

  it('reads an error body with its issues and an unknown code', () => {
    expect(
      ErrorBody.parse({ error: 'x', code: 'invalid', issues: [{ field: 'limit', message: 'too big' }] })
        .issues,
    ).toHaveLength(1);
    expect(ErrorBody.parse({ error: 'x', code: 'conflict' }).code).toBe('conflict');
  });
});

describe('contract: strict where the reference is firm', () => {
  it('requires the { data } envelope', () => {
    const envelope = successEnvelope(endpoints.getContacts.data);
    expect(envelope.safeParse({ items: [] }).success).toBe(false);
    expect(envelope.safeParse({ data: { items: [] } }).success).toBe(true);
  });

  it('requires { error, code } on errors', () => {
    expect(ErrorBody.safeParse({ message: 'nope' }).success).toBe(false);
    expect(ErrorBody.safeParse({ error: 'nope' }).success).toBe(false);
  });

  it('refuses wrong field types', () => {
    expect(InboxLead.safeParse({ ...lead, id: 42 }).success).toBe(false);
    expect(InboxLead.safeParse({ ...lead, caller_phone: null }).success).toBe(false);
    const me = {
      identity: { email: 'a@b.c', first_name: 'A', business_name: 'B' },
      gaps: [],
      billing_pulse: { status: 'active', current_period_end: '2026-12-01T00:00:00Z' },
      texting_pulse: { texting_status: 'active', texting_number: '+15035550100' },
      google_pulse: { connected: true },
      inbox_pulse: { open_leads: 3, needs_callback: 1 },
      reviews_pulse: { unreplied: 2 },
      credits_pulse: { used: 1, included: 500, remaining: 499 },
      pending_actions: 2,
      links: { today: 'https://x/today', inbox: 'https://x/inbox' },
    };
    expect(ShopOverview.safeParse(me).success).toBe(true);
    expect(ShopOverview.safeParse({ ...me, pending_actions: '2' }).success).toBe(false);
    expect(ShopOverview.safeParse({ ...me, pending_actions: 2.5 }).success).toBe(false);
    expect(ShopOverview.safeParse({ ...me, google_pulse: { connected: 'yes' } }).success).toBe(false);
  });
});
