import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { emailsTo } from './studio-ops/helpers.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { FIRST_BREAKFAST_CLUB_AT_0630, withTemplate } from './support/timetable.ts';

// A class the studio moves or deletes tells the members booked on it (old and new time,
// or why and what is refunded); an admin's edit cannot put a class in the past or below the places
// already booked, and says so in words the form shows.

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'class-change-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

/** An admin's write to public.classes through the API (one request, RLS and grants apply). */
const asAdmin = (sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => tx.query(sql, params));
const book = (user: TestUser, classId: string) => asUser(db, user.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
const bookedCount = async (classId: string) =>
  (await db.query<{ n: number }>('select current_bookings as n from public.classes where id = $1', [classId])).rows[0]!.n;

/** The first Monday at least `days` days from today (London), 'YYYY-MM-DD': a day the template fills. */
const mondayAfter = async (days: number) =>
  (
    await db.query<{ d: string }>(
      `select to_char(d, 'YYYY-MM-DD') as d from generate_series((now() at time zone 'Europe/London')::date + $1::int,
              (now() at time zone 'Europe/London')::date + $1::int + 6, interval '1 day') d where extract(isodow from d) = 1`,
      [days],
    )
  ).rows[0]!.d;

/** A pay-as-you-go member who paid £10 for the class by card (the provider's paid result). */
async function paidBooking(label: string, classId: string) {
  const member = await createUser(db, label, { membership_tier: 'payg', has_used_trial: true });
  const hold = await asServiceRole(db, (tx) =>
    rpc<{ booking_id: string; checkout_reference: string }>(tx, 'public.create_class_payment_hold($1, $2, 15)', [member.memberId, classId]),
  );
  await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [hold.booking_id]);
  await db.query(`update public.payments set status = 'paid', paid_at = now() where checkout_reference = $1`, [hold.checkout_reference]);
  return member;
}

describe('moving a class', () => {
  it('emails each member with a confirmed place the old and the new time, once per move', async () => {
    const classId = await createClass(db, { name: 'Moved Circuits' });
    const booked = await createUser(db, 'moved-booked', { membership_tier: 'standard' });
    const holding = await createUser(db, 'moved-holding', { membership_tier: 'payg', has_used_trial: true });
    await book(booked, classId);
    await asServiceRole(db, (tx) => rpc(tx, 'public.create_class_payment_hold($1, $2, 15)', [holding.memberId, classId]));

    await asAdmin(`update public.classes set start_time = start_time + interval '1 day 2 hours' where id = $1`, [classId]);

    const moved = (await emailsTo(db, booked.memberId)).filter((e) => e.kind === 'class_moved');
    expect(moved).toHaveLength(1);
    expect(moved[0]!.subject).toMatch(/^Class moved: Moved Circuits is now \w+ \d+ \w+ \d{4}, \d{1,2}:\d\d [AP]M$/);
    expect(moved[0]!.body_text).toContain('The studio has moved Moved Circuits with Coach Test. Your place is kept.');
    expect(moved[0]!.body_text).toMatch(/Was: .+\nNow: .+ \(London time\)\nWhere: /);
    expect(moved[0]!.links).toEqual([{ label: 'Manage or cancel your booking', path: '/mybookings' }]);
    // An unpaid hold was never confirmed: nobody to tell.
    expect(await emailsTo(db, holding.memberId)).toEqual([]);

    // Renaming it (no new time) tells nobody.
    await asAdmin(`update public.classes set name = 'Moved Circuits Plus' where id = $1`, [classId]);
    expect((await emailsTo(db, booked.memberId)).filter((e) => e.kind === 'class_moved')).toHaveLength(1);
  });

  it('lets everyone booked before a move cancel free, whatever the new time: money and plan class back', async () => {
    const classId = await createClass(db, { name: 'Moved Late Spin', startsIn: '3 days', price_payg: 10 });
    const payg = await paidBooking('moved-payg', classId);
    const planned = await createUser(db, 'moved-plan', { membership_tier: 'standard' });
    await book(planned, classId);
    // The studio moves it to 20 minutes from now: well inside the late-cancel window.
    await asAdmin(`update public.classes set start_time = now() + interval '20 minutes' where id = $1`, [classId]);
    expect((await emailsTo(db, payg.memberId)).find((e) => e.kind === 'class_moved')?.body_text).toContain(
      'as the studio moved the class, cancelling is free at any time before it starts, and anything you paid or used for it comes back.',
    );
    // Someone booking after the move agreed to the new time: the usual rule.
    const after = await createUser(db, 'moved-after', { membership_tier: 'standard' });
    await book(after, classId);

    const mine = (u: TestUser) =>
      asUser(db, u.claims, (tx) => rpc<{ class_id: string; late_cancel_from: string | null }[]>(tx, 'public.my_bookings()'));
    expect((await mine(payg)).find((b) => b.class_id === classId)?.late_cancel_from).toBeNull();
    expect((await mine(after)).find((b) => b.class_id === classId)?.late_cancel_from).not.toBeNull();
    const used = async (u: TestUser) => (await asUser(db, u.claims, (tx) => rpc<{ used: number }>(tx, 'public.my_plan_usage()'))).used;
    const plannedUsed = await used(planned);

    const cancel = async (u: TestUser) => {
      const { rows } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1 and class_id = $2', [
        u.memberId,
        classId,
      ]);
      return asUser(db, u.claims, (tx) => rpc<{ late: boolean }>(tx, 'public.cancel_booking($1)', [rows[0]!.id]));
    };
    expect(await cancel(payg)).toMatchObject({ late: false });
    const { rows: refunds } = await db.query<{ amount: string; reason: string }>(
      `select r.amount::text, r.reason from public.refunds_owed r join public.payments p on p.id = r.payment_id
        where p.member_id = $1 and p.class_id = $2`,
      [payg.memberId, classId],
    );
    expect(refunds).toEqual([{ amount: '10.00', reason: 'member_cancelled_in_time' }]);
    expect(await cancel(planned)).toMatchObject({ late: false });
    expect(await used(planned)).toBe(plannedUsed - 1);
    expect(await cancel(after)).toMatchObject({ late: true });
  });

  it("gives a guest's pass back when the host cancels a class the studio moved close to its start", async () => {
    const classId = await createClass(db, { name: 'Moved With Guest', startsIn: '3 days' });
    const host = await createUser(db, 'moved-host', { membership_tier: 'premium' });
    const { booking_id: hostBooking } = await asUser(db, host.claims, (tx) =>
      rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]),
    );
    await asUser(db, admin.claims, (tx) =>
      rpc(tx, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [host.memberId, 'guest_pass', 'Test pass']),
    );
    await asUser(db, host.claims, (tx) =>
      rpc(tx, 'public.add_guest($1, $2, $3)', [hostBooking, 'Gail Guest', `gail-${host.memberId}@example.test`]),
    );
    const passUsed = async () =>
      (await db.query<{ used: boolean }>(`select used_at is not null as used from public.credits where member_id = $1`, [host.memberId]))
        .rows[0]!.used;
    expect(await passUsed()).toBe(true);
    await asAdmin(`update public.classes set start_time = now() + interval '20 minutes' where id = $1`, [classId]);
    expect(await asUser(db, host.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [hostBooking]))).toMatchObject({ late: false });
    expect(await passUsed()).toBe(false);
  });

  it('tells nobody when a class that already ran is corrected', async () => {
    const member = await createUser(db, 'moved-past', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '-2 days' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, classId]);
    await db.query(`update public.classes set start_time = start_time + interval '1 hour' where id = $1`, [classId]);
    expect(await emailsTo(db, member.memberId)).toEqual([]);
  });
});

describe('deleting a class', () => {
  it('emails members why, says the card payment will be refunded, and records the refund owed', async () => {
    const classId = await createClass(db, { name: 'Deleted Spin' });
    const standard = await createUser(db, 'deleted-standard', { membership_tier: 'standard' });
    await book(standard, classId);
    const payg = await paidBooking('deleted-payg', classId);

    await asAdmin('delete from public.classes where id = $1', [classId]);

    const [toStandard, ...more] = (await emailsTo(db, standard.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(more).toEqual([]);
    expect(toStandard!.body_text).toContain(
      'Your booking for Deleted Spin with Coach Test has been cancelled: the studio cancelled the class.',
    );
    expect(toStandard!.body_text).toContain('It does not count against your plan.');
    expect(toStandard!.body_text).not.toContain('refunded');

    const cancelled = (await emailsTo(db, payg.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.body_text).toContain(
      'The £10.00 you paid by card will be refunded to your card; you will get a receipt when it is.',
    );
    const { rows } = await db.query('select reason, amount from public.refunds_owed where member_id = $1', [payg.memberId]);
    expect(rows).toEqual([{ reason: 'class_deleted', amount: '10.00' }]);
  });

  it("tells the class's guests too, once, with no link to cancel a place that is gone", async () => {
    const classId = await createClass(db, { name: 'Deleted Guest Spin' });
    const host = await createUser(db, 'deleted-host', { membership_tier: 'premium' });
    await asAdmin(`select public.admin_grant_credits($1, 'guest_pass', 1, 30, 'Test pass')`, [host.memberId]);
    const { booking_id } = await asUser(db, host.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]));
    const guest = `deleted-guest-${Date.now()}@example.test`;
    await asUser(db, host.claims, (tx) => rpc(tx, 'public.add_guest($1, $2, $3)', [booking_id, 'Gia Guest', guest]));

    await asAdmin('delete from public.classes where id = $1', [classId]);

    const { rows } = await db.query<{ kind: string; subject: string; links: unknown[] }>(
      'select kind, subject, links from public.notification_outbox where to_email = $1 order by created_at, kind',
      [guest],
    );
    expect(rows.map((r) => r.kind)).toEqual(['guest_invited', 'guest_cancelled']);
    expect(rows[1]).toMatchObject({ subject: expect.stringMatching(/^Guest place cancelled: Deleted Guest Spin, /), links: [] });
  });

  it("says the refund in a member's own in-time cancellation email, and nothing of money in a late one", async () => {
    const inTime = await createClass(db, { name: 'In Time Yoga' });
    const member = await paidBooking('own-cancel-in-time', inTime);
    const bookingId = (await db.query<{ id: string }>('select id from public.bookings where member_id = $1', [member.memberId])).rows[0]!
      .id;
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));
    const [email] = (await emailsTo(db, member.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(email!.body_text).toContain('The £10.00 you paid by card will be refunded to your card');

    const late = await createClass(db, { name: 'Late Yoga', startsIn: '2 hours' });
    const lateMember = await paidBooking('own-cancel-late', late);
    const lateBooking = (await db.query<{ id: string }>('select id from public.bookings where member_id = $1', [lateMember.memberId]))
      .rows[0]!.id;
    await asUser(db, lateMember.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [lateBooking]));
    const [lateEmail] = (await emailsTo(db, lateMember.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(lateEmail!.body_text).toContain('This was a late cancellation');
    // A late cancel owes nothing back, and says the payment is kept.
    expect(lateEmail!.body_text).toContain('so the payment is kept: no refund is due.');
    expect(lateEmail!.body_text).not.toContain('will be refunded');
  });

  it('a regeneration emails each removed booking once, with its own reason', async () => {
    const from = await mondayAfter(40);
    const member = await createUser(db, 'regen-once', { membership_tier: 'premium' });
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.regenerate_timetable($1, $1)', [from]));
    const { rows } = await db.query<{ id: string }>(
      `select id from public.classes where (start_time at time zone 'Europe/London')::date = $1::date order by start_time limit 1`,
      [from],
    );
    await book(member, rows[0]!.id);
    // The template's first Breakfast Club moves to 06:30: generating replaces the 06:00 class.
    await withTemplate(db, FIRST_BREAKFAST_CLUB_AT_0630, () =>
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.regenerate_timetable($1, $1)', [from])),
    );
    const cancelled = (await emailsTo(db, member.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.body_text).toContain('has been cancelled: the timetable was changed.');
  });
});

describe("an admin's class edit", () => {
  it('refuses a capacity below the places booked, saying how many, and changes nothing', async () => {
    const classId = await createClass(db, { capacity: 5 });
    for (const label of ['cap-a', 'cap-b']) await book(await createUser(db, label, { membership_tier: 'premium' }), classId);
    await expectSqlError(asAdmin('update public.classes set capacity = 1 where id = $1', [classId]), {
      code: '23514',
      hint: 'capacity_below_bookings',
      message: '2 members are booked on this class, so the capacity cannot be less than 2',
    });
    expect((await db.query('select capacity from public.classes where id = $1', [classId])).rows).toEqual([{ capacity: 5 }]);
    expect(await bookedCount(classId)).toBe(2);
    await asAdmin('update public.classes set capacity = 2 where id = $1', [classId]);
  });

  it('refuses to create or move a class into the past, but lets a past class be corrected', async () => {
    await expectSqlError(
      asAdmin(`insert into public.classes (name, start_time, trainer) values ('Yesterday', now() - interval '1 day', 'Coach Test')`),
      { code: '22023', hint: 'class_in_past', message: 'The class must start in the future' },
    );
    const upcoming = await createClass(db, { name: 'Not Yet' });
    await expectSqlError(asAdmin(`update public.classes set start_time = now() - interval '1 hour' where id = $1`, [upcoming]), {
      hint: 'class_in_past',
    });
    const past = await createClass(db, { name: 'Ran Last Week', startsIn: '-7 days' });
    await asAdmin(`update public.classes set trainer = 'Coach Corrected' where id = $1`, [past]);
    expect((await db.query('select trainer from public.classes where id = $1', [past])).rows).toEqual([{ trainer: 'Coach Corrected' }]);
  });

  it('generated classes carry a description, so the class form can edit them', async () => {
    const from = await mondayAfter(50);
    const friday = await mondayAfter(50).then((monday) =>
      db.query<{ d: string }>(`select to_char($1::date + 4, 'YYYY-MM-DD') as d`, [monday]),
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.regenerate_timetable($1, $2)', [from, friday.rows[0]!.d]));
    const { rows } = await db.query<{ name: string; description: string | null }>(
      `select distinct name, description from public.classes where start_time >= $1::date and start_time < $1::date + 5 order by name`,
      [from],
    );
    expect(rows.map((r) => r.name)).toEqual(['Breakfast Club', 'Kids Club']);
    for (const row of rows) expect(row.description?.length).toBeGreaterThan(20);
  });
});
