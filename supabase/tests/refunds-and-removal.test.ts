import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Decision 0010: paid bookings the studio removes become refunds owed; deleting a member keeps their
// payments, owes the unused membership, and their email gets no second free trial.

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'refund-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

/** A pay-as-you-go member who paid £10 for a class: hold, then the provider's paid result. */
async function paidBooking(label: string, classFields: Parameters<typeof createClass>[1] = {}) {
  const member = await createUser(db, label, { membership_tier: 'payg', has_used_trial: true });
  const classId = await createClass(db, { price_payg: 10, ...classFields });
  const hold = await asServiceRole(db, (tx) =>
    rpc<{ booking_id: string; checkout_reference: string }>(tx, 'public.create_class_payment_hold($1, $2, 15)', [member.memberId, classId]),
  );
  await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [hold.booking_id]);
  await db.query(`update public.payments set status = 'paid', paid_at = now() where checkout_reference = $1`, [hold.checkout_reference]);
  return { member, classId, bookingId: hold.booking_id };
}
const refundsFor = async (email: string) =>
  (
    await db.query<{ reason: string; amount: string; member_email: string; refunded_at: Date | null }>(
      'select reason, amount, member_email, refunded_at from public.refunds_owed where member_email = $1 order by created_at',
      [email],
    )
  ).rows;
const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));

describe('refunds owed', () => {
  it("records an admin's cancel of a paid booking, the member's own cancel in time, and none for a late one", async () => {
    const a = await paidBooking('refund-admin-cancel');
    await asAdmin('public.cancel_booking($1)', [a.bookingId]);
    expect(await refundsFor(a.member.email)).toMatchObject([{ reason: 'admin_cancelled', amount: '10.00' }]);

    // "Free cancellation up to 12 hours before the start": the £10 goes back.
    const b = await paidBooking('refund-own-cancel');
    await asUser(db, b.member.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [b.bookingId]));
    expect(await refundsFor(b.member.email)).toMatchObject([{ reason: 'member_cancelled_in_time', amount: '10.00' }]);

    const c = await paidBooking('refund-late-cancel', { startsIn: '2 hours' });
    expect(await asUser(db, c.member.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [c.bookingId]))).toMatchObject({ late: true });
    expect(await refundsFor(c.member.email)).toEqual([]);
  });

  it('says why when a class is deleted or the timetable regenerated, and warns how many first', async () => {
    const a = await paidBooking('refund-class-deleted');
    expect(await asAdmin('public.paid_bookings_affected($1)', [a.classId])).toBe(1);
    await asUser(db, admin.claims, (tx) => tx.query('delete from public.classes where id = $1', [a.classId]));
    expect(await refundsFor(a.member.email)).toMatchObject([{ reason: 'class_deleted' }]);
    await expectSqlError(
      asUser(db, a.member.claims, (tx) => rpc(tx, 'public.paid_bookings_affected()')),
      { hint: 'not_admin' },
    );
  });

  it('owes nothing for a class that already took place', async () => {
    const a = await paidBooking('refund-past');
    await db.query(`update public.classes set start_time = now() - interval '1 hour' where id = $1`, [a.classId]);
    await asAdmin('public.cancel_booking($1)', [a.bookingId]);
    expect(await refundsFor(a.member.email)).toEqual([]);
  });

  it('is marked refunded once, by an admin only', async () => {
    const a = await paidBooking('refund-mark');
    await asAdmin('public.cancel_booking($1)', [a.bookingId]);
    const { rows } = await db.query<{ id: string }>('select id from public.refunds_owed where member_email = $1', [a.member.email]);
    await expectSqlError(
      asUser(db, a.member.claims, (tx) => rpc(tx, 'to_json(public.mark_refund_refunded($1))', [rows[0]!.id])),
      {
        hint: 'not_admin',
      },
    );
    await asAdmin('to_json(public.mark_refund_refunded($1))', [rows[0]!.id]);
    expect((await refundsFor(a.member.email))[0]!.refunded_at).not.toBeNull();
    await expectSqlError(asAdmin('to_json(public.mark_refund_refunded($1))', [rows[0]!.id]), { hint: 'refund_not_found' });
  });
});

describe('admin_delete_member', () => {
  it('keeps payments with the billed name and email, owes paid future classes, remembers the trial', async () => {
    const a = await paidBooking('remove-paid');
    const removal = await asAdmin<{ member_id: string; user_id: string; refunds_owed: number }>('to_json(public.admin_delete_member($1))', [
      a.member.memberId,
    ]);
    expect(removal).toEqual({ member_id: a.member.memberId, user_id: a.member.userId, refunds_owed: 1 });
    const { rows } = await db.query('select member_id, billed_email, status from public.payments where billed_email = $1', [
      a.member.email,
    ]);
    expect(rows).toEqual([{ member_id: null, billed_email: a.member.email, status: 'paid' }]);
    expect(await refundsFor(a.member.email)).toMatchObject([{ reason: 'member_deleted', amount: '10.00' }]);

    // The login goes too (the delete-member function asks the auth service); signing up again
    // with the same email, even through the free-trial page, gives no second trial.
    await db.query('delete from auth.users where id = $1', [a.member.userId]);
    await db.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at)
       values (gen_random_uuid(), 'authenticated', 'authenticated', upper($1), 'x', now(), '{"signup_source":"free-trial"}', now(), now())`,
      [a.member.email],
    );
    const again = await db.query(
      'select membership_tier, has_used_trial, trial_expires_at from public.members where lower(email) = lower($1)',
      [a.member.email],
    );
    expect(again.rows).toEqual([{ membership_tier: 'payg', has_used_trial: true, trial_expires_at: null }]);
  });

  it('owes the unused part of a paid membership', async () => {
    const member = await createUser(db, 'remove-plan', { membership_tier: 'standard' });
    await db.query(
      `insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference, status, paid_at)
       values ($1, 'plan', 'standard', 'standard', 100, 'Standard membership', 'plan-' || gen_random_uuid(), 'paid', now() - interval '10 days')`,
      [member.memberId],
    );
    await db.query(`update public.members set plan_renews_at = now() + interval '20 days' where id = $1`, [member.memberId]);
    await asAdmin('to_json(public.admin_delete_member($1))', [member.memberId]);
    const owed = await refundsFor(member.email);
    expect(owed).toHaveLength(1);
    expect(Number(owed[0]!.amount)).toBeCloseTo(66.67, 1);
  });

  it('refuses members, the admin themself and unknown members, deleting nothing', async () => {
    const m = await createUser(db, 'remove-refused', { membership_tier: 'premium' });
    await expectSqlError(
      asUser(db, m.claims, (tx) => rpc(tx, 'to_json(public.admin_delete_member($1))', [admin.memberId])),
      { hint: 'not_admin' },
    );
    await expectSqlError(asAdmin('to_json(public.admin_delete_member($1))', [admin.memberId]), { hint: 'cannot_delete_self' });
    await expectSqlError(asAdmin('to_json(public.admin_delete_member($1))', [crypto.randomUUID()]), { hint: 'member_not_found' });
    const { rows } = await db.query('select id from public.members where id in ($1, $2)', [m.memberId, admin.memberId]);
    expect(rows).toHaveLength(2);
  });
});
