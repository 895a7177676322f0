import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../../local/db/as-user.ts';
import type { Database } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from '../support/fixtures.ts';
import { bookingIdOf, call, emailsTo, fillWith, waitlistOf } from './helpers.ts';

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'lc-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

interface CancelResult {
  booking_id: string;
  class_id: string;
  spots_left: number;
  late: boolean;
}
interface Usage {
  month_start: string;
  bookings: number;
  late_cancellations: number;
  used: number;
}

const book = (u: TestUser, classId: string) => call<{ booking_id: string }>(db, u, 'public.book_class($1)', [classId]);
const cancel = (u: TestUser, bookingId: string) => call<CancelResult>(db, u, 'public.cancel_booking($1)', [bookingId]);
const usage = (u: TestUser) => call<Usage>(db, u, 'public.my_plan_usage()');

describe('cancellation window', () => {
  it('has the studio defaults on a new class: 12 hours late-cancel, 2 hours waitlist cut-off', async () => {
    const classId = await createClass(db);
    const { rows } = await db.query<{ late: string; cutoff: string }>(
      `select late_cancel_window::text as late, waitlist_closes_before::text as cutoff from public.classes where id = $1`,
      [classId],
    );
    expect(rows).toEqual([{ late: '12:00:00', cutoff: '02:00:00' }]);
  });

  it('is not late outside the window: nothing recorded, the booking no longer counts', async () => {
    const member = await createUser(db, 'lc-early', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '2 days' });
    const { booking_id } = await book(member, classId);
    expect(await usage(member)).toMatchObject({ bookings: 1, late_cancellations: 0, used: 1 });
    expect(await cancel(member, booking_id)).toEqual({ booking_id, class_id: classId, spots_left: 10, late: false });
    expect(await usage(member)).toMatchObject({ bookings: 0, late_cancellations: 0, used: 0 });
  });

  it('is late inside the window: the spot is freed (and promoted) but the class still counts', async () => {
    const member = await createUser(db, 'lc-late', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '6 hours', capacity: 2 });
    await fillWith(db, classId, 1, 'lc-late-filler');
    const { booking_id } = await book(member, classId);
    const waiting = await createUser(db, 'lc-late-wait', { membership_tier: 'premium' });
    await call(db, waiting, 'public.join_waitlist($1)', [classId]);

    const result = await cancel(member, booking_id);
    expect(result).toEqual({ booking_id, class_id: classId, spots_left: 0, late: true });
    expect(await bookingIdOf(db, waiting.memberId, classId)).not.toBeNull();
    expect(await waitlistOf(db, classId)).toEqual([]);

    const u = await usage(member);
    expect(u).toMatchObject({ bookings: 0, late_cancellations: 1, used: 1 });
    const { rows } = await db.query<{ month: Date }>(
      `select date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London' as month`,
    );
    expect(new Date(u.month_start).getTime()).toBe(rows[0]!.month.getTime());

    const mine = await asUser(
      db,
      member.claims,
      async (tx) =>
        (await tx.query<{ booking_id: string; booking_type: string }>('select booking_id, booking_type from public.late_cancellations'))
          .rows,
    );
    expect(mine).toEqual([{ booking_id, booking_type: 'paid' }]);

    const emails = await emailsTo(db, member.memberId);
    expect(emails.map((e) => e.kind)).toEqual(['booking_confirmed', 'booking_cancelled']);
    expect(emails[1]!.body_text).toContain(
      'This was a late cancellation (less than 12 hours before the start), so the class still counts against your plan this month.',
    );
    expect(emails[1]!.links.map((l) => l.path)).toEqual(['/mybookings', '/my-schedule']);
  });

  it("words a pay-as-you-go member's late cancel as a payment kept, never their plan", async () => {
    const member = await createUser(db, 'lc-payg', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { startsIn: '2 hours', price_payg: 0 });
    const { booking_id } = await book(member, classId);
    expect((await cancel(member, booking_id)).late).toBe(true);
    const emails = await emailsTo(db, member.memberId);
    const cancelled = emails.find((e) => e.kind === 'booking_cancelled')!;
    expect(cancelled.body_text).toContain('so the payment is kept: no refund is due.');
    expect(cancelled.body_text).not.toContain('your plan');
  });

  it('follows the class own window', async () => {
    const member = await createUser(db, 'lc-own', { membership_tier: 'premium' });
    const classId = await createClass(db, { startsIn: '6 hours' });
    await db.query(`update public.classes set late_cancel_window = '2 hours' where id = $1`, [classId]);
    const { booking_id } = await book(member, classId);
    expect((await cancel(member, booking_id)).late).toBe(false);
  });

  it('is never late when an admin cancels: the studio does not use up the member plan', async () => {
    const member = await createUser(db, 'lc-by-admin', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '1 hour' });
    const { booking_id } = await book(member, classId);
    expect((await cancel(admin, booking_id)).late).toBe(false);
    expect(await usage(member)).toMatchObject({ late_cancellations: 0, used: 0 });
    // The member is still told their booking went.
    expect((await emailsTo(db, member.memberId)).map((e) => e.kind)).toEqual(['booking_confirmed', 'booking_cancelled']);
  });

  it('hides other members late cancellations and refuses client writes', async () => {
    const member = await createUser(db, 'lc-rls', { membership_tier: 'standard' });
    const other = await createUser(db, 'lc-rls-other', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '3 hours' });
    const { booking_id } = await book(member, classId);
    await cancel(member, booking_id);
    const seen = (u: TestUser) =>
      asUser(
        db,
        u.claims,
        async (tx) => (await tx.query('select 1 from public.late_cancellations where booking_id = $1', [booking_id])).rows.length,
      );
    expect(await seen(other)).toBe(0);
    expect(await seen(admin)).toBe(1);
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('delete from public.late_cancellations')),
      { code: '42501' },
    );
  });

  it('my_plan_usage needs a signed-in member', async () => {
    await expectSqlError(
      asUser(db, { role: 'authenticated' }, (tx) => rpc(tx, 'public.my_plan_usage()')),
      { hint: 'not_authenticated' },
    );
    await expectSqlError(
      asUser(db, { role: 'authenticated', sub: crypto.randomUUID() }, (tx) => rpc(tx, 'public.my_plan_usage()')),
      {
        hint: 'member_not_found',
      },
    );
  });
});
