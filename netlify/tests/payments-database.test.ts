import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../../supabase/local/db/as-user.ts';
import type { Database } from '../../supabase/local/db/open-database.ts';
import { createTestDatabase } from '../../supabase/local/db/snapshot.ts';
import { classCounts, createClass, createUser, expectSqlError, rpc, type TestUser } from '../../supabase/tests/support/fixtures.ts';
import { CLASS_HOLD_MINUTES } from '../lib/payments/payment-rules';

/*
 * The payments migration against the real engine (PGlite), called as the functions call it: the
 * service role. Covers the hold, verify-then-apply (paid, declined, expired, replays, mismatches,
 * late payments), plans granting tiers, and who may read or call what.
 */
let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type Hold = {
  payment_id: string;
  booking_id: string;
  checkout_reference: string;
  amount: number;
  currency: string;
  description: string;
  hold_expires_at: string;
};
type Applied = { outcome: string; payment_id: string | null; status: string | null };

const asService = <T>(call: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const hold = (member: TestUser, classId: string) =>
  asService<Hold>('public.create_class_payment_hold($1, $2, $3)', [member.memberId, classId, CLASS_HOLD_MINUTES]);
const apply = (reference: string, checkoutId: string, status: string, amount: number | null, currency = 'GBP') =>
  asService<Applied>('public.apply_checkout_result($1, $2, $3, $4, $5)', [reference, checkoutId, status, amount, currency]);
const setCheckout = (reference: string, checkoutId: string) =>
  asServiceRole(db, (tx) => tx.query('select public.set_payment_checkout($1, $2)', [reference, checkoutId]));

async function payment(reference: string) {
  const { rows } = await db.query<{
    status: string;
    booking_id: string | null;
    paid_at: Date | null;
    needs_refund: boolean;
    provider_checkout_id: string | null;
    amount: string;
  }>(
    'select status, booking_id, paid_at, needs_refund, provider_checkout_id, amount::text from public.payments where checkout_reference = $1',
    [reference],
  );
  return rows[0]!;
}

async function bookingsOf(memberId: string, classId: string) {
  const { rows } = await db.query<{ id: string; type: string; payment_status: string; hold_expires_at: Date | null }>(
    'select id, type, payment_status, hold_expires_at from public.bookings where member_id = $1 and class_id = $2',
    [memberId, classId],
  );
  return rows;
}

const paygUsed = (label: string) => createUser(db, label, { membership_tier: 'payg', has_used_trial: true });

describe('create_class_payment_hold', () => {
  it('holds a spot with a pending payg booking and records the class price as a pending payment', async () => {
    const member = await paygUsed('hold');
    const classId = await createClass(db, { name: 'Breakfast Club', capacity: 5, price_payg: 10 });

    const result = await hold(member, classId);
    expect(result).toMatchObject({ amount: 10, currency: 'GBP', description: 'Breakfast Club - PAYG Booking' });
    expect(result.checkout_reference).toMatch(/^class-[0-9a-f-]{36}$/);
    const minutesHeld = (new Date(result.hold_expires_at).getTime() - Date.now()) / 60_000;
    expect(minutesHeld).toBeGreaterThan(CLASS_HOLD_MINUTES - 1);
    expect(minutesHeld).toBeLessThanOrEqual(CLASS_HOLD_MINUTES);

    const [booking] = await bookingsOf(member.memberId, classId);
    expect(booking).toMatchObject({ id: result.booking_id, type: 'payg', payment_status: 'pending' });
    expect((await classCounts(db, classId)).spots_left).toBe(4);
    expect(await payment(result.checkout_reference)).toMatchObject({ status: 'pending', booking_id: result.booking_id, amount: '10.00' });
  });

  it.each([
    ['a standard member', { membership_tier: 'standard' as const }, {}, 'payment_not_required'],
    ['a payg member whose trial is unused', { membership_tier: 'payg' as const, has_used_trial: false }, {}, 'payment_not_required'],
    ['a free class', { membership_tier: 'payg' as const, has_used_trial: true }, { price_payg: null }, 'payment_not_required'],
    ['a class that has started', { membership_tier: 'payg' as const, has_used_trial: true }, { startsIn: '-5 minutes' }, 'class_started'],
  ])('refuses %s', async (_label, fields, classFields, hint) => {
    const member = await createUser(db, 'refuse', fields);
    const classId = await createClass(db, classFields);
    await expectSqlError(hold(member, classId), { hint });
    expect(await bookingsOf(member.memberId, classId)).toEqual([]);
  });

  it('refuses a second hold for the same class and the last spot twice', async () => {
    const [first, second] = [await paygUsed('dup-a'), await paygUsed('dup-b')];
    const classId = await createClass(db, { capacity: 1 });
    await hold(first, classId);
    await expectSqlError(hold(first, classId), { hint: 'already_booked', code: '23505', message: 'You have already booked this class' });
    await expectSqlError(hold(second, classId), { hint: 'class_full', message: 'This class is fully booked' });
  });

  it('frees lapsed holds before counting spots', async () => {
    const [first, second] = [await paygUsed('lapse-a'), await paygUsed('lapse-b')];
    const classId = await createClass(db, { capacity: 1 });
    const firstHold = await hold(first, classId);
    await db.query("update public.bookings set hold_expires_at = now() - interval '1 minute' where id = $1", [firstHold.booking_id]);
    await hold(second, classId);
    expect(await bookingsOf(first.memberId, classId)).toEqual([]);
    // The lapsed hold's payment can no longer buy that spot.
    expect((await payment(firstHold.checkout_reference)).status).toBe('expired');
  });
});

describe('apply_checkout_result for a class', () => {
  async function pendingClassPayment(label: string, capacity = 5) {
    const member = await paygUsed(label);
    const classId = await createClass(db, { capacity, price_payg: 10 });
    const h = await hold(member, classId);
    await setCheckout(h.checkout_reference, `chk-${label}`);
    return { member, classId, h, checkoutId: `chk-${label}` };
  }

  it('completes the booking once, and a replay changes nothing', async () => {
    const { member, classId, h, checkoutId } = await pendingClassPayment('paid');
    expect(await apply(h.checkout_reference, checkoutId, 'PAID', 10)).toMatchObject({ outcome: 'applied', status: 'paid' });
    const [booking] = await bookingsOf(member.memberId, classId);
    expect(booking).toMatchObject({ payment_status: 'completed', hold_expires_at: null });
    const paid = await payment(h.checkout_reference);
    expect(paid).toMatchObject({ status: 'paid', needs_refund: false, booking_id: h.booking_id });
    expect(paid.paid_at).toBeInstanceOf(Date);

    expect(await apply(h.checkout_reference, checkoutId, 'PAID', 10)).toMatchObject({ outcome: 'already_applied' });
    expect(await apply(h.checkout_reference, checkoutId, 'FAILED', 10)).toMatchObject({ outcome: 'already_applied', status: 'paid' });
    expect(await payment(h.checkout_reference)).toEqual(paid);
    expect(await bookingsOf(member.memberId, classId)).toEqual([booking]);
  });

  it.each([
    ['a different amount', 'PAID', 9.99, 'GBP', null],
    ['a different currency', 'PAID', 10, 'EUR', null],
    ['another checkout id', 'PAID', 10, 'GBP', 'chk-someone-else'],
    ['an unknown status', 'REFUNDED', 10, 'GBP', null],
  ])('changes nothing on a mismatch: %s', async (_label, status, amount, currency, otherId) => {
    const { member, classId, h, checkoutId } = await pendingClassPayment(`mismatch-${Math.random()}`);
    const before = await bookingsOf(member.memberId, classId);
    expect(await apply(h.checkout_reference, otherId ?? checkoutId, status, amount, currency)).toMatchObject({ outcome: 'mismatch' });
    expect(await payment(h.checkout_reference)).toMatchObject({ status: 'pending', paid_at: null });
    expect(await bookingsOf(member.memberId, classId)).toEqual(before);
  });

  it('ignores a reference it never issued', async () => {
    expect(await apply('class-00000000-0000-4000-8000-000000000000', 'chk-x', 'PAID', 10)).toEqual({
      outcome: 'unknown_reference',
      payment_id: null,
      status: null,
    });
  });

  it('leaves a pending checkout pending', async () => {
    const { h, checkoutId } = await pendingClassPayment('still');
    expect(await apply(h.checkout_reference, checkoutId, 'PENDING', 10)).toMatchObject({ outcome: 'still_pending' });
    expect((await payment(h.checkout_reference)).status).toBe('pending');
  });

  it('a declined payment fails and frees the spot; replays change nothing', async () => {
    const { member, classId, h, checkoutId } = await pendingClassPayment('declined');
    expect((await classCounts(db, classId)).spots_left).toBe(4);
    expect(await apply(h.checkout_reference, checkoutId, 'FAILED', 10)).toMatchObject({ outcome: 'marked_failed', status: 'failed' });
    expect(await bookingsOf(member.memberId, classId)).toEqual([]);
    expect((await classCounts(db, classId)).spots_left).toBe(5);
    expect(await payment(h.checkout_reference)).toMatchObject({ status: 'failed', booking_id: null });
    expect(await apply(h.checkout_reference, checkoutId, 'FAILED', 10)).toMatchObject({ outcome: 'already_applied' });
  });

  it('an expired checkout expires the payment and frees the spot', async () => {
    const { member, classId, h, checkoutId } = await pendingClassPayment('expired');
    expect(await apply(h.checkout_reference, checkoutId, 'EXPIRED', 10)).toMatchObject({ outcome: 'marked_failed', status: 'expired' });
    expect(await bookingsOf(member.memberId, classId)).toEqual([]);
  });

  it('a payment that succeeds after a declined attempt books the spot again while it is free', async () => {
    const { member, classId, h, checkoutId } = await pendingClassPayment('retry');
    await apply(h.checkout_reference, checkoutId, 'FAILED', 10);
    expect(await apply(h.checkout_reference, checkoutId, 'PAID', 10)).toMatchObject({ outcome: 'applied' });
    const [booking] = await bookingsOf(member.memberId, classId);
    expect(booking).toMatchObject({ type: 'payg', payment_status: 'completed' });
    expect(await payment(h.checkout_reference)).toMatchObject({ status: 'paid', booking_id: booking!.id, needs_refund: false });
  });

  it('a payment that lands after the spot was taken is recorded as owing a refund', async () => {
    const { member, classId, h, checkoutId } = await pendingClassPayment('late', 1);
    await apply(h.checkout_reference, checkoutId, 'EXPIRED', 10);
    await hold(await paygUsed('late-other'), classId);
    expect(await apply(h.checkout_reference, checkoutId, 'PAID', 10)).toMatchObject({ outcome: 'applied' });
    expect(await bookingsOf(member.memberId, classId)).toEqual([]);
    expect(await payment(h.checkout_reference)).toMatchObject({ status: 'paid', booking_id: null, needs_refund: true });
  });

  it('abandon_payment (the provider refused the checkout) fails the payment and releases the hold', async () => {
    const member = await paygUsed('abandon');
    const classId = await createClass(db, {});
    const h = await hold(member, classId);
    await asServiceRole(db, (tx) => tx.query('select public.abandon_payment($1)', [h.checkout_reference]));
    expect(await bookingsOf(member.memberId, classId)).toEqual([]);
    expect((await payment(h.checkout_reference)).status).toBe('failed');
  });
});

describe('plans', () => {
  const createPlan = (member: TestUser, slug: string, amount: string) =>
    asService<{ checkout_reference: string }>('public.create_plan_payment($1, $2, $3, $4)', [
      member.memberId,
      slug,
      amount,
      `${slug} plan`,
    ]);

  async function tierOf(memberId: string) {
    const { rows } = await db.query<{ membership_tier: string; plan_renews_at: Date | null }>(
      'select membership_tier, plan_renews_at from public.members where id = $1',
      [memberId],
    );
    return rows[0]!;
  }

  it('a one-off plan payment cannot grant a tier: create_plan_payment takes none', async () => {
    const member = await paygUsed('plan-standard');
    await expectSqlError(
      asService('public.create_plan_payment(p_member_id => $1, p_plan_slug => $2, p_amount => $3, p_grants_tier => $4)', [
        member.memberId,
        'standard',
        '100.00',
        'standard',
      ]),
      { code: '42883' },
    );
    expect(await tierOf(member.memberId)).toEqual({ membership_tier: 'payg', plan_renews_at: null });
  });

  it('a training package is recorded as paid without changing the tier', async () => {
    const member = await paygUsed('dropin');
    const { checkout_reference: ref } = await createPlan(member, 'dropin', '115.00');
    await apply(ref, 'chk-dropin', 'PAID', 115);
    expect((await tierOf(member.memberId)).membership_tier).toBe('payg');
    expect((await payment(ref)).status).toBe('paid');
  });

  it('a second package checkout supersedes the first: money that still arrives for the first is owed back', async () => {
    const member = await paygUsed('two-packages');
    const first = await createPlan(member, 'bronze', '750.00');
    const second = await createPlan(member, 'bronze', '750.00');
    expect((await payment(first.checkout_reference)).status).toBe('expired');
    expect(await apply(first.checkout_reference, 'chk-first', 'PAID', 750)).toMatchObject({ outcome: 'applied' });
    expect(await apply(second.checkout_reference, 'chk-second', 'PAID', 750)).toMatchObject({ outcome: 'applied' });
    expect(await apply(first.checkout_reference, 'chk-first', 'PAID', 750)).toMatchObject({ outcome: 'already_applied' });
    const { rows } = await db.query<{ reason: string; amount: string }>(
      `select o.reason, o.amount::text from public.refunds_owed o join public.payments p on p.id = o.payment_id
        where p.checkout_reference = any($1)`,
      [[first.checkout_reference, second.checkout_reference]],
    );
    expect(rows).toEqual([{ reason: 'superseded_checkout', amount: '750.00' }]);
  });

  it('a plan paid at the wrong amount changes nothing', async () => {
    const member = await paygUsed('plan-cheap');
    const { checkout_reference: ref } = await createPlan(member, 'bronze', '750.00');
    expect(await apply(ref, 'chk-cheap', 'PAID', 1)).toMatchObject({ outcome: 'mismatch' });
    expect((await payment(ref)).status).toBe('pending');
  });
});

describe('who may see and do what', () => {
  it('a member reads only their own payments; anon reads none', async () => {
    const [owner, other] = [await paygUsed('rls-owner'), await paygUsed('rls-other')];
    const h = await hold(owner, await createClass(db, {}));
    const read = (user: TestUser) =>
      asUser(
        db,
        user.claims,
        async (tx) => (await tx.query<{ checkout_reference: string }>('select checkout_reference from public.payments')).rows,
      );
    expect(await read(owner)).toEqual([{ checkout_reference: h.checkout_reference }]);
    expect(await read(other)).toEqual([]);
    await expectSqlError(
      asAnon(db, (tx) => tx.query('select * from public.payments')),
      { code: '42501' },
    );
  });

  it('members cannot write payments or call the payment RPCs', async () => {
    const member = await paygUsed('rls-writer');
    const h = await hold(member, await createClass(db, {}));
    const as = (sql: string, params: unknown[]) => asUser(db, member.claims, (tx) => tx.query(sql, params));
    await expectSqlError(as("update public.payments set status = 'paid' where checkout_reference = $1", [h.checkout_reference]), {
      code: '42501',
    });
    await expectSqlError(
      as(
        "insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference) values ($1, 'plan', 'standard', 1, 'x', 'plan-x')",
        [member.memberId],
      ),
      { code: '42501' },
    );
    await expectSqlError(as('select public.apply_checkout_result($1, $2, $3, $4, $5)', [h.checkout_reference, 'c', 'PAID', 10, 'GBP']), {
      code: '42501',
    });
    await expectSqlError(as('select public.create_class_payment_hold($1, $2, $3)', [member.memberId, h.booking_id, 30]), { code: '42501' });
    expect((await payment(h.checkout_reference)).status).toBe('pending');
  });
});
