import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, claimDue, fail, type Charge } from './support/membership-steps.ts';

// Decision 0081: a pay-as-you-go member with a saved card joins a full class's waitlist at its
// price; promotion holds the place and the renewal job charges the card once; a failed charge
// releases the place to the next in line; a payment for a place already gone is owed back.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const payg = async (label: string, card: boolean) => {
  const member = await createUser(db, label, { membership_tier: 'payg', has_used_trial: true });
  if (card)
    await db.query(`insert into private.member_cards (member_id, customer_id, token, saved_at) values ($1, $2, 'tok-pays', now())`, [
      member.memberId,
      `cus-${member.memberId}`,
    ]);
  return member;
};

async function fullClass(name: string) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, type, capacity, price_payg)
     values ($1, now() + interval '3 days', 'Coach Test', 'Group', 1, 12) returning id`,
    [name],
  );
  const holder = await createUser(db, `${name}-holder`, { membership_tier: 'standard' });
  const { rows: b } = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type, payment_status) values ($1, $2, 'paid', 'completed') returning id`,
    [holder.memberId, rows[0]!.id],
  );
  return { classId: rows[0]!.id, holderBooking: b[0]!.id };
}

const join = (u: TestUser, classId: string) =>
  asUser(db, u.claims, (tx) => rpc<{ position: number; price: number | null }>(tx, 'public.join_waitlist($1)', [classId]));
const placeOf = async (u: TestUser, classId: string) =>
  (
    await db.query<{ payment_status: string; hold: boolean }>(
      'select payment_status::text, hold_expires_at is not null as hold from public.bookings where member_id = $1 and class_id = $2',
      [u.memberId, classId],
    )
  ).rows[0] ?? null;
const waiting = (charges: Charge[]) => charges.filter((c) => c.checkout_reference.startsWith('wait-'));

describe('the pay-as-you-go waitlist', () => {
  it('joins with a saved card at the price; promotion charges once; a decline passes the place on', async () => {
    const { classId, holderBooking } = await fullClass('PAYG wait');
    const noCard = await payg('wait-no-card', false);
    await expectSqlError(join(noCard, classId), { hint: 'waitlist_payment_required' });
    const first = await payg('wait-first', true);
    const second = await payg('wait-second', true);
    expect(await join(first, classId)).toMatchObject({ position: 1, price: 12 });
    expect(await join(second, classId)).toMatchObject({ position: 2, price: 12 });

    // The only place frees: the first in line gets it held while their card is charged.
    await db.query('delete from public.bookings where id = $1', [holderBooking]);
    expect(await placeOf(first, classId)).toEqual({ payment_status: 'pending', hold: true });
    expect(await placeOf(second, classId)).toBeNull();
    // "Complete payment" on the held place says there is nothing to pay there.
    const { rows: held } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1', [first.memberId]);
    await expectSqlError(
      asUser(db, first.claims, (tx) => rpc(tx, 'public.my_hold_checkout($1)', [held[0]!.id])),
      {
        hint: 'charged_to_saved_card',
        message: 'This place from the waitlist is charged to your saved card shortly: there is nothing to pay here.',
      },
    );

    const now = new Date();
    const [charge, ...more] = waiting(await claimDue(db, now));
    expect(more).toEqual([]);
    expect(charge).toMatchObject({ amount: 12, billing_reason: 'waitlist_place', card_token: 'tok-pays' });
    expect(waiting(await claimDue(db, now))).toEqual([]);

    // Declined: the place goes to the next in line, whose charge is then claimed once and paid.
    await fail(db, charge!, now, 'declined');
    expect(await placeOf(first, classId)).toBeNull();
    expect(await placeOf(second, classId)).toEqual({ payment_status: 'pending', hold: true });
    const [next] = waiting(await claimDue(db, now));
    expect(next!.checkout_reference).not.toBe(charge!.checkout_reference);
    expect(await applyPaid(db, next!, 'chk-wait-2', now)).toMatchObject({ outcome: 'applied' });
    expect(await applyPaid(db, next!, 'chk-wait-2', now)).toMatchObject({ outcome: 'already_applied' });
    expect(await placeOf(second, classId)).toEqual({ payment_status: 'completed', hold: false });
    const { rows: paid } = await db.query<{ n: number; amount: number }>(
      `select count(*)::int as n, sum(amount)::float8 as amount from public.payments
        where member_id = $1 and billing_reason = 'waitlist_place' and status = 'paid'`,
      [second.memberId],
    );
    expect(paid).toEqual([{ n: 1, amount: 12 }]);
    const { rows: emails } = await db.query<{ kind: string }>(
      `select kind from public.notification_outbox where member_id = $1 and kind in ('booking_confirmed', 'payment_receipt') order by kind`,
      [second.memberId],
    );
    expect(emails.map((e) => e.kind)).toEqual(['booking_confirmed', 'payment_receipt']);
  });

  it('a payment for a place released meanwhile is owed back, and one never claimed is never charged', async () => {
    const { classId, holderBooking } = await fullClass('PAYG gone');
    const member = await payg('wait-gone', true);
    await join(member, classId);
    await db.query('delete from public.bookings where id = $1', [holderBooking]);
    const [charge] = waiting(await claimDue(db, new Date()));
    // The hold lapses while the card is being charged; the charge then arrives paid.
    await db.query(`update public.bookings set hold_expires_at = now() - interval '1 minute' where member_id = $1`, [member.memberId]);
    await asUser(db, { role: 'service_role' }, (tx) => rpc(tx, 'public.release_expired_holds_at($1)', [new Date().toISOString()]));
    expect(await placeOf(member, classId)).toBeNull();
    await applyPaid(db, charge!, 'chk-wait-gone', new Date());
    const { rows } = await db.query<{ reason: string; amount: number }>(
      'select reason, amount::float8 as amount from public.refunds_owed where member_id = $1',
      [member.memberId],
    );
    expect(rows).toEqual([{ reason: 'class_filled', amount: 12 }]);

    // A member who leaves their held place before the charge is claimed is never charged.
    const other = await fullClass('PAYG left');
    const leaver = await payg('wait-leaver', true);
    await join(leaver, other.classId);
    await db.query('delete from public.bookings where id = $1', [other.holderBooking]);
    const { rows: held } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1', [leaver.memberId]);
    await asUser(db, leaver.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [held[0]!.id]));
    const { rows: mine } = await db.query<{ checkout_reference: string }>(
      'select checkout_reference from public.payments where member_id = $1',
      [leaver.memberId],
    );
    expect(mine).toHaveLength(1);
    const claimed = waiting(await claimDue(db, new Date())).map((c) => c.checkout_reference);
    expect(claimed).not.toContain(mine[0]!.checkout_reference);
    const { rows: payments } = await db.query<{ status: string }>('select status::text from public.payments where member_id = $1', [
      leaver.memberId,
    ]);
    expect(payments).toEqual([{ status: 'expired' }]);
  });
});
