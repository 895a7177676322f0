import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Decision 0010: the allowance of a plan is enforced by book_class, the booking form's type is
// honoured or refused, and a member holds at most one unpaid spot.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type BookResult = { status: string; booking_type: string; needs_payment: boolean; price_payg: number };
const book = (u: TestUser, classId: string, type: string | null = null) =>
  asUser(db, u.claims, (tx) => rpc<BookResult>(tx, 'public.book_class($1, $2)', [classId, type]));
const usage = (u: TestUser) =>
  asUser(db, u.claims, (tx) =>
    rpc<{ allowance: number | null; used: number; remaining: number | null; bookings: number }>(tx, 'public.my_plan_usage()'),
  );
const hold = (u: TestUser, classId: string, type: string | null = null) =>
  asServiceRole(db, (tx) =>
    rpc<{ booking_id: string }>(tx, 'public.create_class_payment_hold($1, $2, 15, $3)', [u.memberId, classId, type]),
  );
const pendingOf = async (u: TestUser) =>
  (
    await db.query<{ class_id: string }>(`select class_id from public.bookings where member_id = $1 and payment_status = 'pending'`, [
      u.memberId,
    ])
  ).rows.map((r) => r.class_id);

/** A Standard member with `used` plan classes already booked this month. */
async function standardWith(used: number, label: string) {
  const member = await createUser(db, label, { membership_tier: 'standard' });
  for (let i = 0; i < used; i += 1) {
    const classId = await createClass(db);
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, classId]);
  }
  return member;
}

describe('monthly allowance', () => {
  it('books the 12th class on the plan and asks the 13th to pay the class price', async () => {
    const member = await standardWith(11, 'allow-12');
    expect(await usage(member)).toMatchObject({ allowance: 12, used: 11, remaining: 1 });
    expect(await book(member, await createClass(db))).toMatchObject({ status: 'booked', booking_type: 'paid' });
    expect(await usage(member)).toMatchObject({ used: 12, remaining: 0 });
    const thirteenth = await createClass(db, { price_payg: 10 });
    expect(await book(member, thirteenth)).toMatchObject({ status: 'payment_required', booking_type: 'payg', needs_payment: true });
    await expectSqlError(book(member, thirteenth, 'paid'), { hint: 'allowance_used', message: "You've used your 12 classes this month" });
    // The card checkout can hold it; paying for it leaves the allowance as it was.
    await hold(member, thirteenth);
    expect(await pendingOf(member)).toEqual([thirteenth]);
    expect(await usage(member)).toMatchObject({ used: 12 });
  });

  it('counts a late cancellation against the allowance, as the meters show', async () => {
    const member = await standardWith(11, 'allow-late');
    const soon = await createClass(db, { startsIn: '2 hours' });
    await book(member, soon);
    const { rows } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1 and class_id = $2', [
      member.memberId,
      soon,
    ]);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [rows[0]!.id]));
    expect(await usage(member)).toMatchObject({ used: 12, remaining: 0 });
    expect(await book(member, await createClass(db, { price_payg: 10 }))).toMatchObject({ status: 'payment_required' });
  });

  it('gives Platinum Premium 20 classes', async () => {
    const member = await createUser(db, 'allow-20', { membership_tier: 'premium' });
    expect(await usage(member)).toMatchObject({ allowance: 20, used: 0, remaining: 20 });
  });
});

describe('the booking type chosen on the form', () => {
  it('books a Standard member choosing pay-as-you-go through the card checkout, leaving the allowance', async () => {
    const member = await standardWith(0, 'type-payg');
    const classId = await createClass(db, { price_payg: 10 });
    expect(await book(member, classId, 'payg')).toMatchObject({ status: 'payment_required', booking_type: 'payg' });
    await hold(member, classId, 'payg');
    expect(await usage(member)).toMatchObject({ used: 0 });
  });

  it('refuses Free Trial once the trial is used and Member without a plan, changing nothing', async () => {
    const payg = await createUser(db, 'type-refused', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db);
    await expectSqlError(book(payg, classId, 'trial'), { hint: 'trial_unavailable' });
    await expectSqlError(book(payg, classId, 'paid'), { hint: 'plan_required' });
    await expectSqlError(book(payg, classId, 'gift'), { hint: 'invalid_booking_type' });
    const { rows } = await db.query('select 1 from public.bookings where member_id = $1', [payg.memberId]);
    expect(rows).toEqual([]);
  });

  it('says on the schedule which choices are open and why not', async () => {
    const member = await standardWith(12, 'type-facts');
    const classId = await createClass(db, { price_payg: 10 });
    const { rows } = await asUser(db, member.claims, (tx) =>
      tx.query('select booking_type, needs_payment, paid_refusal, trial_refusal from public.class_schedule(p_class_id => $1)', [classId]),
    );
    expect(rows).toEqual([
      { booking_type: 'payg', needs_payment: true, paid_refusal: 'allowance_used', trial_refusal: 'trial_unavailable' },
    ]);
  });
});

describe('one unpaid hold per member', () => {
  it('releases the first hold when a second checkout starts, freeing its spot', async () => {
    const payg = await createUser(db, 'one-hold', { membership_tier: 'payg', has_used_trial: true });
    const [first, second] = [await createClass(db, { capacity: 1 }), await createClass(db)];
    await hold(payg, first);
    await hold(payg, second);
    expect(await pendingOf(payg)).toEqual([second]);
    const { rows } = await db.query<{ spots_left: number }>('select spots_left from public.classes where id = $1', [first]);
    expect(rows[0]!.spots_left).toBe(1);
    const expired = await db.query<{ status: string }>(`select status from public.payments where class_id = $1`, [first]);
    expect(expired.rows).toEqual([{ status: 'expired' }]);
  });

  it('refuses a hold for a member who needs no payment', async () => {
    const premium = await createUser(db, 'hold-premium', { membership_tier: 'premium' });
    await expectSqlError(hold(premium, await createClass(db)), { hint: 'payment_not_required' });
  });
});

describe('Complete payment on a held spot', () => {
  type Hold = { booking_id: string; checkout_reference: string };
  const holdWithPage = async (u: TestUser, classId: string, page: string) => {
    const h = await asServiceRole(db, (tx) => rpc<Hold>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [u.memberId, classId]));
    await asServiceRole(db, (tx) =>
      tx.query('select public.set_payment_checkout($1, $2, $3)', [h.checkout_reference, `chk-${h.booking_id}`, page]),
    );
    return h;
  };
  const checkoutOf = (u: TestUser, bookingId: string) =>
    asUser(db, u.claims, (tx) => rpc<string>(tx, 'public.my_hold_checkout($1)', [bookingId]));
  const ended = { hint: 'hold_ended', message: 'This payment has ended. Book the class again to pay for it.' };

  it('sends the member back to the same checkout page while the hold keeps the spot', async () => {
    const payg = await createUser(db, 'resume-hold', { membership_tier: 'payg', has_used_trial: true });
    const h = await holdWithPage(payg, await createClass(db, { price_payg: 10 }), 'https://checkout.example/pay/1');
    expect(await checkoutOf(payg, h.booking_id)).toBe('https://checkout.example/pay/1');
    // Two arguments still work (the provider gave no page), and an id is never overwritten.
    await asServiceRole(db, (tx) => tx.query('select public.set_payment_checkout($1, $2)', [h.checkout_reference, 'chk-other']));
    expect(await checkoutOf(payg, h.booking_id)).toBe('https://checkout.example/pay/1');
  });

  it("refuses once the hold lapsed or was released, and for another member's hold, in the same words", async () => {
    const payg = await createUser(db, 'resume-ended', { membership_tier: 'payg', has_used_trial: true });
    const other = await createUser(db, 'resume-other', { membership_tier: 'payg', has_used_trial: true });
    const lapsed = await holdWithPage(payg, await createClass(db, { price_payg: 10 }), 'https://checkout.example/pay/2');
    await expectSqlError(checkoutOf(other, lapsed.booking_id), ended);
    await db.query(`update public.bookings set hold_expires_at = now() - interval '1 minute' where id = $1`, [lapsed.booking_id]);
    await expectSqlError(checkoutOf(payg, lapsed.booking_id), ended);
    const released = await holdWithPage(payg, await createClass(db, { price_payg: 10 }), 'https://checkout.example/pay/3');
    await asUser(db, payg.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [released.booking_id]));
    await expectSqlError(checkoutOf(payg, released.booking_id), ended);
  });

  it('stores only web addresses as checkout pages', async () => {
    const payg = await createUser(db, 'resume-bad-url', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: 10 });
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [payg.memberId, classId]),
    );
    await expectSqlError(
      asServiceRole(db, (tx) =>
        tx.query('select public.set_payment_checkout($1, $2, $3)', [h.checkout_reference, 'chk-x', 'javascript:alert(1)']),
      ),
      { code: '23514' },
    );
  });
});
