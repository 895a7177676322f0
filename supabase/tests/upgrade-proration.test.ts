import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claim, claimDue, days, emailsOf, membershipOf } from './support/membership-steps.ts';

// An upgrade no longer forfeits what the member paid for the rest of the month. It
// charges Platinum Premium's price less Standard's price for the unused whole London days of the
// period (today counts as unused: Platinum starts now), and the member sees that figure first.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

// 1 April 10:00 London (BST) to 1 May: a 30-day period.
const APRIL_1 = new Date('2027-04-01T09:00:00Z');
const HALFWAY = new Date('2027-04-16T09:00:00Z');

const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const startUpgrade = (member: TestUser, at: Date) =>
  service<string>('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
    member.memberId,
    'platinum',
    165,
    'premium',
    null,
    at.toISOString(),
  ]);
const upgradePayments = async (member: TestUser) =>
  (
    await db.query<{
      checkout_reference: string;
      status: string;
      amount: number;
      upgrade_credit: number | null;
      description: string;
      needs_refund: boolean;
      refund_reason: string | null;
    }>(
      `select checkout_reference, status::text, amount::float8 as amount, upgrade_credit::float8 as upgrade_credit, description,
              needs_refund, refund_reason
         from public.payments where member_id = $1 and billing_reason = 'upgrade' order by created_at`,
      [member.memberId],
    )
  ).rows;

describe('an upgrade prorates', () => {
  it('Standard £100 to Platinum £165 halfway through a 30-day period charges £165 − £50 = £115, once', async () => {
    const member = await createUser(db, 'prorate-half');
    await buyPlan(db, member, APRIL_1);
    const reference = await startUpgrade(member, HALFWAY);
    const charge = (await claim(db, reference, HALFWAY))!;
    expect(charge).toMatchObject({ amount: 115, billing_reason: 'upgrade' });
    expect(await upgradePayments(member)).toMatchObject([
      { amount: 115, upgrade_credit: 50, description: 'Platinum Premium (£165/month), less £50.00 for 15 unused days of Standard' },
    ]);

    expect(await applyPaid(db, charge, 'chk-half', HALFWAY)).toMatchObject({ outcome: 'applied' });
    // A replayed notification (or the return page after the webhook) applies nothing more.
    expect(await applyPaid(db, charge, 'chk-half', days(HALFWAY, 1))).toMatchObject({ outcome: 'already_applied' });

    // The plan renews at its full price from a month after the upgrade.
    expect(await membershipOf(db, member)).toMatchObject({
      tier: 'premium',
      plan_slug: 'platinum',
      price: 165,
      period_number: 2,
      period_start: HALFWAY,
      period_end: new Date('2027-05-16T09:00:00Z'),
      member_tier: 'premium',
    });
    const receipts = (await emailsOf(db, member)).filter((e) => e.kind === 'payment_receipt' && e.subject.includes('Platinum'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body_text).toContain(
      'we received £115.00 for Platinum Premium (£165/month), less £50.00 for 15 unused days of Standard',
    );
    const renewals = (await claimDue(db, new Date('2027-05-16T09:00:00Z'))).filter((c) => c.customer_id.endsWith(member.memberId));
    expect(renewals).toMatchObject([{ amount: 165, billing_reason: 'renewal' }]);
  });

  it('on the first day the whole £100 is credited (£65); on the last day 1 of 31 days (£3.23, so £161.77)', async () => {
    const first = await createUser(db, 'prorate-first-day');
    const t0 = new Date('2027-01-15T10:00:00Z');
    await buyPlan(db, first, t0);
    expect((await claim(db, await startUpgrade(first, new Date('2027-01-15T20:00:00Z')), t0))!.amount).toBe(65);

    const last = await createUser(db, 'prorate-last-day');
    await buyPlan(db, last, t0);
    expect((await claim(db, await startUpgrade(last, new Date('2027-02-14T12:00:00Z')), t0))!.amount).toBe(161.77);
  });

  it('asking again the same day gives the same charge; a day later the stale one is superseded and a late payment of it is owed back', async () => {
    const member = await createUser(db, 'prorate-next-day');
    await buyPlan(db, member, APRIL_1);
    const first = await startUpgrade(member, HALFWAY);
    expect(await startUpgrade(member, new Date('2027-04-16T18:00:00Z'))).toBe(first);

    const next = await startUpgrade(member, days(HALFWAY, 1));
    expect(next).not.toBe(first);
    expect(await upgradePayments(member)).toMatchObject([
      { checkout_reference: first, status: 'expired', amount: 115 },
      // 14 unused days: £100 × 14 / 30 = £46.67 off.
      { checkout_reference: next, status: 'pending', amount: 118.33, upgrade_credit: 46.67 },
    ]);
    // Nobody charges the superseded one (a null row).
    expect((await claim(db, first, days(HALFWAY, 1)))?.checkout_reference ?? null).toBeNull();
    await applyPaid(db, (await claim(db, next, days(HALFWAY, 1)))!, 'chk-next', days(HALFWAY, 1));
    await applyPaid(db, { checkout_reference: first, amount: 115 }, 'chk-stale', days(HALFWAY, 1));
    expect(await upgradePayments(member)).toMatchObject([
      { checkout_reference: first, status: 'paid', needs_refund: true, refund_reason: 'superseded_checkout' },
      { checkout_reference: next, status: 'paid', needs_refund: false },
    ]);
    expect(await membershipOf(db, member)).toMatchObject({ price: 165, period_number: 2 });
  });

  it('the member sees the figure before confirming (my_upgrade_quote), the same one the charge uses', async () => {
    const member = await createUser(db, 'prorate-quote');
    const now = new Date();
    await buyPlan(db, member, now);
    const quote = await asUser(db, member.claims, (tx) => rpc<Record<string, unknown>>(tx, 'public.my_upgrade_quote($1)', ['platinum']));
    expect(quote).toMatchObject({
      plan_slug: 'platinum',
      plan_price: 165,
      current_plan_slug: 'standard',
      current_price: 100,
      credit: 100,
      amount: 65,
    });
    expect(quote.unused_days).toBe(quote.period_days);
    expect((await claim(db, await startUpgrade(member, now), now))!.amount).toBe(65);

    const payg = await createUser(db, 'prorate-quote-payg');
    await expect(asUser(db, payg.claims, (tx) => rpc(tx, 'public.my_upgrade_quote($1)', ['platinum']))).rejects.toMatchObject({
      hint: 'no_running_membership',
    });
  });
});
