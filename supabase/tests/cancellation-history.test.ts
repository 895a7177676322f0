import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, rpc, type TestUser } from './support/fixtures.ts';

// My Bookings' Cancelled tab showed only what was cancelled on that visit. Every confirmed
// booking cancelled before its class is now kept (who cancelled, late or not, the studio's reason),
// readable by its member only.

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'history-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

type Cancellation = { class_name: string; cancelled_by: string; late: boolean; reason: string | null; booking_type: string };

/** What the member reads through the API (RLS applies), by class name. */
const myCancellations = (user: TestUser) =>
  asUser(
    db,
    user.claims,
    async (tx) =>
      (
        await tx.query<Cancellation>(
          'select class_name, cancelled_by, late, reason, booking_type::text from public.booking_cancellations order by class_name',
        )
      ).rows,
  );
const book = (user: TestUser, classId: string) =>
  asUser(db, user.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]));
const cancel = (user: TestUser, bookingId: string) => asUser(db, user.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));

describe('booking_cancellations', () => {
  it("keeps the member's own cancellations, in time and late, and the studio's with its reason", async () => {
    const member = await createUser(db, 'history-member', { membership_tier: 'premium' });
    const inTime = await createClass(db, { name: 'History In Time' });
    const late = await createClass(db, { name: 'History Late', startsIn: '2 hours' });
    const byAdmin = await createClass(db, { name: 'History Admin Cancel' });
    const deleted = await createClass(db, { name: 'History Deleted' });

    await cancel(member, (await book(member, inTime)).booking_id);
    await cancel(member, (await book(member, late)).booking_id);
    await cancel(admin, (await book(member, byAdmin)).booking_id);
    await book(member, deleted);
    await asUser(db, admin.claims, (tx) => tx.query('delete from public.classes where id = $1', [deleted]));

    expect(await myCancellations(member)).toEqual([
      { class_name: 'History Admin Cancel', cancelled_by: 'studio', late: false, reason: null, booking_type: 'paid' },
      {
        class_name: 'History Deleted',
        cancelled_by: 'studio',
        late: false,
        reason: 'the studio cancelled the class',
        booking_type: 'paid',
      },
      { class_name: 'History In Time', cancelled_by: 'member', late: false, reason: null, booking_type: 'paid' },
      { class_name: 'History Late', cancelled_by: 'member', late: true, reason: null, booking_type: 'paid' },
    ]);
    // Another member sees none of them.
    expect(await myCancellations(await createUser(db, 'history-other', { membership_tier: 'premium' }))).toEqual([]);
  });

  it('keeps nothing for an unpaid hold released, nor for a member removed with their bookings', async () => {
    const payg = await createUser(db, 'history-hold', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { name: 'History Hold', price_payg: 10 });
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ booking_id: string }>(tx, 'public.create_class_payment_hold($1, $2, 15)', [payg.memberId, classId]),
    );
    await cancel(payg, hold.booking_id);
    expect(await myCancellations(payg)).toEqual([]);

    const leaver = await createUser(db, 'history-leaver', { membership_tier: 'premium' });
    await book(leaver, classId);
    await db.query('delete from public.members where id = $1', [leaver.memberId]);
    expect((await db.query('select 1 from public.booking_cancellations where member_id = $1', [leaver.memberId])).rows).toEqual([]);
  });

  it('names a closure as the reason', async () => {
    const member = await createUser(db, 'history-closure', { membership_tier: 'premium' });
    const { rows } = await db.query<{ id: string; day: string }>(
      `insert into public.classes (name, start_time, trainer, capacity) values ('History Closed', date_trunc('day', now()) + interval '20 days 10 hours', 'Coach Test', 5)
       returning id, to_char(start_time at time zone 'Europe/London', 'YYYY-MM-DD') as day`,
    );
    await book(member, rows[0]!.id);
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.add_studio_closure($1, $2)', [rows[0]!.day, 'Hall repairs']));
    expect(await myCancellations(member)).toEqual([
      {
        class_name: 'History Closed',
        cancelled_by: 'studio',
        late: false,
        reason: 'the studio is closed (Hall repairs)',
        booking_type: 'paid',
      },
    ]);
  });
});
