import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claimDue, PLAN } from './support/membership-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Packages and Premium periods grant session credits and guest passes; a
// One-to-One session is booked with a credit or paid for, never with an allowance, the trial or
// for nothing; cancelling in time gives the credit back; credits expire after an email.

type Credit = { kind: string; source: string; used: boolean; revoked: boolean; expires_at: Date; unit_price: number | null };
type Choice = { credit_id: string | null; expires_at: Date | null; refusal: string | null; message: string | null };

const DAY = 86_400_000;

/** An interval from now to `at`, for createClass's `startsIn`. */
const startsAt = (at: Date) => `${Math.round((at.getTime() - Date.now()) / 1000)} seconds`;

/** 10:00 London on the Monday of the week after next (always within a Bronze package's 6 weeks). */
function mondayInTwoWeeks(): Date {
  const d = new Date(Date.now() + 14 * DAY);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back, 10, 0, 0));
}

async function creditsOf(db: SqlDatabase, m: TestUser): Promise<Credit[]> {
  const { rows } = await db.query<Credit>(
    `select kind::text, source, used_at is not null as used, revoked_at is not null as revoked, expires_at,
            unit_price::float8 as unit_price
       from public.credits where member_id = $1 order by kind, expires_at, seq`,
    [m.memberId],
  );
  return rows;
}

/** A package bought as the checkout function does: the payment recorded, then the provider's PAID. */
async function buyPackage(db: SqlDatabase, m: TestUser, slug: 'bronze' | 'dropin') {
  const amount = slug === 'bronze' ? 750 : 115;
  const payment = await asServiceRole(db, (tx) =>
    rpc<{ checkout_reference: string }>(tx, 'public.create_plan_payment($1, $2, $3, $4)', [m.memberId, slug, amount, `${slug} package`]),
  );
  const apply = () =>
    asServiceRole(db, (tx) =>
      rpc<{ outcome: string }>(tx, `public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`, [
        payment.checkout_reference,
        `chk-${payment.checkout_reference}`,
        amount,
      ]),
    );
  return { reference: payment.checkout_reference, apply };
}

/** A One-to-One session starting exactly at `at`. */
async function oneToOne(db: SqlDatabase, at: Date, price: number | null = null): Promise<string> {
  const id = await createClass(db, {
    type: 'One-to-One',
    capacity: 1,
    price_payg: price,
    startsIn: startsAt(at),
    name: 'Personal Training',
  });
  await db.query('update public.classes set start_time = $2 where id = $1', [id, at.toISOString()]);
  return id;
}

describe('credits on PGlite', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'credits-admin', { is_admin: true });
  });
  afterAll(async () => {
    await db.close();
  });
  const as = <T>(m: TestUser, call: string, params: unknown[] = []) => asUser(db, m.claims, (tx) => rpc<T>(tx, call, params));

  it('a Bronze Package grants 10 sessions valid 6 weeks at £75 each, once however often the payment is applied', async () => {
    const member = await createUser(db, 'bronze-buyer', { membership_tier: 'payg', has_used_trial: true });
    const bronze = await buyPackage(db, member, 'bronze');
    expect(await creditsOf(db, member)).toEqual([]);
    expect((await bronze.apply()).outcome).toBe('applied');
    expect((await bronze.apply()).outcome).toBe('already_applied');
    const credits = await creditsOf(db, member);
    expect(credits).toHaveLength(10);
    expect(credits.every((c) => c.kind === 'personal_training' && c.source === 'package' && c.unit_price === 75 && !c.used)).toBe(true);
    const days = (credits[0]!.expires_at.getTime() - Date.now()) / DAY;
    expect(days).toBeGreaterThan(41.9);
    expect(days).toBeLessThanOrEqual(42);
  });

  it('books two One-to-Ones in a week with credits, refuses a third that week by name, and takes one the next week', async () => {
    const member = await createUser(db, 'bronze-weekly', { membership_tier: 'payg', has_used_trial: true });
    await (await buyPackage(db, member, 'bronze')).apply();
    const monday = mondayInTwoWeeks();
    const [mon, wed, fri, nextMon] = await Promise.all([0, 2, 4, 7].map((d) => oneToOne(db, new Date(monday.getTime() + d * DAY))));
    const choice = await as<Choice>(member, 'public.my_credit_for_class($1)', [mon]);
    expect(choice.credit_id).not.toBeNull();
    expect(await as(member, 'public.book_with_credit($1)', [mon])).toMatchObject({ status: 'booked', booking_type: 'credit' });
    await as(member, 'public.book_with_credit($1)', [wed]);
    await expectSqlError(as(member, 'public.book_with_credit($1)', [fri]), {
      hint: 'weekly_cap_reached',
      message: /^Your package allows 2 sessions a week, and that week you have booked Mon \d+ \w+ 10:00, Wed \d+ \w+ 10:00\.$/,
    });
    expect(await as(member, 'public.book_with_credit($1)', [nextMon])).toMatchObject({ status: 'booked' });
    expect((await creditsOf(db, member)).filter((c) => c.used)).toHaveLength(3);
  });

  it('cancelling in time gives the credit back; a late cancellation uses it', async () => {
    const member = await createUser(db, 'bronze-cancel', { membership_tier: 'payg', has_used_trial: true });
    await (await buyPackage(db, member, 'dropin')).apply();
    const inTime = await oneToOne(db, new Date(Date.now() + 5 * DAY));
    const booked = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [inTime]);
    expect((await creditsOf(db, member))[0]!.used).toBe(true);
    await as(member, 'public.cancel_booking($1)', [booked.booking_id]);
    expect((await creditsOf(db, member))[0]!.used).toBe(false);

    const soon = await oneToOne(db, new Date(Date.now() + 2 * 3_600_000));
    const late = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [soon]);
    expect(await as(member, 'public.cancel_booking($1)', [late.booking_id])).toMatchObject({ late: true });
    expect((await creditsOf(db, member))[0]!.used).toBe(true);
    await expectSqlError(as(member, 'public.book_with_credit($1)', [inTime]), { hint: 'no_credit', message: /it is £115\.00\.$/ });
  });

  it('a One-to-One is never free, never on the plan allowance and never the free trial', async () => {
    const payg = await createUser(db, 'payg-one-to-one', { membership_tier: 'payg', has_used_trial: true });
    const trial = await createUser(db, 'trial-one-to-one');
    const standard = await createUser(db, 'standard-one-to-one', { membership_tier: 'standard' });
    const session = await oneToOne(db, new Date(Date.now() + 3 * DAY), null);
    const { rows } = await db.query<{ price: number }>('select price_payg::float8 as price from public.classes where id = $1', [session]);
    expect(rows).toEqual([{ price: 115 }]);
    for (const [who, type] of [
      [payg, null],
      [trial, null],
      [trial, 'trial'],
      [standard, null],
      [standard, 'paid'],
    ] as const) {
      expect(await as(who, 'public.book_class($1, $2)', [session, type])).toMatchObject({
        status: 'payment_required',
        needs_payment: true,
      });
    }
    const { rows: booked } = await db.query('select 1 from public.bookings where class_id = $1', [session]);
    expect(booked).toEqual([]);
    // The hold charges the price, as pay-as-you-go, whatever type was asked for.
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ amount: number }>(tx, `public.create_class_payment_hold($1, $2, 15, 'paid')`, [standard.memberId, session]),
    );
    expect(Number(hold.amount)).toBe(115);
    await expectSqlError(as(standard, 'public.book_with_credit($1)', [session]), { hint: 'already_booked' });
  });

  it("a Premium period grants 1 session and 2 guest passes that end with it; the renewal ends last period's", async () => {
    const member = await createUser(db, 'premium-credits');
    const t0 = new Date('2027-03-10T10:00:00Z');
    await buyPlan(db, member, t0, PLAN.platinum);
    const first = await creditsOf(db, member);
    expect(first.map((c) => `${c.kind}:${c.source}`)).toEqual([
      'guest_pass:membership_period',
      'guest_pass:membership_period',
      'personal_training:membership_period',
    ]);
    expect(first[0]!.expires_at).toEqual(new Date('2027-04-10T09:00:00Z'));
    const t1 = new Date('2027-04-10T10:00:00Z');
    const [renewal] = (await claimDue(db, t1)).filter((c) => c.billing_reason === 'renewal' && c.amount == 165);
    await applyPaid(db, renewal!, `chk-${renewal!.checkout_reference}`, t1);
    const after = await creditsOf(db, member);
    expect(after).toHaveLength(6);
    expect(after.filter((c) => c.expires_at > t1)).toHaveLength(3);
  });

  it('admins grant and revoke with a reason; members cannot', async () => {
    const member = await createUser(db, 'granted');
    await expectSqlError(as(member, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [member.memberId, 'personal_training', 'me']), {
      hint: 'not_admin',
    });
    await expectSqlError(as(admin, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [member.memberId, 'personal_training', ' ']), {
      hint: 'invalid_credit',
    });
    expect(await as(admin, 'public.admin_grant_credits($1, $2, 2, 30, $3)', [member.memberId, 'guest_pass', 'Birthday'])).toBe(2);
    const { rows } = await db.query<{ id: string }>('select id from public.credits where member_id = $1 order by seq limit 1', [
      member.memberId,
    ]);
    await as(admin, 'public.admin_revoke_credit($1, $2)', [rows[0]!.id, 'Given in error']);
    await expectSqlError(as(admin, 'public.admin_revoke_credit($1, $2)', [rows[0]!.id, 'Again']), { hint: 'credit_not_found' });
    expect((await creditsOf(db, member)).map((c) => c.revoked)).toEqual([true, false]);
    // A member reads their own credits only.
    const mine = await asUser(db, member.claims, (tx) => tx.query('select id from public.credits'));
    expect(mine.rows).toHaveLength(2);
  });

  it('Analytics counts what was sold and not yet delivered, with its value; members cannot read it', async () => {
    type Outstanding = { kind: string; source: string; credits: number; value: string; expiring_soon: number };
    const figures = async () => {
      const rows = await asUser(db, admin.claims, (tx) => tx.query<Outstanding>('select * from public.admin_credits_outstanding()'));
      return Object.fromEntries(rows.rows.map((r) => [`${r.kind}/${r.source}`, r]));
    };
    const before = await figures();
    const buyer = await createUser(db, 'outstanding-buyer');
    await (await buyPackage(db, buyer, 'bronze')).apply();
    await as(admin, 'public.admin_grant_credits($1, $2, 3, 5, $3)', [buyer.memberId, 'guest_pass', 'Goodwill']);
    // One of the ten delivered: a booked session is not outstanding.
    await as(buyer, 'public.book_with_credit($1)', [await oneToOne(db, new Date(Date.now() + 3 * DAY))]);
    const after = await figures();
    const delta = (key: string, field: 'credits' | 'expiring_soon') => (after[key]?.[field] ?? 0) - (before[key]?.[field] ?? 0);
    expect(delta('personal_training/package', 'credits')).toBe(9);
    expect(Number(after['personal_training/package']!.value) - Number(before['personal_training/package']?.value ?? 0)).toBe(675);
    expect(delta('guest_pass/admin_grant', 'credits')).toBe(3);
    expect(delta('guest_pass/admin_grant', 'expiring_soon')).toBe(3);
    await expectSqlError(
      asUser(db, buyer.claims, (tx) => tx.query('select * from public.admin_credits_outstanding()')),
      { hint: 'not_admin' },
    );
  });

  it('emails once a week before credits expire, then they cannot be used', async () => {
    const member = await createUser(db, 'expiring', { membership_tier: 'payg', has_used_trial: true });
    await (await buyPackage(db, member, 'bronze')).apply();
    const remind = (at: Date) =>
      asServiceRole(db, (tx) => rpc<number>(tx, 'public.enqueue_credit_expiry_reminders($1)', [at.toISOString()]));
    const sixWeeks = new Date(Date.now() + 35.5 * DAY);
    await remind(new Date(Date.now() + 30 * DAY));
    await remind(sixWeeks);
    await remind(sixWeeks);
    const { rows } = await db.query<{ subject: string; body_text: string }>(
      `select subject, body_text from public.notification_outbox where member_id = $1 and kind = 'credits_expiring'`,
      [member.memberId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body_text).toContain('You have 10 personal-training sessions that expire on');
    const after = await oneToOne(db, new Date(Date.now() + 43 * DAY));
    await expectSqlError(as(member, 'public.book_with_credit($1)', [after]), { hint: 'no_credit' });
  });

  it('removing a member owes back their unused package sessions at their unit price', async () => {
    const member = await createUser(db, 'removed-with-credits', { membership_tier: 'payg', has_used_trial: true });
    await (await buyPackage(db, member, 'bronze')).apply();
    await as(member, 'public.book_with_credit($1)', [await oneToOne(db, new Date(Date.now() + 4 * DAY))]);
    await as(admin, 'public.admin_delete_member($1)', [member.memberId]);
    const { rows } = await db.query<{ amount: string; description: string; reason: string }>(
      `select amount::text, description, reason from public.refunds_owed where member_email = $1`,
      [member.email],
    );
    expect(rows).toEqual([{ amount: '675.00', description: 'bronze package (9 unused sessions)', reason: 'member_deleted' }]);
  });

  it('refunding a package revokes its unused sessions and owes them back; used ones stay used; once only', async () => {
    const member = await createUser(db, 'refunded-package', { membership_tier: 'payg', has_used_trial: true });
    const bronze = await buyPackage(db, member, 'bronze');
    await bronze.apply();
    await as(member, 'public.book_with_credit($1)', [await oneToOne(db, new Date(Date.now() + 4 * DAY))]);
    const { rows: paid } = await db.query<{ id: string }>('select id from public.payments where checkout_reference = $1', [
      bronze.reference,
    ]);
    const paymentId = paid[0]!.id;

    await expectSqlError(as(member, 'public.admin_refund_package($1, $2)', [paymentId, 'Moving away']), { hint: 'not_admin' });
    await expectSqlError(as(admin, 'public.admin_refund_package($1, $2)', [paymentId, ' ']), { hint: 'invalid_credit' });
    await expectSqlError(as(admin, 'public.admin_refund_package($1, $2)', [member.memberId, 'Not a payment']), {
      hint: 'package_not_found',
    });

    const refundId = await as<string>(admin, 'public.admin_refund_package($1, $2)', [paymentId, 'Moving away']);
    const { rows } = await db.query<{ id: string; amount: string; description: string; reason: string }>(
      `select id, amount::text, description, reason from public.refunds_owed where payment_id = $1`,
      [paymentId],
    );
    expect(rows).toEqual([
      { id: refundId, amount: '675.00', description: 'bronze package (9 unused sessions)', reason: 'package_refunded' },
    ]);
    const credits = await creditsOf(db, member);
    expect(credits.filter((c) => c.used)).toHaveLength(1);
    expect(credits.filter((c) => c.revoked)).toHaveLength(9);
    // Nothing left to book with, nor to refund again.
    await expectSqlError(as(member, 'public.book_with_credit($1)', [await oneToOne(db, new Date(Date.now() + 5 * DAY))]), {
      hint: 'no_credit',
    });
    await expectSqlError(as(admin, 'public.admin_refund_package($1, $2)', [paymentId, 'Again']), { hint: 'nothing_to_refund' });
  });

  it('paying a package refund out revokes the sessions it priced only, not one given back after it was priced', async () => {
    const member = await createUser(db, 'refund-then-cancel', { membership_tier: 'payg', has_used_trial: true });
    const bronze = await buyPackage(db, member, 'bronze');
    await bronze.apply();
    const booked = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [
      await oneToOne(db, new Date(Date.now() + 4 * DAY)),
    ]);
    const { rows: paid } = await db.query<{ id: string }>('select id from public.payments where checkout_reference = $1', [
      bronze.reference,
    ]);
    const refundId = await as<string>(admin, 'public.admin_refund_package($1, $2)', [paid[0]!.id, 'Moving away']);
    // Priced: the 9 unused sessions, £675. The booked one is the member's.
    const { rows: refund } = await db.query<{ amount: string }>('select amount::text from public.refunds_owed where id = $1', [refundId]);
    expect(refund).toEqual([{ amount: '675.00' }]);

    // The member cancels in time: the session comes back to them, after the refund was priced.
    await as(member, 'public.cancel_booking($1)', [booked.booking_id]);
    await as(admin, 'public.mark_refund_refunded($1, $2)', [refundId, 'manual-1']);

    const credits = await creditsOf(db, member);
    expect(credits.filter((c) => c.revoked)).toHaveLength(9);
    expect(credits.filter((c) => !c.revoked && !c.used)).toHaveLength(1);
    const { rows: priced } = await db.query<{ n: number }>('select count(*)::int as n from public.credits where refund_id = $1', [
      refundId,
    ]);
    expect(priced[0]!.n).toBe(9);
    // The package is refunded once: the session given back is the member's, not a second refund.
    await expectSqlError(as(admin, 'public.admin_refund_package($1, $2)', [paid[0]!.id, 'The last one too']), {
      code: 'P0001',
      hint: 'package_already_refunded',
      message: /^This package was refunded on \d{1,2} \w+ \d{4}: sessions given back to the member since then are theirs to use\.$/,
    });
    // Still theirs to book with.
    expect(await as(member, 'public.book_with_credit($1)', [await oneToOne(db, new Date(Date.now() + 6 * DAY))])).toMatchObject({
      status: 'booked',
      booking_type: 'credit',
    });
  });
});

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('credits race', binDir);

describe.skipIf(!binDir)('credits on PostgreSQL', () => {
  it('five One-to-One bookings at once holding one credit book exactly one', async () => {
    const db = pgClientDatabase(server.admin()!);
    const member = await createUser(db, 'one-credit-race', { membership_tier: 'payg', has_used_trial: true });
    await (await buyPackage(db, member, 'dropin')).apply();
    const sessions = [];
    for (let i = 0; i < 5; i += 1) sessions.push(await oneToOne(db, new Date(Date.now() + (3 + i) * DAY)));
    const results = await together(
      server.cluster()!.connectionString,
      sessions.map((id) => ({ sql: 'select * from public.book_with_credit($1)', params: [id], claims: member.claims })),
    );
    console.log(`[credits] five bookings with one credit: ${results.filter((r) => !r.error).length} booked`);
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.hint)).toEqual(['no_credit', 'no_credit', 'no_credit', 'no_credit']);
    expect((await creditsOf(db, member)).map((c) => c.used)).toEqual([true]);
  });
});
