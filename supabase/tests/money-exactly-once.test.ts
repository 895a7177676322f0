import { describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claim, membershipOf, PLAN } from './support/membership-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decision 0016: money charged exactly once, on a real PostgreSQL server where each
// race runs on its own connections. Every payment that cannot be honoured becomes a refund owed.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('money exactly once', binDir);
const db = () => pgClientDatabase(server.admin()!);
const url = () => server.cluster()!.connectionString;

type Setup = { payment_reference: string; setup_reference: string; customer_id: string; amount: number };
type Refund = { reason: string; amount: number; refunded_at: Date | null };

const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db(), (tx) => rpc<T>(tx, call, params));
const refundsOf = async (m: TestUser) =>
  (
    await db().query<Refund>(
      `select o.reason, o.amount::float8 as amount, o.refunded_at from public.refunds_owed o
         join public.payments p on p.id = o.payment_id where p.billed_email = $1 order by o.created_at`,
      [m.email],
    )
  ).rows;
const paymentRows = async (m: TestUser) =>
  (
    await db().query<{ billing_reason: string | null; status: string; needs_refund: boolean; superseded: boolean }>(
      `select billing_reason, status::text, needs_refund, superseded_by is not null as superseded
         from public.payments where billed_email = $1 order by created_at, id`,
      [m.email],
    )
  ).rows;
const rowsOf = <T>(results: { rows?: T[]; error?: Error }[]) =>
  results.map((r) => {
    if (r.error) throw r.error;
    return r.rows!;
  });

const startCheckout = (m: TestUser, at: Date) => ({
  sql: 'select * from public.start_membership_checkout($1, $2, $3, $4, $5, $6)',
  params: [m.memberId, 'standard', 100, 'standard', 'Standard (£100/month)', at.toISOString()],
});
const saveCard = (s: Setup, at: Date) => ({
  sql: `select * from public.apply_card_setup($1, $2, 'PAID', $3, 'GBP', $4, 'tok-pays', $5)`,
  params: [s.setup_reference, `chk-${s.setup_reference}`, s.amount, s.customer_id, at.toISOString()],
});

describe.skipIf(!binDir)('money charged exactly once, on PostgreSQL', () => {
  it('two tabs buying Standard at once: only the newest checkout can be charged; one month, one charge', async () => {
    const member = await createUser(db(), 'two-tabs');
    const at = new Date();
    const setups = rowsOf(await together<Setup>(url(), [startCheckout(member, at), startCheckout(member, at)])).map((r) => r[0]!);
    // Both tabs' card-saving checkouts complete; both functions then try to charge their payment at once.
    const saved = rowsOf(
      await together<{ outcome: string; charge_reference: string | null }>(
        url(),
        setups.map((s) => saveCard(s, at)),
      ),
    ).map((r) => r[0]!);
    const references = setups.map((s) => s.payment_reference);
    const claims = rowsOf(
      await together<{ checkout_reference: string | null }>(
        url(),
        references.map((ref) => ({
          sql: 'select * from public.claim_membership_charge($1, $2)',
          params: [ref, at.toISOString()],
        })),
      ),
    )
      .map((r) => r[0]!)
      .filter((c) => c.checkout_reference);
    console.log(`[money] two tabs: card setups ${saved.map((s) => s.outcome).join(', ')}; charges claimed ${claims.length} of 2`);
    expect(claims).toHaveLength(1);
    await applyPaid(db(), { checkout_reference: claims[0]!.checkout_reference!, amount: 100 }, 'chk-the-one', at);

    expect(await membershipOf(db(), member)).toMatchObject({ status: 'active', period_number: 1, member_tier: 'standard' });
    const payments = await paymentRows(member);
    expect(payments.filter((p) => p.status === 'paid')).toHaveLength(1);
    expect(payments.filter((p) => p.superseded)).toHaveLength(1);
    expect(await refundsOf(member)).toEqual([]);
  });

  it('a payment that still arrives for a superseded checkout is recorded and owed back, never a second month', async () => {
    const member = await createUser(db(), 'late-first-tab');
    const at = new Date();
    const first = await service<Setup>('public.start_membership_checkout($1, $2, $3, $4, $5, $6)', startCheckout(member, at).params);
    await service('public.apply_card_setup($1, $2, $3, $4, $5, $6, $7, $8)', [
      first.setup_reference,
      `chk-${first.setup_reference}`,
      'PAID',
      first.amount,
      'GBP',
      first.customer_id,
      'tok-pays',
      at.toISOString(),
    ]);
    // The first tab's charge is out at the provider when the second tab starts its own checkout.
    const inFlight = (await claim(db(), first.payment_reference, at))!;
    const second = await service<Setup>('public.start_membership_checkout($1, $2, $3, $4, $5, $6)', startCheckout(member, at).params);
    await service('public.apply_card_setup($1, $2, $3, $4, $5, $6, $7, $8)', [
      second.setup_reference,
      `chk-${second.setup_reference}`,
      'PAID',
      second.amount,
      'GBP',
      second.customer_id,
      'tok-pays',
      at.toISOString(),
    ]);
    const secondCharge = (await claim(db(), second.payment_reference, at))!;
    // Both provider answers arrive at once.
    const outcomes = rowsOf(
      await together<{ outcome: string }>(
        url(),
        [inFlight, secondCharge].map((c) => ({
          sql: `select * from public.apply_membership_charge($1, $2, 'PAID', 100, 'GBP', $3)`,
          params: [c.checkout_reference, `chk-${c.checkout_reference}`, at.toISOString()],
        })),
      ),
    ).map((r) => r[0]!.outcome);
    expect(outcomes).toEqual(['applied', 'applied']);
    expect(await membershipOf(db(), member)).toMatchObject({ period_number: 1, status: 'active' });
    expect(await refundsOf(member)).toEqual([{ reason: 'superseded_checkout', amount: 100, refunded_at: null }]);
    // Listed under Refunds owed for the admin.
    const admin = await createUser(db(), 'money-admin', { is_admin: true });
    const listed = await asUser(db(), admin.claims, (tx) =>
      tx.query<{ reason: string }>(`select reason from public.refunds_owed where member_email = $1`, [member.email]),
    );
    expect(listed.rows).toEqual([{ reason: 'superseded_checkout' }]);
  });

  it('five upgrades at once make one charge', async () => {
    const member = await createUser(db(), 'five-upgrades');
    const at = new Date();
    await buyPlan(db(), member, at);
    const upgrade = {
      sql: 'select public.start_membership_upgrade($1, $2, $3, $4, $5, $6) as reference',
      params: [member.memberId, PLAN.platinum.slug, PLAN.platinum.amount, PLAN.platinum.tier, PLAN.platinum.description, at.toISOString()],
    };
    const references = rowsOf(
      await together<{ reference: string }>(
        url(),
        Array.from({ length: 5 }, () => upgrade),
      ),
    ).map((r) => r[0]!.reference);
    expect(new Set(references).size).toBe(1);
    const claimed = rowsOf(
      await together<{ checkout_reference: string | null }>(
        url(),
        references.map((ref) => ({
          sql: 'select * from public.claim_membership_charge($1, $2)',
          params: [ref, at.toISOString()],
        })),
      ),
    ).filter((r) => r[0]!.checkout_reference);
    console.log(`[money] five upgrades at once: ${new Set(references).size} payment, ${claimed.length} charge claimed`);
    expect(claimed).toHaveLength(1);
    const { rows } = await db().query<{ n: number }>(
      `select count(*)::int as n from public.payments where billed_email = $1 and billing_reason = 'upgrade'`,
      [member.email],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('a class paid by a member removed while the checkout was open is recorded and owed back', async () => {
    const admin = await createUser(db(), 'remover', { is_admin: true });
    const member = await createUser(db(), 'removed-payer', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db(), { price_payg: 10 });
    const hold = await service<{ checkout_reference: string }>('public.create_class_payment_hold($1, $2, 15, null)', [
      member.memberId,
      classId,
    ]);
    const results = await together<{ outcome?: string }>(url(), [
      { sql: 'select * from public.admin_delete_member($1)', params: [member.memberId], claims: admin.claims },
      { sql: `select * from public.apply_checkout_result($1, 'chk-removed', 'PAID', 10, 'GBP')`, params: [hold.checkout_reference] },
    ]);
    expect(results.map((r) => r.error?.message ?? 'ok')).toEqual(['ok', 'ok']);
    // Whichever came first, the £10 is on record as paid and owed back once.
    const refunds = await refundsOf(member);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 10, refunded_at: null });
    expect(['member_removed', 'member_deleted']).toContain(refunds[0]!.reason);
    expect((await paymentRows(member)).map((p) => p.status)).toEqual(['paid']);
  });

  it('a class paid after it filled is owed back and listed', async () => {
    const member = await createUser(db(), 'too-late', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db(), { price_payg: 10, capacity: 1 });
    const hold = await service<{ checkout_reference: string; booking_id: string }>('public.create_class_payment_hold($1, $2, 15, null)', [
      member.memberId,
      classId,
    ]);
    await db().query('delete from public.bookings where id = $1', [hold.booking_id]); // the hold lapsed
    const other = await createUser(db(), 'took-the-spot', { membership_tier: 'standard' });
    await asUser(db(), other.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
    await service(`public.apply_checkout_result($1, 'chk-late', 'PAID', 10, 'GBP')`, [hold.checkout_reference]);
    expect(await refundsOf(member)).toEqual([{ reason: 'class_filled', amount: 10, refunded_at: null }]);
  });

  it('plan bookings: five at once with one class left in the period book one; none after the plan ends', async () => {
    const member = await createUser(db(), 'allowance-race');
    const start = new Date(Date.now() - 20 * 86_400_000);
    await buyPlan(db(), member, start); // the paid period ends in about ten days
    const classes = [];
    for (let i = 0; i < 16; i += 1) classes.push(await createClass(db(), { startsIn: `${i + 1} hours`, capacity: 10 }));
    // 11 of the 12 classes of the period, some booked "last month" (one paid period gives one allowance).
    for (const [i, classId] of classes.slice(0, 11).entries()) {
      await db().query(
        `insert into public.bookings (member_id, class_id, type, payment_status, booked_at) values ($1, $2, 'paid', 'completed', now() - $3::interval)`,
        [member.memberId, classId, `${i * 2} days`],
      );
    }
    const results = await together(
      url(),
      classes.slice(11).map((classId) => ({
        sql: `select * from public.book_class($1, 'paid')`,
        params: [classId],
        claims: member.claims,
      })),
    );
    const booked = results.filter((r) => !r.error);
    expect(booked).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.hint)).toEqual([
      'allowance_used',
      'allowance_used',
      'allowance_used',
      'allowance_used',
    ]);

    // Cancelled: the plan covers classes until its last paid day, and none after.
    await asUser(db(), member.claims, (tx) => rpc(tx, 'public.cancel_membership()'));
    const later = await createClass(db(), { startsIn: '40 days' });
    await expectSqlError(
      asUser(db(), member.claims, (tx) => rpc(tx, `public.book_class($1, 'paid')`, [later])),
      {
        hint: 'outside_plan_period',
        message: /^Your plan covers classes until \d+ \w+ \d{4}: book this one as pay-as-you-go$/,
      },
    );
    // Without a choice (this period's classes are used) the class is offered at its price, not on the plan.
    expect(await asUser(db(), member.claims, (tx) => rpc(tx, 'public.book_class($1)', [later]))).toMatchObject({
      status: 'payment_required',
      booking_type: 'payg',
    });
  });

  it('an admin cannot delete their own login by writing their id another way', async () => {
    const admin = await createUser(db(), 'self-remover', { is_admin: true });
    for (const id of [admin.memberId, admin.memberId.toUpperCase(), `{${admin.memberId}}`]) {
      await expectSqlError(
        asUser(db(), admin.claims, (tx) => rpc(tx, 'public.admin_member_removal_target($1)', [id])),
        {
          hint: 'cannot_delete_self',
        },
      );
    }
  });
});
