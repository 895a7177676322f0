import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// /membership's billing history is money that moved (my_billing_history): a payment once it is
// paid, a refund once it is made. A checkout that took nothing (abandoned, declined, let go) is no
// line of it: a member read "£115.00 Expired" beside their real payments.

type Entry = {
  id: string;
  kind: 'payment' | 'refund';
  happened_at: string;
  description: string;
  amount: number;
  currency: string;
  reference: string | null;
  billed_name: string | null;
  billed_email: string | null;
};

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'billing-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

let references = 0;

/** A plan checkout in the given state, as the checkout function records it (service role). */
async function planPayment(member: TestUser, status: 'pending' | 'paid' | 'failed' | 'expired', description: string, at: string) {
  await db.query(
    `insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference, status, created_at, paid_at)
     values ($1, 'plan', 'dropin', 115, $2, $3, $4::public.checkout_status, $5::timestamptz, $6::timestamptz)`,
    [member.memberId, description, `billing-${process.pid}-${(references += 1)}`, status, at, status === 'paid' ? at : null],
  );
}

const historyOf = (member: TestUser) => asUser(db, member.claims, (tx) => rpc<Entry[]>(tx, 'public.my_billing_history()'));

describe('my_billing_history', () => {
  it('lists paid payments and refunds made, newest first, and no checkout that took nothing', async () => {
    const member = await createUser(db, 'billing-member', { membership_tier: 'payg', has_used_trial: true });
    await planPayment(member, 'expired', 'Drop-In Session (£115), left at the card page', '2025-01-02T10:00:00Z');
    await planPayment(member, 'failed', 'Drop-In Session (£115), declined', '2025-01-03T10:00:00Z');
    await planPayment(member, 'pending', 'Drop-In Session (£115), still at the card page', '2025-01-04T10:00:00Z');
    await planPayment(member, 'paid', 'Drop-In Session (£115)', '2025-01-05T10:00:00Z');

    // A pay-as-you-go class paid, then cancelled by the studio and refunded.
    const classId = await createClass(db, { price_payg: 10 });
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ checkout_reference: string; booking_id: string }>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [
        member.memberId,
        classId,
      ]),
    );
    await asServiceRole(db, (tx) =>
      rpc(tx, `public.apply_checkout_result($1, 'chk-billing', 'PAID', 10, 'GBP')`, [hold.checkout_reference]),
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [hold.booking_id]));
    const owed = await db.query<{ id: string }>('select id from public.refunds_owed where member_id = $1', [member.memberId]);
    const before = await historyOf(member);
    expect(
      before.map((e) => e.kind),
      'a refund owed but not yet made moved no money',
    ).toEqual(['payment', 'payment']);
    await asUser(db, admin.claims, (tx) => rpc(tx, 'to_json(public.mark_refund_refunded($1))', [owed.rows[0]!.id]));

    const history = await historyOf(member);
    expect(history.map((e) => [e.kind, e.description, Number(e.amount)])).toEqual([
      ['refund', expect.stringContaining('Test Class'), 10],
      ['payment', expect.stringContaining('Test Class'), 10],
      ['payment', 'Drop-In Session (£115)', 115],
    ]);
    const [refund, classPayment] = history;
    expect(refund!.reference, 'a refund names the payment it gives back').toBe(hold.checkout_reference);
    expect(classPayment!.reference).toBe(hold.checkout_reference);
    expect(refund!.currency).toBe('GBP');
    expect(history[2]).toMatchObject({ happened_at: expect.stringMatching(/^2025-01-05T10:00:00/), billed_email: member.email });
    expect(history.some((e) => /left at the card page|declined|still at the card page/.test(e.description))).toBe(false);
  });

  it('is the caller’s own: another member sees none of it, a visitor may not ask', async () => {
    const one = await createUser(db, 'billing-one');
    const other = await createUser(db, 'billing-other');
    await planPayment(one, 'paid', 'Bronze Package (£750)', '2030-02-01T10:00:00Z');
    expect((await historyOf(one)).map((e) => e.description)).toEqual(['Bronze Package (£750)']);
    expect(await historyOf(other)).toEqual([]);
    await expectSqlError(
      asUser(db, { role: 'anon' }, (tx) => rpc(tx, 'public.my_billing_history()')),
      { code: '42501' },
    );
  });

  it('keeps to the limit asked for, newest first', async () => {
    const member = await createUser(db, 'billing-limit');
    for (const day of ['01', '02', '03']) await planPayment(member, 'paid', `Payment of the ${day}th`, `2030-03-${day}T10:00:00Z`);
    const two = await asUser(db, member.claims, (tx) => rpc<Entry[]>(tx, 'public.my_billing_history($1)', [2]));
    expect(two.map((e) => e.description)).toEqual(['Payment of the 03th', 'Payment of the 02th']);
  });
});
