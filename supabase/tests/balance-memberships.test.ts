import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claim, claimDue, days, emailsOf, fail, membershipOf, PLAN } from './support/membership-steps.ts';

// Decision 0108 through the API the functions use: the member's balance pays a membership's first
// month and its renewals first; the card (or Direct Debit) is charged what it leaves; a renewal is
// taken from the balance once per period however often it is retried or the job runs, and a
// membership that ends unpaid gives it back once.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const T0 = new Date('2027-01-15T10:00:00Z');
const T1 = new Date('2027-02-15T10:00:00Z');
const T2 = new Date('2027-03-15T10:00:00Z');

const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const balance = async (m: TestUser) => Number(await asUser(db, m.claims, (tx) => rpc<number>(tx, 'public.my_balance()')));
const history = async (m: TestUser) =>
  (await asUser(db, m.claims, (tx) => rpc<{ kind: string; amount: number }[]>(tx, 'public.my_balance_history()'))).map((h) => [
    h.kind,
    Number(h.amount),
  ]);

/** Adds `amount` to the member's balance the way members get one: a paid voucher, redeemed. */
async function giveBalance(member: TestUser, amount: number) {
  const checkout = await service<{ checkout_reference: string }>(
    `public.create_gift_voucher_payment(null, 'Sam Giver', 'sam@example.test', 'Robin', 'robin@example.test', '', (now() at time zone 'Europe/London')::date, $1, null, now())`,
    [amount],
  );
  await service(`public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`, [
    checkout.checkout_reference,
    `chk-${checkout.checkout_reference}`,
    amount,
  ]);
  const { rows } = await db.query<{ code: string }>(
    'select v.code from public.gift_vouchers v join public.payments p on p.id = v.payment_id where p.checkout_reference = $1',
    [checkout.checkout_reference],
  );
  const redeemed = await asUser(db, member.claims, (tx) => rpc<{ outcome: string }>(tx, 'public.redeem_gift_voucher($1)', [rows[0]!.code]));
  expect(redeemed.outcome).toBe('redeemed');
}

type Setup = { payment_reference: string | null; setup_reference: string; customer_id: string; amount: number; description: string };
const startPlan = (m: TestUser, at = T0) =>
  service<Setup>('public.start_membership_checkout($1, $2, $3, $4, $5, $6)', [
    m.memberId,
    'standard',
    100,
    'standard',
    PLAN.standard.description,
    at.toISOString(),
  ]);
const saveCard = (s: Setup, status = 'PAID', at = T0) =>
  service<{ outcome: string; charge_reference: string | null }>(`public.apply_card_setup($1, $2, $3, $4, 'GBP', $5, 'tok-pays', $6)`, [
    s.setup_reference,
    `chk-${s.setup_reference}`,
    status,
    s.amount,
    s.customer_id,
    at.toISOString(),
  ]);
const paymentRows = async (m: TestUser) =>
  (
    await db.query<{ billing_reason: string; status: string; amount: string; balance_used: string | null; description: string }>(
      `select billing_reason, status::text, amount, balance_used, description from public.payments
        where member_id = $1 and kind = 'plan' order by created_at, period_number`,
      [m.memberId],
    )
  ).rows;
const renewalsOf = async (m: TestUser, at: Date) => (await claimDue(db, at)).filter((c) => c.customer_id?.includes(m.memberId) || false);

describe('the first month of a membership', () => {
  it('shows the balance part before paying, then charges the card only what the balance leaves', async () => {
    const member = await createUser(db, 'bm-first-part');
    await giveBalance(member, 40);
    const preview = await asUser(db, member.claims, (tx) =>
      rpc<{ price: number; balance_used: number; to_charge: number }>(tx, "public.my_offer_price('standard')"),
    );
    expect([preview.price, preview.balance_used, preview.to_charge].map(Number)).toEqual([100, 40, 60]);

    const setup = await startPlan(member);
    expect(Number(setup.amount)).toBe(60);
    expect(setup.description).toBe('Standard (£100/month), £40.00 from your balance');
    expect(await balance(member)).toBe(0);
    const saved = await saveCard(setup);
    const charge = (await claim(db, saved.charge_reference!, T0))!;
    expect(Number(charge.amount)).toBe(60);
    // The provider's answer is for the card's part: the full price is a mismatch.
    expect((await applyPaid(db, { ...charge, amount: 100 }, 'chk-first', T0)).outcome).toBe('mismatch');
    expect((await applyPaid(db, charge, 'chk-first', T0)).outcome).toBe('applied');
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', price: 100, period_end: T1 });
    expect(await paymentRows(member)).toMatchObject([{ status: 'paid', amount: '100.00', balance_used: '40.00' }]);
    expect(await balance(member)).toBe(0);
  });

  it('a first month the balance pays in full starts now, and the card is saved with nothing charged', async () => {
    const member = await createUser(db, 'bm-first-full');
    await giveBalance(member, 150);
    const setup = await startPlan(member);
    expect(setup.payment_reference).toBeNull();
    expect(Number(setup.amount)).toBe(100);
    expect(setup.description).toBe('Card for your Standard membership (nothing charged now)');
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', member_tier: 'standard', period_end: T1 });
    expect(await paymentRows(member)).toMatchObject([{ status: 'paid', amount: '100.00', balance_used: '100.00' }]);
    expect(await balance(member)).toBe(50);
    // The card, for the renewals: saved, nothing to charge.
    expect(await saveCard(setup)).toEqual({ outcome: 'applied', charge_reference: null });
    const mine = await asUser(db, member.claims, (tx) => rpc<{ has_card: boolean }>(tx, 'public.my_membership()'));
    expect(mine.has_card).toBe(true);
  });

  it('a card that is not saved gives the balance part back, once', async () => {
    const member = await createUser(db, 'bm-first-failed');
    await giveBalance(member, 30);
    const setup = await startPlan(member);
    expect(await balance(member)).toBe(0);
    expect((await saveCard(setup, 'FAILED')).outcome).toBe('marked_failed');
    expect((await saveCard(setup, 'FAILED')).outcome).toBe('already_applied');
    expect(await balance(member)).toBe(30);
    // (The checkout is dated T0, ahead of the real clock that dates what came back: compare as a set.)
    expect((await history(member)).sort()).toEqual([
      ['returned', 30],
      ['spent', -30],
      ['voucher', 30],
    ]);
  });
});

describe('renewals', () => {
  it('takes the balance first, once per period, however often the job runs and the card is retried', async () => {
    const member = await createUser(db, 'bm-renew-part');
    await buyPlan(db, member, T0);
    await giveBalance(member, 30);
    const [charge] = await renewalsOf(member, T1);
    expect(charge).toMatchObject({ billing_reason: 'renewal' });
    expect(Number(charge!.amount)).toBe(70);
    expect(await balance(member)).toBe(0);
    // A second run at once takes nothing again.
    expect(await renewalsOf(member, T1)).toEqual([]);
    // The card part is declined, then retried a day later: the balance part is not taken twice.
    await fail(db, charge!, T1);
    expect(await balance(member)).toBe(0);
    const [retry] = await renewalsOf(member, days(T1, 1));
    expect(retry).toMatchObject({ checkout_reference: charge!.checkout_reference, attempt: 2 });
    expect(Number(retry!.amount)).toBe(70);
    expect((await applyPaid(db, retry!, 'chk-renew-part', days(T1, 1))).outcome).toBe('applied');
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', period_number: 2, period_end: T2, price: 100 });
    expect(await history(member)).toEqual([
      ['spent', -30],
      ['voucher', 30],
    ]);
    const receipt = (await emailsOf(db, member)).filter((e) => e.kind === 'renewal_receipt');
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.body_text).toContain('we charged £70.00 to your saved card for Standard membership');
    expect(receipt[0]!.body_text).toContain('£30.00 from your balance');
  });

  it('a renewal the balance pays in full is paid without the provider, once when the job runs twice', async () => {
    const member = await createUser(db, 'bm-renew-full');
    await buyPlan(db, member, T0);
    await giveBalance(member, 150);
    expect(await renewalsOf(member, T1)).toEqual([]);
    expect(await renewalsOf(member, T1)).toEqual([]);
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', period_number: 2, period_end: T2 });
    expect(await balance(member)).toBe(50);
    const renewals = (await paymentRows(member)).filter((p) => p.billing_reason === 'renewal');
    expect(renewals).toMatchObject([{ status: 'paid', amount: '100.00', balance_used: '100.00' }]);
    const receipt = (await emailsOf(db, member)).filter((e) => e.kind === 'renewal_receipt');
    expect(receipt.map((e) => e.body_text)).toEqual([expect.stringContaining('your balance paid the £100.00 for Standard membership')]);
    // The next period takes what is left (£50) and charges the card £50.
    const [next] = await renewalsOf(member, T2);
    expect(Number(next!.amount)).toBe(50);
    expect(await balance(member)).toBe(0);
  });

  it('the renewal reminder says the balance pays first, and says nothing of it without one', async () => {
    const member = await createUser(db, 'bm-reminder');
    const without = await createUser(db, 'bm-reminder-none');
    await buyPlan(db, member, T0);
    await buyPlan(db, without, T0);
    await giveBalance(member, 30);
    await service('public.enqueue_membership_reminders($1)', [days(T1, -3).toISOString()]);
    const reminderOf = async (m: typeof member) => (await emailsOf(db, m)).filter((e) => e.kind === 'renewal_reminder')[0]!.body_text;
    expect(await reminderOf(member)).toContain('Your balance (£30.00 today) pays first, so only what it leaves is charged.');
    expect(await reminderOf(without)).not.toContain('balance');
  });

  it('a membership that lapses unpaid gives the balance part back once', async () => {
    const member = await createUser(db, 'bm-renew-lapse');
    await buyPlan(db, member, T0);
    await giveBalance(member, 25);
    const [first] = await renewalsOf(member, T1);
    await fail(db, first!, T1);
    for (const at of [1, 3]) {
      const [retry] = await renewalsOf(member, days(T1, at));
      await fail(db, retry!, days(T1, at));
      expect(await balance(member)).toBe(0);
    }
    const [last] = await renewalsOf(member, days(T1, 7));
    await fail(db, last!, days(T1, 7));
    expect((await fail(db, last!, days(T1, 7))).outcome).toBe('already_applied');
    expect(await membershipOf(db, member)).toMatchObject({ status: 'lapsed' });
    expect(await balance(member)).toBe(25);
    expect(await history(member)).toEqual([
      ['returned', 25],
      ['spent', -25],
      ['voucher', 25],
    ]);
  });

  it('a membership cancelled while a renewal is unpaid gives the balance part back when it ends, once', async () => {
    const member = await createUser(db, 'bm-renew-cancel');
    await buyPlan(db, member, T0);
    await giveBalance(member, 20);
    const [first] = await renewalsOf(member, T1);
    await fail(db, first!, T1);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.cancel_membership()'));
    await service('public.end_finished_memberships($1)', [days(T1, 1).toISOString()]);
    await service('public.end_finished_memberships($1)', [days(T1, 2).toISOString()]);
    expect(await balance(member)).toBe(20);
    expect((await history(member)).filter(([k]) => k === 'returned')).toHaveLength(1);
  });
});

describe('reports', () => {
  it('count a membership at its price, and the part the balance paid as held money spent', async () => {
    const admin = await createUser(db, 'bm-report-admin', { is_admin: true });
    type Line = { month: string | null; line: string; gross: number };
    const reports = await asUser(db, admin.claims, (tx) =>
      rpc<{ revenue: Line[] }>(tx, 'public.admin_reports($1, $2)', ['2027-01-01', '2027-03-31']),
    );
    const total = (line: string) => Number(reports.revenue.find((r) => r.month === null && r.line === line)?.gross ?? 0);
    const sumOf = async (sql: string) => Number((await db.query<{ s: string | null }>(sql)).rows[0]!.s ?? 0);
    const inRange = `p.status = 'paid' and p.paid_at >= '2027-01-01' and p.paid_at < '2027-04-01'`;
    expect(total('memberships')).toBe(
      await sumOf(`select sum(p.amount) as s from public.payments p where ${inRange} and p.billing_reason in ('start', 'renewal')
                    and p.collected_by is distinct from 'direct_debit'`),
    );
    // The balance-paid renewals above count at their price (£100), never at the card's part.
    expect(total('balance_spent')).toBe(await sumOf(`select sum(p.balance_used) as s from public.payments p where ${inRange}`));
    expect(total('balance_spent')).toBeGreaterThanOrEqual(100 + 40 + 30);
  });
});
