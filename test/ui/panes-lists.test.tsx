/**
 * The list panes against what the simulator's API returns: reviews (rows,
 * the unreplied count, drafts), actions (the status cycle), contacts (one
 * debounced search request, esc back to all) and today (account, billing
 * with only the card's last four digits, texting, activity).
 */
import { describe, expect, it } from 'vitest';
import type { ActionList, ReviewList } from '../../src/contract/resources.js';
import { matchesContactQuery } from '../../src/sim/views.js';
import { day, enumLabel, oneLine, stars } from '../../src/ui-kit/format.js';
import { KEYS, startTui } from '../support/tui.js';
import { apiData, firstLoad, lines, plain, QUIET, queryOf, requestsTo } from './nav-pane-helpers.js';

describe('reviews', () => {
  it('rows show stars, reviewer, date and replied or not; the title counts the unreplied', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, (state) => state.reviews.data !== undefined);
    await tui.press('3');
    const reviews = await apiData<ReviewList>(tui, '/reviews?limit=100');
    const frame = plain(
      await tui.waitFor(`Reviews (${reviews.items.length}, ${reviews.unreplied_in_page} unreplied)`),
    );
    expect(reviews.unreplied_in_page).toBeGreaterThan(0);
    for (const review of reviews.items.slice(0, 15)) {
      const line = lines(frame).find((candidate) => candidate.includes(oneLine(review.reviewer_name)));
      expect(line, review.reviewer_name).toBeDefined();
      expect(line).toContain(stars(review.rating));
      expect(line).toContain(day(review.created_at_google));
      expect(line).toMatch(review.replied_at ? /\breplied\b/ : /\bunreplied\b/);
      if (review.replied_at) expect(line).not.toContain('unreplied');
    }
  });

  it('d drafts a reply once, marked "DRAFT — not published", flagged when the review is negative', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, (state) => state.reviews.data !== undefined);
    await tui.press('3');
    await tui.waitFor(/Reviews \(\d+, \d+ unreplied\)/);
    const rows = tui.state().reviews.data?.items ?? [];
    const negative = rows.findIndex((review) => review.rating <= 2 && review.replied_at === null);
    const positive = rows.findIndex((review) => review.rating >= 4);
    expect(negative).toBeGreaterThanOrEqual(0);
    expect(positive).toBeGreaterThanOrEqual(0);

    const draftFor = async (index: number) => {
      const review = rows[index];
      if (!review) throw new Error('no review');
      await tui.press('g', ...(index > 0 ? ['j'.repeat(index)] : []), 'd');
      const frame = plain(
        await tui.waitFor(
          (f, state) =>
            state.drafts[review.id]?.state === 'done' && plain(f).includes('DRAFT — not published'),
        ),
      );
      const posts = await requestsTo(tui, `/reviews/${review.id}/draft`, 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0]?.status).toBe(200);
      const draft = tui.state().drafts[review.id]?.draft;
      expect(draft?.review_id).toBe(review.id);
      expect(frame.replace(/[│\s]+/g, ' ')).toContain(oneLine(draft?.reply).slice(0, 40));
      return { frame, draft };
    };

    const bad = await draftFor(negative);
    expect(bad.draft?.is_negative).toBe(true);
    expect(bad.frame).toContain('flagged negative');
    const good = await draftFor(positive);
    expect(good.draft?.is_negative).toBe(false);
    expect(good.frame).not.toContain('flagged negative');
    // A draft publishes nothing: the review is still unreplied on the service and on screen.
    const review = tui.s.sim.shops.main.reviews.find((candidate) => candidate.id === rows[negative]?.id);
    expect(review?.repliedAt).toBeNull();
    expect(tui.state().reviews.data?.items.find((item) => item.id === review?.id)?.replied_at).toBeNull();
  });
});

describe('actions', () => {
  it('lists the pending actions; s cycles published, declined, failed and back, reading each status', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui);
    await tui.press('4');
    const pending = await apiData<ActionList>(tui, '/actions?status=pending_approval&limit=100');
    let frame = plain(await tui.waitFor(`Actions — awaiting approval (${pending.items.length})`));
    expect(pending.items.length).toBeGreaterThan(0);
    for (const action of pending.items) {
      const line = lines(frame).find((candidate) => candidate.includes(action.id));
      expect(line, action.id).toBeDefined();
      expect(line).toContain(enumLabel(action.kind));
      expect(line).toContain('pending approval');
    }
    for (const status of ['published', 'declined', 'failed'] as const) {
      await tui.press('s');
      const expected = await apiData<ActionList>(tui, `/actions?status=${status}&limit=100`);
      expect(expected.items.length, status).toBeGreaterThan(0);
      frame = plain(
        await tui.waitFor(
          (f, state) =>
            state.actions[status].data !== undefined &&
            plain(f).includes(`Actions — ${status} (${expected.items.length})`),
        ),
      );
      const reads = await requestsTo(tui, '/actions');
      expect(reads.some((read) => queryOf(read.query).get('status') === status)).toBe(true);
      for (const action of expected.items.slice(0, 10)) {
        const line = lines(frame).find((candidate) => candidate.includes(action.id));
        expect(line, `${status} ${action.id}`).toContain(status);
      }
      for (const action of pending.items) expect(frame).not.toContain(`${action.id}  `);
    }
    await tui.press('s');
    await tui.waitFor(`Actions — awaiting approval (${pending.items.length})`);
  });
});

describe('contacts', () => {
  it('typing a search one key at a time sends ONE GET /contacts with the whole fragment; esc clears it', async () => {
    const tui = await startTui({ columns: 100, rows: 40, intervals: QUIET, searchDebounceMs: 250 });
    await firstLoad(tui, (state) => state.contacts.data !== undefined);
    await tui.press('5');
    const all = tui.state().contacts.data?.items ?? [];
    await tui.waitFor(`Contacts (${all.length})`);
    const shop = tui.s.sim.shops.main;
    const fragment = ['ell', 'son', 'ar', 'ra', 'an', 'en'].find((candidate) => {
      const count = shop.contacts.filter((contact) => matchesContactQuery(contact, candidate)).length;
      return count > 1 && count < shop.contacts.length / 2;
    });
    if (!fragment) throw new Error('no fragment matches a few contacts');
    const expected = await apiData<{ items: Array<{ id: string; name: string }> }>(
      tui,
      `/contacts?q=${fragment}&limit=100`,
    );
    expect(expected.items.length).toBeGreaterThan(0);
    expect(expected.items.length).toBeLessThan(all.length);
    const searchesBefore = (await requestsTo(tui, '/contacts')).filter((read) =>
      queryOf(read.query).has('q'),
    );

    await tui.press('/', ...fragment);
    let frame = plain(
      await tui.waitFor(
        (f, state) =>
          state.contacts.query === fragment &&
          state.contacts.data !== undefined &&
          !state.contacts.loading &&
          plain(f).includes(`Contacts matching “${fragment}” (${expected.items.length})`),
      ),
    );
    const searches = (await requestsTo(tui, '/contacts'))
      .filter((read) => queryOf(read.query).has('q'))
      .slice(searchesBefore.length);
    expect(searches.map((read) => queryOf(read.query).get('q'))).toEqual([fragment]);
    const shownNames = expected.items.map((contact) => oneLine(contact.name));
    for (const name of shownNames) expect(frame).toContain(name);
    for (const contact of all) {
      if (!expected.items.some((match) => match.id === contact.id))
        expect(frame, contact.name).not.toContain(`│ ${oneLine(contact.name)} `);
    }

    await tui.press(KEYS.escape);
    frame = plain(
      await tui.waitFor(
        (f, state) => state.contacts.query === '' && plain(f).includes(`Contacts (${all.length})`),
        2_000,
      ),
    );
    expect(frame).not.toContain('matching');
    for (const contact of all.slice(0, 10)) expect(frame).toContain(oneLine(contact.name).slice(0, 12));
  });
});

describe('today', () => {
  it('shows the activity, who the key belongs to, billing (card brand and last four only) and texting', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(
      tui,
      (state) =>
        state.today.data !== undefined &&
        state.billing.data !== undefined &&
        state.texting.data !== undefined,
    );
    await tui.press('6');
    const frame = plain(await tui.waitFor('Today and account'));
    const shop = tui.s.sim.shops.main;
    const billing = tui.state().billing.data;
    const texting = tui.state().texting.data;
    const today = tui.state().today.data;
    if (!billing || !texting || !today) throw new Error('not loaded');

    expect(frame).toContain(`${shop.identity.firstName} <${shop.identity.email}>`);
    const billingLine = lines(frame).find((line) => line.includes('Billing')) ?? '';
    expect(billingLine).toContain(enumLabel(billing.subscription.status));
    expect(billingLine).toContain(`${billing.subscription.plan} plan`);
    expect(billingLine).toContain(`period ends ${day(billing.subscription.current_period_end)}`);
    expect(billingLine).toContain(`${shop.paymentMethod?.brand} ending ${shop.paymentMethod?.last4}`);
    const textingLine = lines(frame).find((line) => line.includes('Texting')) ?? '';
    expect(textingLine).toContain(`${texting.texting_number} · ${enumLabel(texting.texting_status)}`);
    expect(textingLine).toContain(texting.campaign_approved ? 'campaign approved' : 'campaign NOT approved');
    expect(textingLine).toContain(`forwarding verified ${day(texting.forwarding_verified_at)}`);

    expect(frame).toContain(`${today.pending_actions.length} actions awaiting approval`);
    for (const item of today.activity.slice(0, 8)) {
      const line = lines(frame).find((candidate) => candidate.includes(oneLine(item.summary).slice(0, 40)));
      expect(line, item.summary).toBeDefined();
      expect(line).toContain(enumLabel(item.kind));
    }
  });

  it('never shows more of a card number than its last four digits', async () => {
    const tui = await startTui({ columns: 120, rows: 40, intervals: QUIET });
    await firstLoad(tui, (state) => state.billing.data !== undefined);
    await tui.press('6');
    await tui.waitFor('visa ending 4242');
    // A misbehaving service sends a whole card number as "last4".
    const billing = tui.state().billing.data;
    if (!billing) throw new Error('billing not loaded');
    tui.session.store.setState({
      billing: {
        ...tui.state().billing,
        data: { ...billing, payment_method: { brand: 'visa', last4: '4000056655665556' } },
      },
    });
    const frame = plain(await tui.waitFor('visa ending 5556'));
    expect(frame).not.toMatch(/\d{5,}5556/);
    expect(frame).not.toContain('40000566');
    const billingLine = lines(frame).find((line) => line.includes('Billing')) ?? '';
    expect(billingLine.match(/ending (\S+)/)?.[1]).toBe('5556');
  });
});
