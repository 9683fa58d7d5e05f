import { describe, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('client: every endpoint against the simulator over a socket', () => {
  it('GET /me gives the overview with counts that match the other endpoints', async () => {
    const t = await startSim();
    const client = t.client();
    const me = await client.getMe();
    expect(me.identity.business_name).toBe(t.sim.shops.main.identity.businessName);
    expect(me.credits_pulse.remaining).toBe(me.credits_pulse.included - me.credits_pulse.used);
    const inbox = await client.getInbox({ limit: 100 });
    expect(me.inbox_pulse.open_leads).toBe(inbox.open_leads.length);
    const callbacks = await client.getInbox({ filter: 'callbacks', limit: 100 });
    expect(me.inbox_pulse.needs_callback).toBe(callbacks.open_leads.length);
    const pending = await client.getActions({ status: 'pending_approval', limit: 100 });
    expect(me.pending_actions).toBe(pending.items.length);
    expect(Array.isArray(me.gaps)).toBe(true);
  });

  it('GET /today gives pending actions and activity, newest first, within limit', async () => {
    const client = (await startSim()).client();
    const today = await client.getToday({ limit: 5 });
    expect(today.activity.length).toBeLessThanOrEqual(5);
    expect(today.pending_actions.every((a) => a.status === 'pending_approval')).toBe(true);
    const times = today.activity.map((a) => Date.parse(a.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('GET /billing shows the plan and only the last four digits of the card', async () => {
    const billing = await (await startSim()).client().getBilling();
    expect(billing.subscription.status).toBe('active');
    expect(billing.payment_method?.last4).toMatch(/^\d{4}$/);
  });

  it('GET /texting shows number and status', async () => {
    const texting = await (await startSim()).client().getTexting();
    expect(texting.texting_status).toBe('active');
    expect(texting.texting_number).toMatch(/^\+\d{8,15}$/);
    expect(typeof texting.campaign_approved).toBe('boolean');
  });

  it('GET /inbox lists open leads and, with callbacks, missed calls with no reply', async () => {
    const client = (await startSim()).client();
    const open = await client.getInbox();
    expect(open.filter).toBe('open');
    expect(open.open_leads.length).toBeGreaterThan(0);
    expect(open.open_leads.length).toBeLessThanOrEqual(25);
    expect(open.latest_inbound[0]?.occurred_at).toMatch(ISO_UTC);
    const callbacks = await client.getInbox({ filter: 'callbacks' });
    expect(callbacks.filter).toBe('callbacks');
    expect(callbacks.open_leads.length).toBeGreaterThan(0);
    for (const lead of callbacks.open_leads) {
      const detail = await client.getLead(lead.id);
      expect(detail.lead.source).toBe('missed_call');
      expect(detail.messages.some((m) => m.direction === 'outbound')).toBe(false);
    }
  });

  it('GET /contacts searches by name or phone fragment', async () => {
    const client = (await startSim()).client();
    const all = await client.getContacts({ limit: 100 });
    expect(all.items.length).toBeGreaterThan(20);
    const someone = all.items[3];
    if (!someone) throw new Error('seed has too few contacts');
    const byName = await client.getContacts({ q: someone.name.split(' ')[0]?.toLowerCase() });
    expect(byName.items.map((c) => c.id)).toContain(someone.id);
    const byPhone = await client.getContacts({ q: someone.phone.slice(-4) });
    expect(byPhone.items.map((c) => c.id)).toContain(someone.id);
    const none = await client.getContacts({ q: 'zzzz-nobody-has-this-name' });
    expect(none.items).toEqual([]);
  });

  it('GET /leads/{id} gives lead, contact, messages oldest first, and the latest consent', async () => {
    const client = (await startSim()).client();
    const inbox = await client.getInbox({ limit: 100 });
    const details = await Promise.all(inbox.open_leads.slice(0, 15).map((l) => client.getLead(l.id)));
    const withMessages = details.find((d) => d.messages.length >= 2);
    if (!withMessages) throw new Error('seed has no thread');
    const times = withMessages.messages.map((m) => Date.parse(m.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(withMessages.contact.id).toBe(withMessages.lead.contact_id);
    const limited = await client.getLead(withMessages.lead.id, { limit: 1 });
    expect(limited.messages).toEqual([withMessages.messages.at(-1)]);
    expect(details.some((d) => d.consent_latest === null || d.consent_latest.sms_initial === false)).toBe(
      true,
    );
  });

  it('POST /contacts/{id}/messages sends a text that appears in the thread', async () => {
    const client = (await startSim()).client();
    const inbox = await client.getInbox();
    const lead = await client.getLead(inbox.open_leads[0]?.id ?? '');
    const result = await client.sendText(lead.contact.id, 'On our way, about 20 minutes out.', {
      idempotencyKey: 'c0ffee00-0000-4000-8000-000000000001',
    });
    expect(result).toEqual({ sent: true, replayed: false });
    const after = await client.getLead(lead.lead.id);
    expect(after.messages.at(-1)).toMatchObject({
      direction: 'outbound',
      body: 'On our way, about 20 minutes out.',
    });
  });

  it('GET /reviews counts unreplied in the page; POST draft returns a draft without replying', async () => {
    const client = (await startSim()).client();
    const reviews = await client.getReviews({ limit: 100 });
    expect(reviews.unreplied_in_page).toBe(reviews.items.filter((r) => r.replied_at === null).length);
    const unreplied = reviews.items.find((r) => r.replied_at === null && r.rating <= 2);
    if (!unreplied) throw new Error('seed has no unreplied negative review');
    const draft = await client.draftReply(unreplied.id);
    expect(draft.review_id).toBe(unreplied.id);
    expect(draft.is_negative).toBe(true);
    expect(draft.reply.length).toBeGreaterThan(20);
    const again = await client.getReviews({ limit: 100 });
    expect(again.items.find((r) => r.id === unreplied.id)?.replied_at).toBeNull();
  });

  it('GET /actions newest first by status; POST decide approves to published', async () => {
    const client = (await startSim()).client();
    const pending = await client.getActions({ status: 'pending_approval' });
    expect(pending.items.length).toBeGreaterThan(0);
    const times = pending.items.map((a) => Date.parse(a.generated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const action = pending.items[0];
    if (!action) throw new Error('no pending action');
    expect(await client.decideAction(action.id)).toEqual({ status: 'published' });
    const published = await client.getActions({ status: 'published', limit: 100 });
    expect(published.items.map((a) => a.id)).toContain(action.id);
  });

  it('GET /openapi.json needs no token', async () => {
    const t = await startSim();
    const doc = await t.client().getOpenApi();
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: 'v1' } });
    const requests = await t.requests();
    expect(requests).toEqual([
      {
        method: 'GET',
        path: '/v1/openapi.json',
        query: '',
        status: 200,
        token: null,
        idempotencyKey: null,
        userAgent: 'shop-inbox',
      },
    ]);
  });
});
